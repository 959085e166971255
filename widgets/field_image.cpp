// SPDX-License-Identifier: MIT
#include "widgets/field_image.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ss::gui {

QImage render_field(const float* values, int width, int height, ColormapKind kind, const ValueRange& range) {
    QImage image(width, height, QImage::Format_RGB32);
    const ColormapTable& table = colormap_table(kind);
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(height - 1 - y));
        const float* row = values + std::size_t(y) * width;
        for (int x = 0; x < width; ++x) {
            const Rgb8 c = table[colormap_index(range.normalise(row[x]))];
            line[x] = qRgb(c.r, c.g, c.b);
        }
    }
    return image;
}

namespace {

// The widest label format_value writes, for the room beside the bar.
QString widest_value_text() {
    return QStringLiteral("-8888.8888");
}

} // namespace

QString format_value(double v) {
    const double a = std::fabs(v);
    if (a != 0.0 && (a >= 1e4 || a < 1e-3)) return QString::number(v, 'e', 2);
    return QString::number(v, 'f', 4);
}

void paint_colour_bar(QPainter& p, const QRect& bar, ColormapKind kind, const ValueRange& range, const QColor& text,
    const QString& quantity) {
    if (bar.height() < 2 || bar.width() < 1) return;
    const ColormapTable& table = colormap_table(kind);
    for (int y = 0; y < bar.height(); ++y) {
        const float t = 1.0f - float(y) / float(bar.height() - 1);
        const Rgb8 c = table[colormap_index(t)];
        p.fillRect(QRect(bar.left(), bar.top() + y, bar.width(), 1), QColor(c.r, c.g, c.b));
    }
    p.setPen(text);
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    const QFontMetrics fm(p.font());
    const int x = bar.right() + 4;
    const QStringList labels = colour_bar_labels(range);
    p.drawText(QPoint(x, bar.top() + fm.ascent()), labels[0]);
    p.drawText(QPoint(x, bar.center().y() + fm.ascent() / 2), labels[1]);
    p.drawText(QPoint(x, bar.bottom()), labels[2]);
    if (quantity.isEmpty()) return;
    // upwards, centred on the bar, right of the widest label
    const int column = x + fm.horizontalAdvance(widest_value_text()) + 4;
    const int half_width = fm.horizontalAdvance(quantity) / 2; // whole pixels, as the labels are placed
    p.save();
    p.translate(column + fm.ascent(), bar.center().y() + half_width);
    p.rotate(-90);
    p.drawText(QPoint(0, 0), quantity);
    p.restore();
}

QStringList colour_bar_labels(const ValueRange& range) {
    return { format_value(range.hi), format_value(0.5 * (double(range.lo) + range.hi)), format_value(range.lo) };
}

int colour_bar_margin(const QFont& font) {
    const QFontMetrics fm(font);
    return 8 + 16 + 4 + fm.horizontalAdvance(widest_value_text()) + 4 + fm.height() + 6;
}

QImage compose_with_colour_bar(
    const QImage& field, ColormapKind kind, const ValueRange& range, const QString& quantity) {
    QFont font;
    font.setPixelSize(12);
    const int margin = colour_bar_margin(font);
    const int height = std::max(field.height(), 96); // room for three labels on tiny fields
    QImage out(field.width() + margin, height, QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter p(&out);
    p.drawImage(0, 0, field);
    p.setFont(font);
    const QRect bar(field.width() + 8, 6, 16, height - 12);
    paint_colour_bar(p, bar, kind, range, Qt::black, quantity);
    return out;
}

} // namespace ss::gui
