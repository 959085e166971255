// SPDX-License-Identifier: MIT
#include "widgets/export_util.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QPixmap>
#include <QSettings>
#include <QStandardPaths>
#include <QWidget>

namespace ss::gui {

QString ask_export_path(QWidget* parent, const QString& title, const QString& file_name, const QString& filter) {
    QSettings settings;
    const QString key = QStringLiteral("export/last_directory");
    const QString dir
        = settings.value(key, QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    const QString path = QFileDialog::getSaveFileName(parent, title, dir + QLatin1Char('/') + file_name, filter);
    if (!path.isEmpty()) settings.setValue(key, QFileInfo(path).absolutePath());
    return path;
}

bool save_widget_png(QWidget* widget, const QString& path, QString* why) {
    if (widget->grab().save(path, "PNG")) return true;
    if (why) *why = QCoreApplication::translate("export", "could not write %1").arg(path);
    return false;
}

} // namespace ss::gui
