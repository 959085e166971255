// SPDX-License-Identifier: MIT
#include "widgets/field_view.h"

#include "gpu/plan/knobs.h"
#include "widgets/field_image.h"

#include <QGuiApplication>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace ss::gui {

bool opengl_available() {
    if (QGuiApplication::platformName() == QLatin1String("offscreen") || !knob_text(Knob::Raster).empty()) return false;
    QOpenGLContext context;
    if (!context.create()) return false;
    QOffscreenSurface surface;
    surface.create();
    return surface.isValid() && context.makeCurrent(&surface);
}

FieldView::FieldView(Renderer renderer, QWidget* parent)
    : QWidget(parent) {
    setMinimumSize(200, 160);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    QPalette dark = palette(); // behind the colour bar, which is not on a canvas
    dark.setColor(QPalette::Window, QColor(32, 32, 36));
    setPalette(dark);
    setAutoFillBackground(true);
    if (renderer == Renderer::Auto && opengl_available()) {
        m_gl = new GlCanvas(m_state, this); // the view handles the mouse: the canvas passes it on
        m_gl_container = QWidget::createWindowContainer(m_gl, this);
        m_gl_container->setFocusPolicy(Qt::NoFocus);
        connect(m_gl, &GlCanvas::presented, this, [this] {
            ++m_presented;
            m_presented_generation = m_frame.generation;
            emit presented();
        });
        connect(m_gl, &GlCanvas::gl_ready, this, &FieldView::interop_changed);
        connect(m_gl, &GlCanvas::interop_failed, this, [this] {
            ++m_interop_failures;
            emit interop_changed();
        });
        connect(m_gl, &GlCanvas::gl_error, this, [this](unsigned code) {
            ++m_gl_errors;
            m_last_gl_error = QStringLiteral("0x%1").arg(code, 4, 16, QLatin1Char('0'));
        });
        connect(m_gl, &GlCanvas::gl_failed, this, &FieldView::use_raster);
    } else {
        use_raster(tr("no OpenGL context on the %1 platform").arg(QGuiApplication::platformName()));
    }
    m_overlay = new DecorationOverlay(m_state, this); // it covers the view; over GL only its bar shows
    m_overlay->raise();
    place_canvases();
}

QRect FieldView::canvas_rect() const {
    const int bar = m_state.show_colour_bar && m_overlay ? m_overlay->colour_bar_area().width() : 0;
    return { 0, 0, std::max(width() - bar, 1), height() };
}

void FieldView::place_canvases() {
    if (m_gl_container) m_gl_container->setGeometry(canvas_rect());
    if (m_raster) m_raster->setGeometry(canvas_rect());
    if (m_overlay) {
        m_overlay->setGeometry(rect());
        m_overlay->raise();
    }
}

