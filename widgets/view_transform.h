// SPDX-License-Identifier: MIT
// Maps field cells to widget pixels and back: the field is fitted into the widget keeping its aspect,
// then zoomed and panned. Cell (0, 0) sits at the bottom left (y up, as in the physics). Plain values,
// shared by the GL and raster views and by mouse handling, so all three agree.
#pragma once

#include <optional>

namespace ss::gui {

struct PointD {
    double x = 0.0, y = 0.0;
};
struct RectD {
    double left = 0.0, top = 0.0, width = 0.0, height = 0.0;
};
struct Cell {
    int x = 0, y = 0;
    bool operator==(const Cell&) const = default;
};

class ViewTransform {
public:
    void set_field(int width, int height);
    void set_widget(double width, double height);
    int field_width() const { return m_field_w; }
    int field_height() const { return m_field_h; }

    double zoom() const { return m_zoom; }
    double pixels_per_cell() const;
    // Where the whole field lands, in widget pixels (y down, as widgets count).
    RectD field_rect() const;
    // Continuous cell coordinates: the centre of cell i is i + 0.5.
    PointD cell_to_pixel(PointD cell) const;
    PointD pixel_to_cell(PointD pixel) const;
    // The cell under a pixel, or nothing outside the field.
    std::optional<Cell> cell_at(PointD pixel) const;

    // Zoom by `factor` keeping the cell under `pixel` where it is (the mouse-wheel behaviour).
    void zoom_about(PointD pixel, double factor);
    void pan_by(double dx, double dy);
    void reset();

    static constexpr double kMinZoom = 0.25, kMaxZoom = 256.0;

private:
    int m_field_w = 1, m_field_h = 1;
    double m_widget_w = 1.0, m_widget_h = 1.0;
    double m_zoom = 1.0;
    double m_pan_x = 0.0, m_pan_y = 0.0; // pixels the field centre is moved from the widget centre
};

} // namespace ss::gui
