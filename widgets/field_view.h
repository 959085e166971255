// SPDX-License-Identifier: MIT
// The field in the centre of the window: picks the GL canvas when a GL context can be had and the
// raster canvas otherwise, keeps what both draw (transform, colour map, range), and turns the mouse
// into zoom, pan and source injection.
#pragma once

#include "session/engine_types.h"
#include "widgets/field_canvas.h"

#include <QWidget>

namespace ss::gui {

class FieldView : public QWidget {
    Q_OBJECT
public:
    enum class Renderer { Auto, Raster };
    explicit FieldView(Renderer = Renderer::Auto, QWidget* parent = nullptr);

    void show_frame(const FieldFrame&);
    void set_colormap(ColormapKind);
    ColormapKind colormap() const { return m_state.colormap; }
    void set_range_policy(const RangePolicy&);
    const RangePolicy& range_policy() const { return m_policy; }
    ValueRange display_range() const { return m_state.range; }
    void set_colour_bar_visible(bool);
    void set_quantity(const QString&); // names the colour bar's values
    const QString& quantity() const { return m_state.quantity; }
    void set_overlay(std::function<void(QPainter&, const ViewTransform&)>);
    void reset_view();
    const ViewTransform& transform() const { return m_state.transform; }

    bool uses_gl() const { return m_gl != nullptr; }
    // The field's longest side on screen, in device pixels: a live frame needs no more texels.
    int display_extent() const { return m_display_extent; }
    // "" when frames of `config` can go GPU -> GL without the host; otherwise why not.
    QString interop_blocker(const StencilConfig& config) const;
    // The last frame at field resolution with a colour bar; null before the first frame.
    QImage export_image();
    // The field as the GL shader colours it (null without GL): what export_image uses for device frames.
    QImage gl_field_image() { return m_gl ? m_gl->render_field_image() : QImage(); }
    // The GL canvas as on screen and its place in the view (null without GL): QWidget::grab() leaves
    // a native GL window out, so window exports draw this in.
    QImage gl_canvas_image() { return m_gl ? m_gl->render_canvas_image() : QImage(); }
    QRect gl_canvas_rect() const { return canvas_rect(); }
    bool has_frame() const { return m_frame.width > 0; }
    const FieldFrame& last_frame() const { return m_frame; }
    int frames_presented() const { return m_presented; }
    // The engine generation of the frame presented last: when a turned knob's kernel reached the screen.
    std::uint64_t presented_generation() const { return m_presented_generation; }
    // Health for long runs (the soak): GL errors seen with checks on, the last one, interop failures, and
    // why the view draws without GL ("" while it uses GL).
    void set_gl_error_checks(bool on);
    int gl_errors() const { return m_gl_errors; }
    QString last_gl_error() const { return m_last_gl_error; }
    int interop_failures() const { return m_interop_failures; }
    // The GL canvas's longest paint and frame upload since the last call (zeros without GL).
    GlCanvas::PaintTimes take_paint_times() { return m_gl ? m_gl->take_paint_times() : GlCanvas::PaintTimes {}; }
    QString gl_problem() const { return m_gl_problem; }

signals:
    void presented(); // a frame is on screen: the engine may send the next
    void inject_requested(ss::gui::Cell plane_cell);
    void hovered(const QString& text); // "x 12  y 40  value 0.53"
    void interop_changed(); // GL became ready, or interop failed
    void renderer_changed();
    void display_extent_changed(int pixels); // after a resize or a zoom

protected:
    void resizeEvent(QResizeEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void wheelEvent(QWheelEvent*) override;

private:
    void use_raster(const QString& why);
    void refresh();
    QRect canvas_rect() const; // left of the colour bar: the canvases' place
    void place_canvases();
    void update_gl_overlay(); // the overlay hook, drawn by GL over the field
    void set_view_cursor(const QCursor*); // nullptr: unset
    void fit_transform();
    void update_display_extent();
    void update_hover(const QPointF& pos);

    CanvasState m_state;
    RangePolicy m_policy;
    GlCanvas* m_gl = nullptr;
    QWidget* m_gl_container = nullptr; // owns m_gl
    RasterCanvas* m_raster = nullptr;
    DecorationOverlay* m_overlay = nullptr;
    QString m_gl_problem;
    FieldFrame m_frame;
    int m_presented = 0;
    std::uint64_t m_presented_generation = 0;
    int m_display_extent = 0;
    int m_gl_errors = 0, m_interop_failures = 0;
    QString m_last_gl_error;
    bool m_injecting = false, m_panning = false;
    QPointF m_last_mouse;
    std::optional<Cell> m_last_injected;
};

// Whether this process can create an OpenGL context at all (false on the offscreen platform).
bool opengl_available();

} // namespace ss::gui
