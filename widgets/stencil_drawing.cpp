// SPDX-License-Identifier: MIT
#include "widgets/stencil_drawing.h"

#include "gpu/problem/physics.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

// How a drawing of `planes` square planes of `side` cells each fills `area`: the column count that draws the cells
// largest, and that size. Planes are a cell apart.
struct PlaneLayout {
    int columns = 1, rows = 1;
    double cell = 0.0;
};

PlaneLayout layout_planes(int planes, int side, QSizeF area) {
    PlaneLayout best;
    for (int columns = 1; columns <= planes; ++columns) {
        const int rows = (planes + columns - 1) / columns;
        const double width_cells = columns * side + (columns - 1), height_cells = rows * side + (rows - 1);
        const double cell = std::min(area.width() / width_cells, area.height() / height_cells);
        if (cell > best.cell) best = { columns, rows, cell };
    }
    return best;
}

const QColor kPositive(46, 111, 216);
const QColor kNegative(216, 67, 46);

} // namespace

StencilShape drawn_stencil(const StencilProblem& p) {
    if (p.stencil == StencilKind::Points) return p.shape ? *p.shape : StencilShape {};
    if (p.stencil == StencilKind::Diffusion4) {
        StencilShape s { "diffusion4", 2, {}, {} };
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) {
                const int far = std::abs(dx) + std::abs(dy);
                if (far > 2) continue;
                const bool axis = dx == 0 || dy == 0;
                const double w = far == 0 ? 20.0 : far == 1 ? -8.0 : axis ? 1.0 : 2.0;
                s.points.push_back({ dx, dy, 0, w });
            }
        return s; // built in canonical order
    }
    const StarWeights w = star_weights(p.rule, p.dims, p.radius);
    StencilShape s { "star", p.dims, {}, {} };
    if (w.centre != 0.0) s.points.push_back({ 0, 0, 0, w.centre });
    for (int d = 1; d <= p.radius && d < int(w.neighbour.size()); ++d)
        for (const int sign : { -1, 1 }) {
            s.points.push_back({ sign * d, 0, 0, w.neighbour[std::size_t(d)] });
            s.points.push_back({ 0, sign * d, 0, w.neighbour[std::size_t(d)] });
            if (p.dims == 3) s.points.push_back({ 0, 0, sign * d, w.neighbour[std::size_t(d)] });
        }
    sort_points(s.points);
    return s;
}

StencilDrawing::StencilDrawing(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("stencil_drawing"));
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void StencilDrawing::set_shape(StencilShape shape) {
    m_shape = std::move(shape);
    update();
}

QSize StencilDrawing::sizeHint() const {
    return { 64, 26 }; // the control panel's height is scarce: it must fit at 1280x720 (tst_classroom)
}

QSize StencilDrawing::minimumSizeHint() const {
    return sizeHint();
}

void StencilDrawing::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);
    if (m_shape.points.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, tr("no stencil"));
        return;
    }
    const int radius = std::max(m_shape.radius(), 1), side = 2 * radius + 1;
    const int planes = m_shape.dims == 3 ? side : 1;
    const PlaneLayout layout = layout_planes(planes, side, area.size());
    const double cell = layout.cell;
    double largest = 0.0;
    for (const StencilPoint& p : m_shape.points)
        if (std::isfinite(p.weight)) largest = std::max(largest, std::abs(p.weight));
    // The whole drawing centred in the widget.
    const QSizeF used(
        cell * (layout.columns * side + layout.columns - 1), cell * (layout.rows * side + layout.rows - 1));
    const QPointF origin = area.center() - QPointF(used.width() / 2, used.height() / 2);
    auto plane_origin = [&](int dz) {
        const int index = dz + (planes == 1 ? 0 : radius);
        const int column = index % layout.columns, row = index / layout.columns; // the plane's place in the grid
        return origin + QPointF(column * (side + 1) * cell, row * (side + 1) * cell);
    };
    auto centre_of = [&](int dx, int dy, int dz) {
        return plane_origin(dz) + QPointF((dx + radius + 0.5) * cell, (dy + radius + 0.5) * cell);
    };
    const QColor grid = palette().color(QPalette::Mid);
    for (int dz = planes == 1 ? 0 : -radius; dz <= (planes == 1 ? 0 : radius); ++dz) {
        const QRectF frame(plane_origin(dz), QSizeF(side * cell, side * cell));
        painter.setPen(QPen(dz == 0 ? palette().color(QPalette::Text) : grid, dz == 0 && planes > 1 ? 1.2 : 0.6));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(frame);
        painter.setPen(Qt::NoPen);
        painter.setBrush(grid);
        if (cell >= 4.0) // the empty offsets, where there is room to tell them apart
            for (int dy = -radius; dy <= radius; ++dy)
                for (int dx = -radius; dx <= radius; ++dx)
                    painter.drawEllipse(centre_of(dx, dy, dz), cell * 0.08, cell * 0.08);
    }
    for (const StencilPoint& p : m_shape.points) {
        const double share = largest > 0.0 && std::isfinite(p.weight) ? std::abs(p.weight) / largest : 1.0;
        QColor fill = p.weight < 0.0 ? kNegative : kPositive;
        fill.setAlphaF(float(0.35 + 0.65 * share)); // the smallest weight still shows
        painter.setBrush(p.weight == 0.0 ? QBrush(Qt::NoBrush) : QBrush(fill));
        painter.setPen(p.weight == 0.0 ? QPen(kPositive, 1.0) : QPen(Qt::NoPen));
        const double r = cell * 0.42;
        painter.drawEllipse(centre_of(p.dx, p.dy, p.dz), r, r);
    }
    // The centre: the cell the stencil updates, ringed whether or not it is one of the points.
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(palette().color(QPalette::Text), std::max(1.0, cell * 0.12)));
    painter.drawEllipse(centre_of(0, 0, 0), cell * 0.5, cell * 0.5);
}

} // namespace ss::gui
