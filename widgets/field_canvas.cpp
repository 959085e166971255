// SPDX-License-Identifier: MIT
#include "widgets/field_canvas.h"

#include "gpu/backends/gl_interop.h"
#include "gpu/plan/knobs.h"
#include "widgets/field_image.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QOpenGLFramebufferObject>
#include <QPainter>

#include <algorithm>

namespace ss::gui {

QFont decoration_font(QFont font) {
    font.setPixelSize(11);
    return font;
}

void paint_decorations(QPainter& p, const QSize& widget, const CanvasState& state) {
    if (state.overlay) state.overlay(p, state.transform);
    if (!state.show_colour_bar) return;
    p.setFont(decoration_font(p.font()));
    const int margin = colour_bar_margin(p.font());
    const QRect bar(widget.width() - margin + 8, 12, 14, std::max(widget.height() - 24, 2));
    paint_colour_bar(p, bar, state.colormap, state.range, Qt::white, state.quantity);
}

DecorationOverlay::DecorationOverlay(const CanvasState& state, QWidget* parent)
    : QWidget(parent)
    , m_state(state) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
}

QRect DecorationOverlay::colour_bar_area() const {
    const int margin = colour_bar_margin(decoration_font(font()));
    return { width() - margin, 0, margin, height() };
}

void DecorationOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paint_decorations(p, size(), m_state);
}

static QRectF to_qrect(const RectD& r) {
    return { r.left, r.top, r.width, r.height };
}

RasterCanvas::RasterCanvas(const CanvasState& state, QWidget* parent)
    : QWidget(parent)
    , m_state(state) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void RasterCanvas::set_image(QImage image) {
    m_image = std::move(image);
    update();
}

void RasterCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), QColor(32, 32, 36));
    if (!m_image.isNull()) {
        p.setRenderHint(QPainter::SmoothPixmapTransform, false); // cells stay crisp when zoomed in
        p.drawImage(to_qrect(m_state.transform.field_rect()), m_image);
    }
}

namespace {
const float kCorners[] = { 0, 0, 1, 0, 0, 1, 1, 1 };
}

GlCanvas::GlCanvas(const CanvasState& state, QWidget* event_target)
    : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate)
    , m_state(state)
    , m_event_target(event_target)
    , m_link(std::make_unique<GlTextureLink>()) {
    const QString diagnostic = QString::fromStdString(knob_text(Knob::ViewDiag));
    if (diagnostic == QLatin1String("no-upload")) m_diagnostic = Diagnostic::NoUpload;
    if (diagnostic == QLatin1String("no-paint")) m_diagnostic = Diagnostic::NoPaint;
}

GlCanvas::~GlCanvas() {
    if (context()) disconnect(context(), nullptr, this, nullptr); // members die before QOpenGLWindow's context
    if (m_initialised) {
        makeCurrent();
        cleanup();
        doneCurrent();
    }
}

// CUDA registrations and GL objects go while the context still exists.
void GlCanvas::cleanup() {
    if (!m_initialised) return;
    m_link->detach();
    if (m_field_tex) glDeleteTextures(1, &m_field_tex);
    if (m_colormap_tex) glDeleteTextures(1, &m_colormap_tex);
    if (m_overlay_tex) glDeleteTextures(1, &m_overlay_tex);
    m_field_tex = m_colormap_tex = m_overlay_tex = 0;
    m_corners.destroy();
    m_vao.destroy();
    m_initialised = false;
}

void GlCanvas::initializeGL() {
    initializeOpenGLFunctions();
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        cleanup();
        doneCurrent();
    });
    const bool ok = m_program.addShaderFromSourceFile(QOpenGLShader::Vertex, QStringLiteral(":/shaders/field.vert"))
        && m_program.addShaderFromSourceFile(QOpenGLShader::Fragment, QStringLiteral(":/shaders/field.frag"))
        && m_program.link()
        && m_overlay_program.addShaderFromSourceFile(QOpenGLShader::Vertex, QStringLiteral(":/shaders/field.vert"))
        && m_overlay_program.addShaderFromSourceFile(QOpenGLShader::Fragment, QStringLiteral(":/shaders/overlay.frag"))
        && m_overlay_program.link();
    if (!ok) {
        emit gl_failed(tr("field shaders: %1").arg((m_program.log() + m_overlay_program.log()).trimmed()));
        return;
    }
    m_vao.create();
    m_vao.bind();
    m_corners.create();
    m_corners.bind();
    m_corners.allocate(kCorners, sizeof kCorners);
    m_program.bind();
    m_program.enableAttributeArray(0);
    m_program.setAttributeBuffer(0, GL_FLOAT, 0, 2);
    m_program.setUniformValue("field", 0);
    m_program.setUniformValue("colormap", 1);
    m_program.release();
    m_overlay_program.bind();
    m_overlay_program.setUniformValue("image", 0);
    m_overlay_program.release();
    m_vao.release();
    m_corners.release();
    glGenTextures(1, &m_colormap_tex);
    m_colormap_dirty = true;

    m_vendor = QString::fromUtf8(reinterpret_cast<const char*>(glGetString(GL_VENDOR)));
    const GlInteropDevices interop = gl_interop_devices();
    m_interop_devices = interop.devices;
    m_interop_reason = QString::fromStdString(interop.reason);
    m_initialised = true;
    emit gl_ready();
}

