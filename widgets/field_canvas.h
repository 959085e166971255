// SPDX-License-Identifier: MIT
// The two ways the field reaches the screen: GlCanvas (textures, shaders, CUDA-GL interop) and
// RasterCanvas (a QImage, when no GL context can be had, e.g. the offscreen platform in CI). Both only
// draw; FieldView owns the state they draw and handles the mouse.
// GlCanvas is a QOpenGLWindow in a window container, not a QOpenGLWidget: a QOpenGLWidget makes Qt
// compose the whole main window through GL at every frame, and on the H100 (GL on a few graphics units,
// time-sliced against the compute) that composition cost more compute than the field itself.
#pragma once

#include "session/engine_types.h"
#include "widgets/colormap.h"
#include "widgets/view_transform.h"

#include <QImage>
#include <QOpenGLBuffer>
#include <QOpenGLExtraFunctions>
#include <QOpenGLShaderProgram>
#include <QOpenGLVertexArrayObject>
#include <QOpenGLWindow>
#include <QWidget>

#include <functional>
#include <memory>
#include <utility>

namespace ss {
class GlTextureLink;
}

namespace ss::gui {

// What both canvases draw.
struct CanvasState {
    ViewTransform transform;
    ColormapKind colormap = ColormapKind::Viridis;
    ValueRange range;
    bool show_colour_bar = true;
    QString quantity; // what the values are, written beside the colour bar
    // Drawn over the field in widget pixels (the hook for the multi-GPU strip overlay).
    std::function<void(QPainter&, const ViewTransform&)> overlay;
};

// The font of the colour bar's labels and of the overlay hook's text: `font` at 11 pixels.
QFont decoration_font(QFont font);

// Colour bar and overlay on top of the field: the same for both canvases.
void paint_decorations(QPainter&, const QSize& widget, const CanvasState&);

// A transparent widget over the whole view that draws the decorations with QPainter. Over the raster
// canvas all of it shows; the GL canvas is a native window that hides what lies over it, so there only
// the colour bar (beside the canvas) shows and GL draws the overlay hook from an image.
class DecorationOverlay : public QWidget {
    Q_OBJECT
public:
    DecorationOverlay(const CanvasState&, QWidget* parent);
    // The strip on the right that the colour bar and its labels take.
    QRect colour_bar_area() const;

protected:
    void paintEvent(QPaintEvent*) override;

private:
    const CanvasState& m_state;
};

class RasterCanvas : public QWidget {
    Q_OBJECT
public:
    RasterCanvas(const CanvasState&, QWidget* parent);
    void set_image(QImage image);

protected:
    void paintEvent(QPaintEvent*) override;

private:
    const CanvasState& m_state;
    QImage m_image;
};

class GlCanvas : public QOpenGLWindow, protected QOpenGLExtraFunctions {
    Q_OBJECT
public:
    // Mouse and wheel events go on to `event_target` (the FieldView), in its coordinates: the
    // canvas's container sits at its origin.
    GlCanvas(const CanvasState&, QWidget* event_target);
    ~GlCanvas() override;
    // Uploaded at the next paint; presented() follows.
    void set_frame(const FieldFrame&);
    void colormap_changed();
    // Renders the last frame at field resolution, without decorations (for export of device frames).
    QImage render_field_image();
    // The canvas as on screen, overlay included (window exports).
    QImage render_canvas_image();
    // "" when CUDA can map this context's buffers on `device`; otherwise why not.
    QString interop_blocker(int device) const;
    bool initialised() const { return m_initialised; }
    // Off by default: glGetError after every paint can stall the pipeline. The soak turns it on.
    void set_error_checks(bool on) { m_check_errors = on; }
    // The longest paint (upload, draw and swap) and the longest CUDA upload of a frame since the last call, in ms: the
    // soak tells a knob's late frame spent in the canvas from one the GUI thread lost elsewhere (issue 40).
    struct PaintTimes {
        double paint_ms = 0.0, upload_ms = 0.0;
    };
    PaintTimes take_paint_times() { return std::exchange(m_paint_times, {}); }
    // Drawn over the field (widget-sized, premultiplied alpha): the decorations a native window hides
    // from the overlay widget. A null image draws none.
    void set_overlay_image(const QImage&);

signals:
    void presented();
    void gl_ready();
    void gl_failed(const QString& why);
    void interop_failed(const QString& why);
    void gl_error(unsigned code); // with error checks on: glGetError reported `code` after a paint

protected:
    void initializeGL() override;
    void paintGL() override;
    bool event(QEvent*) override;

private:
    void upload_pending();
    bool upload_from_device(const FieldFrame&);
    void ensure_texture(int width, int height);
    void upload_colormap();
    void draw_field(const RectD& ndc);
    void draw_overlay();
    void draw_canvas(qreal ratio);
    template <typename Draw> QImage render_to_image(QSize pixels, Draw draw);
    void cleanup();

    const CanvasState& m_state;
    QWidget* m_event_target;
    bool m_initialised = false;
    FieldFrame m_pending;
    bool m_has_pending = false;
    int m_tex_w = 0, m_tex_h = 0; // the frame's extent, in the texture's bottom-left corner
    int m_store_w = 0, m_store_h = 0; // the texture's storage: it only grows (re-registering with CUDA costs ~0.1 s)
    unsigned m_field_tex = 0, m_colormap_tex = 0;
    QOpenGLShaderProgram m_program;
    QOpenGLShaderProgram m_overlay_program;
    QImage m_overlay;
    bool m_overlay_dirty = false;
    unsigned m_overlay_tex = 0;
    QOpenGLVertexArrayObject m_vao;
    QOpenGLBuffer m_corners { QOpenGLBuffer::VertexBuffer };
    std::unique_ptr<GlTextureLink> m_link; // m_field_tex, registered with CUDA for device frames
    QString m_vendor;
    std::vector<int> m_interop_devices;
    QString m_interop_reason; // why m_interop_devices is empty, or the last interop failure
    bool m_colormap_dirty = true;
    bool m_check_errors = false;
    PaintTimes m_paint_times;
    // STENCILSCOPE_VIEW_DIAG, for measuring what a displayed frame costs: "no-upload" draws the last
    // texture again instead of copying the new frame in, "no-paint" takes frames without drawing them.
    enum class Diagnostic { None, NoUpload, NoPaint } m_diagnostic = Diagnostic::None;
    bool m_diagnostic_uploaded = false;
};

} // namespace ss::gui