void FieldView::update_gl_overlay() {
    if (!m_gl) return;
    if (!m_state.overlay) {
        m_gl->set_overlay_image({});
        return;
    }
    const QRect canvas = canvas_rect();
    const qreal ratio = devicePixelRatioF();
    QImage image(canvas.size() * ratio, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(decoration_font(p.font()));
    m_state.overlay(p, m_state.transform);
    p.end();
    m_gl->set_overlay_image(image);
}

void FieldView::set_view_cursor(const QCursor* cursor) {
    if (cursor)
        setCursor(*cursor);
    else
        unsetCursor();
    if (m_gl) cursor ? m_gl->setCursor(*cursor) : m_gl->unsetCursor();
}

void FieldView::set_gl_error_checks(bool on) {
    if (m_gl) m_gl->set_error_checks(on);
}

void FieldView::use_raster(const QString& why) {
    m_gl_problem = why;
    if (m_gl) {
        m_gl_container->hide();
        m_gl_container->deleteLater(); // and the canvas with it; this may run inside its initializeGL
        m_gl_container = nullptr;
        m_gl = nullptr;
    }
    if (!m_raster) {
        m_raster = new RasterCanvas(m_state, this);
        m_raster->setAttribute(Qt::WA_TransparentForMouseEvents);
        m_raster->show();
    }
    place_canvases();
    if (has_frame()) show_frame(m_frame);
    emit renderer_changed();
    emit interop_changed();
}

QString FieldView::interop_blocker(const StencilConfig& config) const {
    if (config.placement.backend == Backend::Cpu) return tr("CPU backend");
    if (!m_gl) return m_gl_problem;
    return m_gl->interop_blocker(config.placement.device);
}

void FieldView::show_frame(const FieldFrame& f) {
    // the plane's cells, not the frame's texels: a decimated and a full frame of one plane keep the zoom
    const bool resized = f.field_width != m_frame.field_width || f.field_height != m_frame.field_height;
    const bool other_plane = !(f.slice == m_frame.slice);
    m_frame = f;
    const ValueRange range = m_policy.apply(f.measured);
    // Under a live GL canvas a repaint of the whole overlay costs a window-sized texture upload per
    // frame: only the bar's strip, and only when its text changes (the bar itself does not).
    if (m_overlay && resized)
        m_overlay->update();
    else if (m_overlay && m_state.show_colour_bar && colour_bar_labels(range) != colour_bar_labels(m_state.range))
        m_overlay->update(m_overlay->colour_bar_area());
    m_state.range = range;
    m_state.transform.set_field(f.field_width ? f.field_width : f.width, f.field_height ? f.field_height : f.height);
    if (resized) m_state.transform.reset();
    if (resized) update_display_extent();
    if (resized || other_plane) update_gl_overlay(); // the strip overlay names the plane's GPU
    if (m_gl) {
        m_gl->set_frame(f); // presented() once it is uploaded, at the next paint
        return;
    }
    if (f.host) m_raster->set_image(render_field(f.host->data(), f.width, f.height, m_state.colormap, m_state.range));
    ++m_presented;
    m_presented_generation = f.generation;
    emit presented();
}

void FieldView::set_colormap(ColormapKind kind) {
    m_state.colormap = kind;
    m_policy.symmetric = is_diverging(kind);
    if (has_frame()) m_state.range = m_policy.apply(m_frame.measured);
    if (m_gl) m_gl->colormap_changed();
    refresh();
}

void FieldView::set_range_policy(const RangePolicy& policy) {
    m_policy = policy;
    m_policy.symmetric = is_diverging(m_state.colormap);
    if (has_frame()) m_state.range = m_policy.apply(m_frame.measured);
    refresh();
}

// The field fits beside the colour bar, not under it.
void FieldView::fit_transform() {
    QFont font;
    font.setPixelSize(11);
    const int bar = m_state.show_colour_bar ? colour_bar_margin(font) : 0;
    m_state.transform.set_widget(std::max(width() - bar, 1), height());
    update_display_extent();
}

void FieldView::update_display_extent() {
    const RectD r = m_state.transform.field_rect();
    const int pixels = int(std::ceil(std::max(r.width, r.height) * devicePixelRatioF()));
    if (pixels == m_display_extent) return;
    m_display_extent = pixels;
    emit display_extent_changed(pixels);
}

void FieldView::set_colour_bar_visible(bool on) {
    m_state.show_colour_bar = on;
    fit_transform();
    place_canvases();
    refresh();
}

void FieldView::set_quantity(const QString& quantity) {
    if (quantity == m_state.quantity) return;
    m_state.quantity = quantity;
    if (m_overlay) m_overlay->update();
}

void FieldView::set_overlay(std::function<void(QPainter&, const ViewTransform&)> overlay) {
    m_state.overlay = std::move(overlay);
    refresh();
}

void FieldView::reset_view() {
    m_state.transform.reset();
    update_display_extent();
    refresh();
}

// Redraw the current frame after a view change (colours, range, zoom), without new data.
void FieldView::refresh() {
    if (m_overlay) m_overlay->update();
    if (m_gl) {
        update_gl_overlay(); // zoom and pan move it
        m_gl->update();
    } else if (m_raster) {
        if (has_frame() && m_frame.host)
            m_raster->set_image(
                render_field(m_frame.host->data(), m_frame.width, m_frame.height, m_state.colormap, m_state.range));
        m_raster->update();
    }
}

QImage FieldView::export_image() {
    if (!has_frame()) return {};
    QImage field;
    if (m_frame.host)
        field = render_field(m_frame.host->data(), m_frame.width, m_frame.height, m_state.colormap, m_state.range);
    else if (m_gl)
        field = m_gl->render_field_image();
    if (field.isNull()) return {};
    return compose_with_colour_bar(field, m_state.colormap, m_state.range, m_state.quantity);
}

void FieldView::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    fit_transform();
    place_canvases();
    update_gl_overlay();
}

void FieldView::mousePressEvent(QMouseEvent* e) {
    m_last_mouse = e->position();
    const bool pan = e->button() == Qt::RightButton || e->button() == Qt::MiddleButton
        || (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier));
    if (pan) {
        m_panning = true;
        const QCursor hand(Qt::ClosedHandCursor);
        set_view_cursor(&hand);
    } else if (e->button() == Qt::LeftButton && has_frame()) {
        m_injecting = true;
        m_last_injected.reset();
        mouseMoveEvent(e);
    }
}

void FieldView::mouseMoveEvent(QMouseEvent* e) {
    const QPointF pos = e->position();
    if (m_panning) {
        m_state.transform.pan_by(pos.x() - m_last_mouse.x(), pos.y() - m_last_mouse.y());
        refresh();
    } else if (m_injecting) {
        const auto cell = m_state.transform.cell_at({ pos.x(), pos.y() });
        if (cell && cell != m_last_injected) {
            m_last_injected = cell;
            emit inject_requested(*cell);
        }
    }
    m_last_mouse = pos;
    update_hover(pos);
}

void FieldView::mouseReleaseEvent(QMouseEvent*) {
    m_panning = m_injecting = false;
    set_view_cursor(nullptr);
}

void FieldView::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    m_state.transform.zoom_about({ e->position().x(), e->position().y() }, std::pow(1.25, steps));
    update_display_extent();
    refresh();
}

void FieldView::update_hover(const QPointF& pos) {
    const auto cell = m_state.transform.cell_at({ pos.x(), pos.y() });
    if (!cell || !has_frame()) {
        emit hovered({});
        return;
    }
    QString text = tr("x %1  y %2").arg(cell->x).arg(cell->y);
    if (m_frame.host)
        text += tr("  value %1").arg(format_value((*m_frame.host)[std::size_t(cell->y) * m_frame.width + cell->x]));
    emit hovered(text);
}

} // namespace ss::gui
