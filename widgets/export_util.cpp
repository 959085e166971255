// SPDX-License-Identifier: MIT
#include "widgets/export_util.h"

#include "gpu/io/safe_file.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QSettings>
#include <QStandardPaths>
#include <QStringList>
#include <QWidget>

#include <algorithm>

namespace ss::gui {

QString ask_export_path(QWidget* parent, const QString& title, const QString& file_name, const QString& filter) {
    QSettings settings;
    const QString key = QStringLiteral("export/last_directory");
    const QString dir
        = settings.value(key, QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    QString path = QFileDialog::getSaveFileName(parent, title, dir + QLatin1Char('/') + file_name, filter);
    if (!path.isEmpty()) settings.setValue(key, QFileInfo(path).absolutePath());
    return path;
}

bool save_png(const QImage& image, const QString& path, QString* why) {
    // Encoded in memory, then written through gpu/io/safe_file: a full disk or a device path leaves no
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

QString caption_for(const StencilConfig& c, const QString& device, long long iteration, const QString& what) {
    QStringList parts;
    if (!what.isEmpty()) parts << what;
    parts << QString::fromStdString(describe(c));
    if (!device.isEmpty()) parts << device;
    parts << QCoreApplication::translate("export", "iteration %1").arg(iteration);
    parts << QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    return parts.join(QStringLiteral(" · "));
}

QImage with_caption(const QImage& image, const QString& caption) {
    if (caption.isEmpty() || image.isNull()) return image;
    QFont font;
    font.setPixelSize(std::max(11, std::min(16, image.width() / 60)));
    const QFontMetrics metrics(font);
    // A narrow picture (a small field) gets as many lines as the caption needs: it wraps, never cut.
    const int width = std::max(image.width() - 8, 1);
    constexpr int flags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap;
    const int lines_height = metrics.boundingRect(QRect(0, 0, width, 1 << 20), flags, caption).height();
    const int strip = std::max(lines_height, metrics.height()) + 8;
    QImage out(image.width(), image.height() + strip, QImage::Format_ARGB32);
    out.fill(Qt::white);
    QPainter p(&out);
    p.drawImage(0, 0, image);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QRect(4, image.height(), width, strip), flags, caption);
    return out;
}

bool save_widget_png(QWidget* widget, const QString& path, QString* why, const QString& caption) {
    return save_png(with_caption(widget->grab().toImage(), caption), path, why);
}

} // namespace ss::gui
