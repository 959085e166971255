// SPDX-License-Identifier: MIT
// The window on the CPU backend, offscreen: every control reaches the engine, impossible
// configurations show the engine's reason, exports match the colour map, and the command line parses.
#include "app/gui/gui_options.h"
#include "gpu/plan/temporal_policy.h"
#include "session/session.h"
#include "widgets/control_panel.h"
#include "widgets/field_image.h"
#include "widgets/help_menu.h"
#include "widgets/main_window.h"
#include "widgets/window_exports.h"
#include "window_test_support.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolBar>
#include <QWheelEvent>

#include <algorithm>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void opens_on_the_cpu_backend_and_shows_frames() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QCOMPARE(engine_config(w).placement.backend, Backend::Cpu);
        QTRY_VERIFY(w.field_view().frames_presented() >= 3);
        QTRY_VERIFY(w.field_view().last_frame().iteration > 0); // it is running
        QCOMPARE(w.field_view().last_frame().width, 64);
        QVERIFY(w.interop_text().startsWith(QStringLiteral("host copy")));
        QVERIFY(knob<QLabel>(w, "status_device")->text().startsWith(QStringLiteral("CPU")));
        QVERIFY(knob<QLabel>(w, "status_path")->text().contains(QStringLiteral("CPU backend")));
    }

    // A device that stops answering mid-run (injected on the CPU backend): the reason is shown, the window
    // lives on with the last picture, and the next configuration runs again.
    void a_device_failure_mid_run_keeps_the_window_and_the_last_picture() {
        qputenv("STENCILSCOPE_INJECT_FAULT_AFTER", "200");
        MainWindow w(cpu_options());
        w.show();
        QSignalSpy failed(&w.session(), &Session::failed);
        QVERIFY(failed.wait(20000));
        qunsetenv("STENCILSCOPE_INJECT_FAULT_AFTER");
        const QString reason = QString::fromStdString(failed.first().at(0).value<EngineFailure>().reason);
        QVERIFY2(reason.contains(QLatin1String("stopped answering")), qPrintable(reason));
        QVERIFY(w.controls().reason().contains(QLatin1String("stopped answering")));
        QVERIFY(!w.session().has_simulation());
        const FieldFrame last = w.field_view().last_frame();
        QVERIFY(last.host && !last.host->empty()); // the last good picture stays on screen
        QVERIFY(last.iteration > 0 && last.iteration <= 200);
        RunSettings s = w.controls().settings();
        s.config.problem.radius = 2;
        w.controls().set_settings(s);
        w.session().request(s);
        QTRY_VERIFY(w.session().has_simulation());
        QTRY_VERIFY(w.field_view().last_frame().iteration > 0);
    }

    void a_kernel_change_keeps_the_running_field() {
        // variant/CF/block/GPU count describe the same field: the run moves (repartition), steps go on
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.field_view().last_frame().iteration > 20);
        const long long before = w.field_view().last_frame().iteration;
        QSignalSpy frames(&w.session(), &Session::frame);
        choose(w, "variant", int(Variant::SmemPadded));
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::SmemPadded);
        QVERIFY(w.session().active().reused_field);
        // the first frame of the new kernel continues the count: the field was not reset (the old kernel's frames
        // may come first: they go on until the new one runs)
        QTRY_VERIFY(
            !frames.isEmpty() && frames.last().at(0).value<FieldFrame>().generation == w.session().generation());
        while (frames.first().at(0).value<FieldFrame>().generation != w.session().generation()) frames.removeFirst();
        const auto first = frames.takeFirst().at(0).value<FieldFrame>();
        QVERIFY2(first.iteration >= before, qPrintable(QStringLiteral("%1 < %2").arg(first.iteration).arg(before)));
    }

    void every_stencil_control_reaches_the_engine() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());

        choose(w, "rule", int(UpdateRule::Wave));
        QTRY_COMPARE(engine_config(w).problem.rule, UpdateRule::Wave);
        knob<QSpinBox>(w, "radius")->setValue(3);
        QTRY_COMPARE(engine_config(w).problem.radius, 3);
        choose(w, "precision", int(Precision::FP64));
        QTRY_COMPARE(engine_config(w).problem.precision, Precision::FP64);
        choose(w, "variant", int(Variant::SmemPadded));
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::SmemPadded);
        choose(w, "cf", 4);
        QTRY_COMPARE(engine_config(w).policy.cf, 4);
        knob<QCheckBox>(w, "heuristic")->setChecked(false);
        QTRY_COMPARE(engine_config(w).policy.heuristic_block, false);
        knob<QSpinBox>(w, "bx")->setValue(16);
        QTRY_COMPARE(engine_config(w).policy.block.x, 16);
        knob<QSpinBox>(w, "nx")->setValue(80);
        QTRY_COMPARE(engine_config(w).problem.size.nx, 80);
        knob<QSpinBox>(w, "ny")->setValue(48);
        QTRY_COMPARE(engine_config(w).problem.size.ny, 48);
        QTRY_COMPARE(w.field_view().last_frame().height, 48);
        choose(w, "initial", int(InitialCondition::HotEdges));
        QTRY_COMPARE(w.session().active().settings.config.problem.initial, InitialCondition::HotEdges);
        knob<QSpinBox>(w, "seed")->setValue(7);
        QTRY_COMPARE(w.session().active().settings.config.problem.seed, std::uint64_t(7));
        choose(w, "dims", 3);
        QTRY_COMPARE(engine_config(w).problem.dims, 3);
        QCOMPARE(engine_config(w).problem.size, (Extent { 64, 64, 64 }));
        knob<QSpinBox>(w, "nz")->setValue(40);
        QTRY_COMPARE(engine_config(w).problem.size.nz, 40);
        choose(w, "stencil", int(StencilKind::Diffusion4));
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Diffusion4);
        QCOMPARE(engine_config(w).policy.variant, Variant::Smem); // star variants do not apply
        QCOMPARE(engine_config(w).policy.cf, 1);
        QVERIFY(!knob<QSpinBox>(w, "radius")->isEnabled());
        QVERIFY(!knob<QSpinBox>(w, "gpus")->isEnabled()); // no second GPU here
        QCOMPARE(knob<QComboBox>(w, "device")->currentData().toInt(), -1);
    }

    void run_and_display_controls_reach_engine_and_view() {
        WindowOptions o = cpu_options();
        o.settings.config.problem.dims = 3;
        o.settings.config.problem.size = { 32, 24, 16 };
        o.playing = false;
        MainWindow w(o);
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QCOMPARE(w.session().slice().index, 8); // the middle plane

        QTRY_VERIFY(w.field_view().has_frame());
        QCOMPARE(w.field_view().last_frame().iteration, 0LL);
        knob<QSpinBox>(w, "steps_per_frame")->setValue(3);
        QCOMPARE(w.session().pacing().steps_per_frame, 3);
        knob<QPushButton>(w, "step")->click();
        QTRY_COMPARE(w.field_view().last_frame().iteration, 3LL);
        knob<QPushButton>(w, "step")->click();
        QTRY_COMPARE(w.field_view().last_frame().iteration, 6LL);
        knob<QPushButton>(w, "play")->setChecked(true);
        QVERIFY(w.session().playing());
        QTRY_VERIFY(w.field_view().last_frame().iteration > 6);
        knob<QPushButton>(w, "play")->setChecked(false);
        QVERIFY(!w.session().playing());

        choose(w, "slice_axis", int(SliceAxis::YZ));
        QTRY_COMPARE(w.field_view().last_frame().slice.axis, SliceAxis::YZ);
        QCOMPARE(w.field_view().last_frame().width, 24); // ny x nz
        QCOMPARE(w.field_view().last_frame().height, 16);
        knob<QSlider>(w, "slice_index")->setValue(5);
        QTRY_COMPARE(w.field_view().last_frame().slice.index, 5);
        knob<QCheckBox>(w, "max_projection")->setChecked(true);
        QTRY_VERIFY(w.field_view().last_frame().slice.max_projection);
        QVERIFY(w.interop_text().startsWith(QStringLiteral("host copy")));

        choose(w, "colormap", int(ColormapKind::Grayscale));
        QCOMPARE(w.field_view().colormap(), ColormapKind::Grayscale);
        knob<QCheckBox>(w, "auto_range")->setChecked(false);
        knob<QDoubleSpinBox>(w, "range_lo")->setValue(-2.0);
        knob<QDoubleSpinBox>(w, "range_hi")->setValue(3.0);
        QCOMPARE(w.field_view().display_range(), (ValueRange { -2.0f, 3.0f }));

        knob<QPushButton>(w, "reset")->click();
        QTRY_COMPARE(w.field_view().last_frame().iteration, 0LL);
    }

    // A live frame needs no more texels than the field has pixels on screen: the window asks the engine
    // for that (within 256..1024 per side) as it is resized or zoomed, and the steps-per-frame knob keeps it.
    void the_live_resolution_follows_the_field_on_screen() {
        WindowOptions o = cpu_options(2048);
        o.playing = false;
        MainWindow w(o);
        w.resize(1280, 800);
        w.show();
        QTRY_VERIFY(w.field_view().has_frame());
        const auto expected
            = [&] { return std::clamp((w.field_view().display_extent() + 127) / 128 * 128, 256, 1024); };
        QTRY_VERIFY(w.field_view().display_extent() > 0);
        QTRY_COMPARE(w.session().pacing().display_max, expected());
        w.resize(700, 500);
        QTRY_COMPARE(w.session().pacing().display_max, expected());
        QVERIFY(w.session().pacing().display_max < 1024);
        const int small = w.session().pacing().display_max;
        knob<QSpinBox>(w, "steps_per_frame")->setValue(7);
        QCOMPARE(w.session().pacing().steps_per_frame, 7);
        QCOMPARE(w.session().pacing().display_max, small);
        // zooming in shows fewer cells per pixel: more texels, up to the cap
        QWheelEvent wheel(QPointF(100, 100), w.field_view().mapToGlobal(QPointF(100, 100)), QPoint(),
            QPoint(0, 20 * 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&w.field_view(), &wheel);
        QTRY_COMPARE(w.session().pacing().display_max, 1024);
    }

    void an_impossible_combination_shows_the_engine_reason() {
        MainWindow w(cpu_options(20));
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        const std::uint64_t generation = w.session().generation();
        knob<QSpinBox>(w, "radius")->setValue(12); // needs 25 cells per axis
        QLabel* reason = knob<QLabel>(w, "reason");
        QVERIFY(!reason->isHidden());
        QVERIFY2(reason->text().contains(QStringLiteral("smaller than")), qPrintable(reason->text()));
        QCOMPARE(w.controls().reason(), reason->text());
        QCOMPARE(w.session().generation(), generation); // nothing was sent
        QCOMPARE(engine_config(w).problem.radius, 1);
        QTRY_VERIFY(w.field_view().frames_presented() > 2); // and the old run goes on

        knob<QSpinBox>(w, "nx")->setValue(40);
        knob<QSpinBox>(w, "ny")->setValue(40);
        QVERIFY(reason->isHidden());
        QTRY_COMPARE(engine_config(w).problem.radius, 12);
    }

    // The halo mode beside the overlap switch: closed on one strip, each impossible mode disabled with the
    // Session's reason, and a remote choice that arrives with a setup on the CPU explained and undoable.
    void the_halo_choice_says_what_it_needs() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        auto* halo = knob<QComboBox>(w, "halo");
        QVERIFY(!halo->isEnabled());
        QVERIFY2(halo->toolTip().contains(QLatin1String("2 or more GPUs")), qPrintable(halo->toolTip()));
        auto* items = qobject_cast<QStandardItemModel*>(halo->model());
        QVERIFY(items);
        const int remote = halo->findData(int(HaloMode::Remote));
        QVERIFY(!items->item(remote)->isEnabled());
        QVERIFY(items->item(remote)->toolTip().contains(QLatin1String("CPU backend")));
        QVERIFY(items->item(halo->findData(int(HaloMode::Auto)))->isEnabled());

        const std::uint64_t generation = w.session().generation();
        RunSettings s = w.controls().settings();
        s.config.placement.halo = HaloMode::Remote;
        w.controls().set_settings(s);
        QVERIFY(halo->isEnabled()); // a choice that does not apply can be undone
        QVERIFY2(w.controls().reason().contains(QLatin1String("CPU backend")), qPrintable(w.controls().reason()));
        QCOMPARE(w.session().generation(), generation); // nothing was sent
        choose(w, "halo", int(HaloMode::Auto));
        QVERIFY(w.controls().reason().isEmpty());
        QVERIFY(!halo->isEnabled());
    }

    void the_temporal_depth_reaches_the_engine_and_other_variants_run_one_step() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QSpinBox* depth = knob<QSpinBox>(w, "depth");
        QVERIFY(!depth->isEnabled());
        choose(w, "variant", int(Variant::Temporal));
        QVERIFY(depth->isEnabled());
        QCOMPARE(depth->value(), default_temporal_depth(engine_config(w).problem)); // starts from the default
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Temporal);
        depth->setValue(9);
        QTRY_COMPARE(engine_config(w).policy.depth, 9);
        choose(w, "rule", int(UpdateRule::Wave)); // refused with the engine's reason, nothing sent
        QVERIFY2(w.controls().reason().contains(QStringLiteral("wave rule")), qPrintable(w.controls().reason()));
        QCOMPARE(engine_config(w).problem.rule, UpdateRule::Jacobi);
        choose(w, "rule", int(UpdateRule::Jacobi));
        choose(w, "variant", int(Variant::Base));
        QVERIFY(!depth->isEnabled());
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Base);
        QCOMPARE(engine_config(w).policy.depth, 1);
    }

    void a_manual_block_is_checked_against_gpu_rules() {
        MainWindow w(cpu_options());
        w.show();
        knob<QCheckBox>(w, "heuristic")->setChecked(false);
        knob<QSpinBox>(w, "bx")->setValue(1024);
        knob<QSpinBox>(w, "by")->setValue(4);
        QVERIFY(knob<QLabel>(w, "heuristic_choice")->text().contains(QStringLiteral("threads")));
    }

    // With the heuristic on, the greyed block boxes show the block it chose (not a stale manual one), and
    // unticking it starts from that block.
    void the_block_boxes_show_the_heuristic_choice() {
        MainWindow w(cpu_options());
        ControlPanel& controls = w.controls();
        QVERIFY(knob<QCheckBox>(w, "heuristic")->isChecked());
        EngineReady ready;
        ready.settings = controls.settings();
        ready.settings.config.placement.backend = Backend::Cuda; // as a GPU run would report it
        ready.resources.block = { 64, 4, 1 };
        controls.show_engine_ready(ready); // not the requested run: nothing changes
        QCOMPARE(knob<QSpinBox>(w, "bx")->value(), controls.settings().config.policy.block.x);
        ready.settings = controls.settings();
        ready.resources.block = { 64, 4, 1 };
        controls.show_engine_ready(ready);
        QCOMPARE(knob<QSpinBox>(w, "bx")->value(), 64);
        QCOMPARE(knob<QSpinBox>(w, "by")->value(), 4);
        knob<QCheckBox>(w, "heuristic")->setChecked(false);
        QCOMPARE(controls.settings().config.policy.block, (BlockDims { 64, 4, 1 }));
    }

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

    void clicking_the_field_injects_a_source() {
        WindowOptions o = cpu_options(64);
        o.playing = false;
        MainWindow w(o);
        w.resize(900, 700);
        w.show();
        QTRY_VERIFY(w.field_view().has_frame());
        const auto cell_value = [&w](int x, int y) {
            const FieldFrame& f = w.field_view().last_frame();
            return (*f.host)[std::size_t(y) * f.width + x];
        };
        QCOMPARE(cell_value(8, 8), 0.0f);
        const PointD p = w.field_view().transform().cell_to_pixel({ 8.5, 8.5 });
        QTest::mouseClick(&w.field_view(), Qt::LeftButton, {}, QPoint(int(p.x), int(p.y)));
        QTRY_VERIFY(cell_value(8, 8) >= 1.0f);
        QCOMPARE(cell_value(40, 8), 0.0f); // only near the click
    }

    void command_line_defaults_and_errors() {
        GuiOptions o;
        QVERIFY(parse_gui_options({ "--frames", "3", "--screenshot", "a.png", "--colormap=grayscale" }, o, false));
        QCOMPARE(o.window.settings.config.placement.backend, Backend::Cpu);
        QCOMPARE(o.window.settings.config.problem.size, (Extent { 256, 256, 1 }));
        QCOMPARE(o.window.settings.config.problem.initial, InitialCondition::Gaussian);
        QCOMPARE(o.frames, 3);
        QCOMPARE(o.window.colormap, ColormapKind::Grayscale);
        QVERIFY(o.scripted() && !o.window.restore_layout);

        GuiOptions cuda;
        QVERIFY(parse_gui_options({ "--radius", "4", "--range", "-1:2", "--benchmark-seconds", "2" }, cuda, true));
        QCOMPARE(cuda.window.settings.config.placement.backend, Backend::Cuda);
        QCOMPARE(cuda.window.settings.config.problem.size, (Extent { 1024, 1024, 1 }));
        QCOMPARE(cuda.window.settings.config.problem.radius, 4);
        QCOMPARE(cuda.window.pacing.steps_per_frame, 0); // the benchmark runs free
        QVERIFY(!cuda.window.range.automatic);
        QCOMPARE(cuda.window.range.fixed, (ValueRange { -1.0f, 2.0f }));

        GuiOptions bad;
        QVERIFY(!parse_gui_options({ "--frames", "0" }, bad, false));
        const Status s = parse_gui_options({ "--wat" }, bad, false);
        QVERIFY(!s && s.reason.find("--wat") != std::string::npos);
        QVERIFY(!parse_gui_options({ "--range", "2:1" }, bad, false));
        QVERIFY(!parse_gui_options({ "--benchmark-seconds", "1", "--frames", "2" }, bad, false));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