QString GlCanvas::interop_blocker(int device) const {
    if (!m_initialised) return tr("OpenGL is not ready");
    if (!m_vendor.contains(QStringLiteral("NVIDIA"), Qt::CaseInsensitive))
        return tr("GL_VENDOR is %1, not NVIDIA").arg(m_vendor);
    if (!m_interop_reason.isEmpty() && m_interop_devices.empty()) return m_interop_reason;
    if (std::find(m_interop_devices.begin(), m_interop_devices.end(), device) == m_interop_devices.end())
        return tr("GL runs on another GPU than CUDA device %1").arg(device);
    return m_interop_reason; // a failure seen while mapping, or ""
}

void GlCanvas::set_frame(const FieldFrame& f) {
    if (m_diagnostic == Diagnostic::NoPaint && m_field_tex) {
        emit presented();
        return;
    }
    m_pending = f;
    m_has_pending = true;
    update();
}

void GlCanvas::colormap_changed() {
    m_colormap_dirty = true;
    update();
}

void GlCanvas::upload_colormap() {
    const ColormapTable& t = colormap_table(m_state.colormap);
    glBindTexture(GL_TEXTURE_2D, m_colormap_tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, kColormapSize, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, t.data());
    m_colormap_dirty = false;
}

// A frame of another size (the view resized, so fewer or more texels per frame; a 3D slice along another axis) goes
// into the corner of the texture it fits: replacing the storage means unregistering it from CUDA and registering
// the new one, about 0.1 s on the H100 (issue 40's soak: a turned knob's first frame 117-131 ms late).
void GlCanvas::ensure_texture(int width, int height) {
    m_tex_w = width;
    m_tex_h = height;
    if (m_field_tex && width <= m_store_w && height <= m_store_h) return;
    width = std::max(width, m_store_w);
    height = std::max(height, m_store_h);
    m_link->detach(); // CUDA must let go before the texture's storage is replaced
    if (!m_field_tex) glGenTextures(1, &m_field_tex);
    glBindTexture(GL_TEXTURE_2D, m_field_tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, nullptr);
    m_store_w = width;
    m_store_h = height;
}

bool GlCanvas::upload_from_device(const FieldFrame& f) {
    Status s = Status::success();
    if (!m_link->attached() || m_link->device() != f.device->device())
        s = m_link->attach(m_field_tex, m_store_w, m_store_h, f.device->device());
    if (s) s = m_link->fill(*f.device, f.device_slot, f.width, f.height);
    if (!s) {
        m_interop_reason = QString::fromStdString(s.reason);
        emit interop_failed(m_interop_reason);
        return false;
    }
    return true;
}

void GlCanvas::upload_pending() {
    const FieldFrame f = std::move(m_pending);
    m_pending = {};
    m_has_pending = false;
    const bool same_size = m_tex_w == f.width && m_tex_h == f.height;
    ensure_texture(f.width, f.height);
    if (m_diagnostic == Diagnostic::NoUpload && m_diagnostic_uploaded && same_size) {
        // the texture keeps its last contents
    } else if (f.on_device()) {
        QElapsedTimer uploading;
        uploading.start();
        upload_from_device(f); // on failure the previous image stays; the window switches to host copies
        m_paint_times.upload_ms = std::max(m_paint_times.upload_ms, double(uploading.nsecsElapsed()) / 1e6);
    } else if (f.host) {
        glBindTexture(GL_TEXTURE_2D, m_field_tex);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, f.width, f.height, GL_RED, GL_FLOAT, f.host->data());
    }
    m_diagnostic_uploaded = true;
    emit presented();
}

void GlCanvas::draw_field(const RectD& ndc) {
    if (!m_field_tex) return;
    if (m_colormap_dirty) upload_colormap();
    m_program.bind();
    m_program.setUniformValue("rect", QVector4D(float(ndc.left), float(ndc.top), float(ndc.width), float(ndc.height)));
    m_program.setUniformValue("range", QVector2D(m_state.range.lo, m_state.range.hi));
    m_program.setUniformValue(
        "extent", QVector2D(float(m_tex_w) / float(m_store_w), float(m_tex_h) / float(m_store_h)));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_field_tex);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, m_colormap_tex);
    glActiveTexture(GL_TEXTURE0);
    m_vao.bind();
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    m_vao.release();
    m_program.release();
    // leave the state as QPainter expects it
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

