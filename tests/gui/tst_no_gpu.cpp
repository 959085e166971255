// SPDX-License-Identifier: MIT
// A class without GPUs (this machine, CI): --backend cuda falls back to the CPU and says so in the window;
// the counters toggle is disabled with the reason; the headline is the kernel's own timing, the display
// cadence apart; empty charts hide and say why; the metrics export writes the timing figures with the
// configuration, device and iteration; chart PNGs are refused while empty; the block hint names a block a GPU
// would launch.
#include "app/gui/gui_options.h"
#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/main_window.h"
#include "widgets/metrics_panel.h"
#include "widgets/window_exports.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

WindowOptions cpu_window(bool counters) {
    WindowOptions o;
    o.settings.config.placement.backend = Backend::Cpu;
    o.settings.config.problem.size = { 64, 64, 1 };
    o.restore_layout = false;
    o.renderer = FieldView::Renderer::Raster;
    o.metrics = counters;
    o.metrics_given = true;
    return o;
}

template <typename W> W* child(QWidget& w, const char* name) {
    W* found = w.findChild<W*>(QLatin1String(name));
    if (!found) qFatal("no child named %s", name);
    return found;
}

QList<QByteArray> csv_lines(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().trimmed().split('\n');
}

} // namespace

class TestNoGpu : public QObject {
    Q_OBJECT
private slots:
    // Without a GPU kernel the heuristic's block is named as the most capable GPU would run it (or the GPU present):
    // the fp64 3D R16 stream kernel's 94 KiB of tiles are past CUDA's common 48 KiB, within an H100's 227 KiB.
    void without_a_gpu_kernel_the_heuristic_names_a_launchable_block() {
        MainWindow w(test::cpu_options());
        w.show();
        test::choose(w, "dims", 3);
        test::choose(w, "variant", int(Variant::Stream));
        test::choose(w, "precision", int(Precision::FP64));
        test::knob<QSpinBox>(w, "radius")->setValue(16);
        test::choose(w, "cf", 2);
        const QString text = test::knob<QLabel>(w, "heuristic_choice")->text();
        QVERIFY2(text.contains(QStringLiteral("heuristic: 8x16")), qPrintable(text));
        test::knob<QCheckBox>(w, "heuristic")->setChecked(false);
        test::knob<QSpinBox>(w, "bx")->setValue(8);
        test::knob<QSpinBox>(w, "by")->setValue(16);
        test::knob<QSpinBox>(w, "bz")->setValue(1);
        const QString manual = test::knob<QLabel>(w, "heuristic_choice")->text();
        QVERIFY2(!manual.contains(QStringLiteral("shared memory")), qPrintable(manual));
        test::knob<QSpinBox>(w, "bx")->setValue(32); // 32x32: a 64 x 32 tile, 5 planes with the halo: 272 KiB
        test::knob<QSpinBox>(w, "by")->setValue(32);
        const QString too_large = test::knob<QLabel>(w, "heuristic_choice")->text();
        QVERIFY2(too_large.contains(QStringLiteral("shared memory")), qPrintable(too_large));
    }

    // Replayed counters are no longer refused for runs on 2+ GPUs (issue 36): the precheck's answer for two GPUs is
    // the answer for one (CUPTI present or not), never a GPU-count rule.
    void counters_are_not_refused_for_runs_on_several_gpus() {
        StencilConfig c;
        c.placement.backend = Backend::Cuda;
        const std::string one = MetricsSampler::precheck(c);
        c.placement.gpus = 2;
        QCOMPARE(MetricsSampler::precheck(c), one);
        c.placement.gpus = 1;
        c.placement.strips_per_device = 2;
        QCOMPARE(MetricsSampler::precheck(c), one);
    }

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void backend_cuda_without_a_gpu_falls_back_visibly() {
        GuiOptions o;
        QVERIFY(parse_gui_options({ "--backend", "cuda", "--frames", "2", "--screenshot", "x.png" }, o, false));
        QVERIFY(o.window.gpu_fallback);
        QCOMPARE(o.window.settings.config.placement.backend, Backend::Cpu);
        QCOMPARE(o.window.settings.config.problem.size, (Extent { 256, 256, 1 })); // the CPU's small default
        GuiOptions with_gpu;
        QVERIFY(parse_gui_options({ "--backend", "cuda" }, with_gpu, true));
        QVERIFY(!with_gpu.window.gpu_fallback);
        QCOMPARE(with_gpu.window.settings.config.placement.backend, Backend::Cuda);

        o.window.restore_layout = false;
        o.window.renderer = FieldView::Renderer::Raster;
        o.window.settings.config.problem.size = { 64, 64, 1 };
        o.window.devices.unavailable = "no CUDA device found";
        MainWindow w(o.window);
        w.show();
        QTRY_VERIFY(w.session().has_simulation()); // it runs: not a blank, dead window
        QCOMPARE(w.session().active().settings.config.placement.backend, Backend::Cpu);
        QLabel* notice = child<QLabel>(w, "status_notice");
        QVERIFY(notice->isVisible());
        QVERIFY2(notice->text().contains(QLatin1String("No usable GPU")), qPrintable(notice->text()));
        QVERIFY(notice->text().contains(QLatin1String("CPU backend")));
        QVERIFY2(notice->toolTip().contains(QLatin1String("no CUDA device found")), qPrintable(notice->toolTip()));
    }

