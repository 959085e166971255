// SPDX-License-Identifier: MIT
#include "widgets/view_transform.h"

#include <algorithm>
#include <cmath>

namespace ss::gui {

void ViewTransform::set_field(int width, int height) {
    m_field_w = std::max(width, 1);
    m_field_h = std::max(height, 1);
}

void ViewTransform::set_widget(double width, double height) {
    m_widget_w = std::max(width, 1.0);
    m_widget_h = std::max(height, 1.0);
}

double ViewTransform::pixels_per_cell() const {
    return std::min(m_widget_w / m_field_w, m_widget_h / m_field_h) * m_zoom;
}

RectD ViewTransform::field_rect() const {
    const double s = pixels_per_cell(), w = m_field_w * s, h = m_field_h * s;
    return { (m_widget_w - w) / 2 + m_pan_x, (m_widget_h - h) / 2 + m_pan_y, w, h };
}

PointD ViewTransform::cell_to_pixel(PointD cell) const {
    const RectD r = field_rect();
    const double s = pixels_per_cell();
    return { r.left + cell.x * s, r.top + r.height - cell.y * s };
}

PointD ViewTransform::pixel_to_cell(PointD pixel) const {
    const RectD r = field_rect();
    const double s = pixels_per_cell();
    return { (pixel.x - r.left) / s, (r.top + r.height - pixel.y) / s };
}

std::optional<Cell> ViewTransform::cell_at(PointD pixel) const {
    const PointD c = pixel_to_cell(pixel);
    const int x = int(std::floor(c.x)), y = int(std::floor(c.y));
    if (x < 0 || y < 0 || x >= m_field_w || y >= m_field_h) return std::nullopt;
    return Cell { x, y };
}

void ViewTransform::zoom_about(PointD pixel, double factor) {
    const PointD anchor = pixel_to_cell(pixel);
    m_zoom = std::clamp(m_zoom * factor, kMinZoom, kMaxZoom);
    const PointD moved = cell_to_pixel(anchor);
    m_pan_x += pixel.x - moved.x;
    m_pan_y += pixel.y - moved.y;
}

void ViewTransform::pan_by(double dx, double dy) {
    m_pan_x += dx;
    m_pan_y += dy;
}

void ViewTransform::reset() {
    m_zoom = 1.0;
    m_pan_x = m_pan_y = 0.0;
}

} // namespace ss::gui