void GlCanvas::set_overlay_image(const QImage& image) {
    m_overlay = image.isNull() ? QImage() : image.convertToFormat(QImage::Format_RGBA8888_Premultiplied);
    m_overlay_dirty = true;
    update();
}

void GlCanvas::draw_overlay() {
    if (m_overlay_dirty) {
        if (!m_overlay.isNull()) {
            if (!m_overlay_tex) glGenTextures(1, &m_overlay_tex);
            glBindTexture(GL_TEXTURE_2D, m_overlay_tex);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
            glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
            glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, m_overlay.width(), m_overlay.height(), 0, GL_RGBA,
                GL_UNSIGNED_BYTE, m_overlay.constBits());
            glBindTexture(GL_TEXTURE_2D, 0);
        }
        m_overlay_dirty = false;
    }
    if (m_overlay.isNull() || !m_overlay_tex) return;
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    m_overlay_program.bind();
    m_overlay_program.setUniformValue("rect", QVector4D(-1.f, -1.f, 2.f, 2.f));
    m_overlay_program.setUniformValue("extent", QVector2D(1.f, 1.f)); // the overlay fills its texture
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_overlay_tex);
    m_vao.bind();
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    m_vao.release();
    m_overlay_program.release();
    glBindTexture(GL_TEXTURE_2D, 0);
    glDisable(GL_BLEND);
}

// The field's container sits at the FieldView's origin, so positions need no mapping.
bool GlCanvas::event(QEvent* e) {
    switch (e->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick:
    case QEvent::MouseMove:
    case QEvent::Wheel:
        if (m_event_target) return QCoreApplication::sendEvent(m_event_target, e);
        break;
    case QEvent::UpdateRequest: { // paintGL and the swap
        QElapsedTimer painting;
        painting.start();
        const bool handled = QOpenGLWindow::event(e);
        m_paint_times.paint_ms = std::max(m_paint_times.paint_ms, double(painting.nsecsElapsed()) / 1e6);
        return handled;
    }
    default:
        break;
    }
    return QOpenGLWindow::event(e);
}

// Background, field and overlay into the bound framebuffer, `ratio` pixels per widget pixel.
void GlCanvas::draw_canvas(qreal ratio) {
    glViewport(0, 0, int(width() * ratio), int(height() * ratio));
    glClearColor(32 / 255.f, 32 / 255.f, 36 / 255.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!m_initialised) return;
    // field rect in NDC: x right, y up (rect.top holds the bottom edge here)
    const RectD r = m_state.transform.field_rect();
    const double w = width(), h = height();
    draw_field({ 2 * r.left / w - 1, 1 - 2 * (r.top + r.height) / h, 2 * r.width / w, 2 * r.height / h });
    draw_overlay();
}

void GlCanvas::paintGL() {
    if (m_initialised && m_has_pending) upload_pending();
    draw_canvas(devicePixelRatio());
    if (m_check_errors)
        // GL keeps one flag per error kind: a bounded loop drains them (a lost context repeats forever)
        for (int i = 0; i < 8; ++i) {
            const GLenum e = glGetError();
            if (e == GL_NO_ERROR) break;
            emit gl_error(e);
        }
}

// Drawn afresh into a framebuffer object (after a swap the window's back buffer holds nothing defined).
template <typename Draw> QImage GlCanvas::render_to_image(QSize pixels, Draw draw) {
    makeCurrent();
    QOpenGLFramebufferObject fbo(pixels);
    fbo.bind();
    draw();
    fbo.release();
    QImage image = fbo.toImage().convertToFormat(QImage::Format_RGB32);
    doneCurrent();
    return image;
}

QImage GlCanvas::render_canvas_image() {
    if (!m_initialised) return {};
    const qreal ratio = devicePixelRatio();
    QImage image = render_to_image(QSize(int(width() * ratio), int(height() * ratio)), [&] { draw_canvas(ratio); });
    image.setDevicePixelRatio(ratio);
    return image;
}

QImage GlCanvas::render_field_image() {
    if (!m_initialised || !m_field_tex) return {};
    return render_to_image(QSize(m_tex_w, m_tex_h), [&] {
        glViewport(0, 0, m_tex_w, m_tex_h);
        draw_field({ -1, -1, 2, 2 });
    });
}

} // namespace ss::gui
