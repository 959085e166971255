// SPDX-License-Identifier: MIT
#include "widgets/export_util.h"

#include "gpu/safe_file.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
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

bool save_png(const QImage& image, const QString& path, QString* why) {
    // Encoded in memory, then written through gpu/safe_file: a full disk or a device path leaves no
    // 0-byte file behind and says why; the old file stays until the new one is complete.
    QByteArray png;
    QBuffer buffer(&png);
    if (image.isNull() || !buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        if (why) *why = QCoreApplication::translate("export", "could not encode the picture for %1").arg(path);
        return false;
    }
    const Status s = replace_file(QFile::encodeName(path).toStdString(), png.toStdString(), "picture");
    if (!s && why) *why = QString::fromStdString(s.reason);
    return bool(s);
}

bool save_widget_png(QWidget* widget, const QString& path, QString* why) {
    return save_png(widget->grab().toImage(), path, why);
}

} // namespace ss::gui
