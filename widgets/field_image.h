// SPDX-License-Identifier: MIT
// The field as pixels on the host: the raster view, screenshots and the colour bar. The same table
// and rounding as field.frag, so an export matches what the GL view shows.
#pragma once

#include "session/value_range.h"
#include "widgets/colormap.h"

#include <QImage>
#include <QRect>
#include <QStringList>

class QPainter;

namespace ss::gui {

// One pixel per cell; cell (0, 0) at the bottom left, like the views.
QImage render_field(const float* values, int width, int height, ColormapKind, const ValueRange&);

// A vertical bar, high values on top, with the range's end and middle values written beside it and the
// quantity (what the values are) written upwards to their right.
void paint_colour_bar(
    QPainter&, const QRect& bar, ColormapKind, const ValueRange&, const QColor& text, const QString& quantity = {});
// The bar's three labels, top to bottom: the overlay repaints only when they change.
QStringList colour_bar_labels(const ValueRange&);
// Width the bar and its labels need beside a field image.
int colour_bar_margin(const QFont&);

// The field image with a colour bar to its right (the "export field" picture). The field keeps
// its resolution, at the top left, so pixel (x, y) is cell (x, height - 1 - y).
QImage compose_with_colour_bar(const QImage& field, ColormapKind, const ValueRange&, const QString& quantity = {});

// A field value as the colour bar and the hover readout write it: four decimals, as the range boxes take
// them ("0.5000"), or two in scientific notation where four would show no digit (below 1e-3) or too many
// (1e4 and more): "2.50e+05". QString::number: the C locale's '.', whatever the user's.
QString format_value(double);

} // namespace ss::gui
