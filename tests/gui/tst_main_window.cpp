// SPDX-License-Identifier: MIT
// The window on the CPU backend, offscreen: it opens and runs, survives a device failure, every control
// reaches the engine or the view, a click injects a source, and the command line parses. The reasons the
// controls show: tst_control_reasons.cpp; the pictures (exports, GL, interop): tst_field_pictures.cpp.
#include "app/gui/gui_options.h"
#include "session/session.h"
#include "widgets/control_panel.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
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
        // The given 16x..x1 block cannot run smem_padded R3 in 3D on any GPU (every dim >= R), which the CPU
        // backend now refuses as a GPU would (issue 36): the heuristic's block goes to 3D.
        knob<QCheckBox>(w, "heuristic")->setChecked(true);
        QTRY_COMPARE(engine_config(w).policy.heuristic_block, true);
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