    void cpu_backend_headline_counters_charts_and_exports() {
        MainWindow w(cpu_window(true));
        w.show();
        // the toggle cannot work here: disabled, unticked, and its tooltip says why
        QCheckBox* toggle = child<QCheckBox>(w, "counters_toggle");
        QTRY_VERIFY(!toggle->isEnabled());
        QVERIFY(!toggle->isChecked());
        QVERIFY(toggle->toolTip().contains(QLatin1String("CUDA GPU")));
        // empty charts are hidden and one line says why
        QLabel* notice = child<QLabel>(w, "chart_notice");
        QTRY_VERIFY(notice->text().contains(QLatin1String("no data because hardware counters need a CUDA GPU")));
        QVERIFY(child<QWidget>(w, "chart_dram")->isHidden());
        QVERIFY(child<QWidget>(w, "chart_local")->isHidden());
        QVERIFY(!child<QWidget>(w, "chart_stalls")->isVisible());
        QVERIFY(child<QWidget>(w, "metric_summary")->isHidden()); // counter rows only: none to show

        // the headline is the steps' own time, and the display cadence is labelled apart
        QTRY_VERIFY_WITH_TIMEOUT(w.session().last_stats().kernel_ms_per_step > 0.0, 10000);
        const EngineStats s = w.session().last_stats();
        QVERIFY(s.kernel_timed_steps > 0);
        QVERIFY(s.kernel_gcells_per_second > 0.0);
        QTRY_VERIFY(child<QLabel>(w, "metric_gcells")->text() != QStringLiteral("-"));
        QTRY_VERIFY(child<QLabel>(w, "metric_cadence")->text().contains(QLatin1String("steps/frame")));
        QVERIFY(child<QLabel>(w, "metric_cadence")->text().contains(QLatin1String("wall clock")));

        // chart PNGs: refused while empty, with the reason
        QString why;
        QTemporaryDir dir;
        QVERIFY(!w.metrics().save_charts(dir.filePath(QStringLiteral("c")), &why));
        QVERIFY2(why.contains(QLatin1String("CUDA GPU")), qPrintable(why));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("c-dram.png"))));

        // the metrics export works without counters: the timing figures with configuration, device, iteration
        QTRY_VERIFY_WITH_TIMEOUT(!w.session().history().timing().empty(), 10000);
        const QString csv = dir.filePath(QStringLiteral("m.csv"));
        QStringList written;
        QVERIFY2(w.exports().export_metrics(csv, &why, &written), qPrintable(why));
        QCOMPARE(written, QStringList { csv });
        const QList<QByteArray> lines = csv_lines(csv);
        QVERIFY(lines.size() >= 2);
        const QList<QByteArray> header = lines[0].split(',');
        for (const char* column : { "timestamp", "device", "iteration", "kernel_ms_per_step", "kernel_gcells_per_s",
                 "frames_per_s", "steps_per_frame", "wall_steps_per_s" })
            QVERIFY2(header.contains(column), column);
        const QList<QByteArray> row = lines[1].split(',');
        QVERIFY(row.value(header.indexOf("device")).startsWith("CPU"));
        QVERIFY(!row.value(header.indexOf("kernel_gcells_per_s")).isEmpty());
        QCOMPARE(row.value(header.indexOf("steps_per_frame")), QByteArray("10"));
        QVERIFY(row.value(header.indexOf("iteration")).toLongLong() > 0);
    }

    void counters_off_says_so_in_the_charts() {
        MainWindow w(cpu_window(false));
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        // off and impossible: the CPU reason wins, the toggle stays disabled
        QVERIFY(!child<QCheckBox>(w, "counters_toggle")->isEnabled());
        QVERIFY(child<QLabel>(w, "chart_notice")->text().contains(QLatin1String("no data because")));
    }
};

QTEST_MAIN(TestNoGpu)
#include "tst_no_gpu.moc"
