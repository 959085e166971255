// SPDX-License-Identifier: MIT
// The window's pictures on the CPU backend, offscreen: the exported field matches the colour map, and where a
// GL context exists, the GL rendering, CUDA-GL interop frames and the GL canvas' overlay match the host's.
#include "session/session.h"
#include "widgets/field_image.h"
#include "widgets/main_window.h"
#include "widgets/window_exports.h"
#include "window_test_support.h"

#include <QFileInfo>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

class TestFieldPictures : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exported_field_matches_the_colour_map() {
        WindowOptions o = cpu_options(64);
        o.playing = false; // the initial square: 1 inside [16, 48)^2, 0 outside
        o.colormap = ColormapKind::Viridis;
        o.colormap_given = true;
        o.range.automatic = false;
        o.range.fixed = { 0.0f, 1.0f };
        MainWindow w(o);
        w.show();
        QTRY_VERIFY(w.field_view().has_frame());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("field.png"));
        QString why;
        QVERIFY2(w.exports().export_field(path, &why), qPrintable(why));
        QImage image(path);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 64);
        QVERIFY(image.height() > 96); // the field with its bar (96 high), then the caption strip
        // the caption names the quantity, the configuration, the device and the iteration
        const QString caption = image.text(QStringLiteral("Description"));
        for (const char* part : { "temperature u", "jacobi", "64x64", "CPU", "iteration 0" })
            QVERIFY2(caption.contains(QLatin1String(part)), qPrintable(caption));
        QCOMPARE(w.field_view().quantity(), QStringLiteral("temperature u"));
        const ColormapTable& t = colormap_table(ColormapKind::Viridis);
        auto rgb = [](Rgb8 c) { return qRgb(c.r, c.g, c.b); };
        QCOMPARE(image.pixel(20, 63 - 20), rgb(t[255])); // cell (20, 20): inside the square
        QCOMPARE(image.pixel(47, 63 - 47), rgb(t[255]));
        QCOMPARE(image.pixel(48, 63 - 20), rgb(t[0])); // just outside
        QCOMPARE(image.pixel(2, 2), rgb(t[0]));
        QCOMPARE(image.pixel(5, 63 - 5), rgb(t[0]));

        const QString window_path = dir.filePath(QStringLiteral("window.png"));
        QVERIFY2(w.exports().export_window(window_path, &why), qPrintable(why));
        QCOMPARE(QImage(window_path).size(), w.size());
        QVERIFY(!w.exports().export_field(dir.filePath(QStringLiteral("missing/dir/x.png")), &why));
        QVERIFY(why.contains(QStringLiteral("cannot write")));
        why.clear();
        QVERIFY(!w.exports().export_window(dir.filePath(QStringLiteral("missing/dir/w.png")), &why));
        QVERIFY(why.contains(QStringLiteral("cannot write")));
        why.clear();
        QVERIFY(!w.exports().export_field(dir.path(), &why)); // a directory
        QVERIFY(!why.isEmpty());
        QVERIFY(QFileInfo(dir.path()).isDir());
    }

    // Runs where a GL context exists (e.g. under xvfb-run); CI's offscreen platform skips it.
    void gl_rendering_matches_the_host_rendering() {
        if (!opengl_available()) QSKIP("no OpenGL context on this platform");
        WindowOptions o = cpu_options(64);
        o.playing = false;
        o.renderer = FieldView::Renderer::Auto;
        o.settings.config.problem.initial = InitialCondition::Gaussian;
        MainWindow w(o);
        w.show();
        QVERIFY(w.field_view().uses_gl());
        QTRY_VERIFY(w.field_view().frames_presented() > 0);
        const FieldFrame& f = w.field_view().last_frame();
        const QImage host = render_field(
            f.host->data(), f.width, f.height, w.field_view().colormap(), w.field_view().display_range());
        const QImage gl = w.field_view().gl_field_image();
        QCOMPARE(gl.size(), host.size());
        const int worst = largest_channel_difference(gl, host);
        QVERIFY2(worst <= 8, qPrintable(QStringLiteral("largest channel difference %1").arg(worst)));
    }

    // On a CUDA device whose GL context can map its textures (the GPU machine under Xvfb), the frame goes
    // GPU -> GL texture without the host: its picture must match the CPU backend's host-copied one.
    void interop_frames_match_the_host_path() {
        if (!opengl_available()) QSKIP("no OpenGL context on this platform");
        if (!query_device_catalogue().has_cuda()) QSKIP("no CUDA device");
        WindowOptions o = cpu_options(300);
        o.playing = false;
        o.renderer = FieldView::Renderer::Auto;
        o.settings.config.problem.initial = InitialCondition::Gaussian;
        MainWindow host_window(o);
        host_window.show();
        o.settings.config.placement.backend = Backend::Cuda;
        MainWindow device_window(o);
        device_window.show();
        QTRY_VERIFY(host_window.field_view().frames_presented() > 0);
        QTRY_VERIFY(device_window.field_view().frames_presented() > 0);
        if (!device_window.interop_text().startsWith(QStringLiteral("CUDA-GL interop")))
            QSKIP(qPrintable(device_window.interop_text()));
        // 50 steps on both, so that a texture CUDA failed to overwrite would still show the first picture
        const int before = device_window.field_view().frames_presented();
        const int host_before = host_window.field_view().frames_presented();
        for (MainWindow* w : { &host_window, &device_window }) {
            knob<QSpinBox>(*w, "steps_per_frame")->setValue(50);
            knob<QPushButton>(*w, "step")->click();
        }
        QTRY_COMPARE(host_window.field_view().last_frame().iteration, 50LL);
        QTRY_COMPARE(device_window.field_view().last_frame().iteration, 50LL);
        QVERIFY(device_window.field_view().last_frame().on_device());
        QTRY_VERIFY(device_window.field_view().frames_presented() > before);
        QTRY_VERIFY(host_window.field_view().frames_presented() > host_before);
        QCOMPARE(device_window.field_view().interop_failures(), 0);
        const QImage expected = host_window.field_view().gl_field_image();
        const QImage seen = device_window.field_view().gl_field_image();
        QCOMPARE(seen.size(), QSize(300, 300));
        QCOMPARE(seen.size(), expected.size());
        const int worst = largest_channel_difference(seen, expected);
        QVERIFY2(worst <= 8, qPrintable(QStringLiteral("largest channel difference %1").arg(worst)));
    }

    // The GL canvas is a native window that hides widgets above it, so it draws the overlay hook (the
    // multi-GPU strip boundaries) itself; the window export draws the canvas into its place.
    void the_gl_canvas_draws_the_overlay_and_the_window_export_shows_it() {
        if (!opengl_available()) QSKIP("no OpenGL context on this platform");
        WindowOptions o = cpu_options(64);
        o.playing = false;
        o.renderer = FieldView::Renderer::Auto;
        MainWindow w(o);
        w.resize(1000, 700);
        w.show();
        QVERIFY(w.field_view().uses_gl());
        QTRY_VERIFY(w.field_view().frames_presented() > 0);
        const QRect marked(10, 10, 30, 20);
        w.field_view().set_overlay([&](QPainter& p, const ViewTransform&) { p.fillRect(marked, QColor(255, 0, 0)); });
        const QImage canvas = w.field_view().gl_canvas_image().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!canvas.isNull());
        const qreal ratio = canvas.devicePixelRatio();
        QCOMPARE(QColor(canvas.pixel(int(20 * ratio), int(15 * ratio))), QColor(255, 0, 0));
        QVERIFY(QColor(canvas.pixel(int(60 * ratio), int(60 * ratio))) != QColor(255, 0, 0));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("window.png"));
        QVERIFY(w.exports().export_window(path, nullptr));
        const QImage window(path);
        const QPoint at = w.field_view().mapTo(&w, QPoint(20, 15)) * window.devicePixelRatio();
        QCOMPARE(QColor(window.pixel(at)), QColor(255, 0, 0));
    }
};

QTEST_MAIN(TestFieldPictures)
#include "tst_field_pictures.moc"
