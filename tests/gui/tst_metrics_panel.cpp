// SPDX-License-Identifier: MIT
// The metrics panel without a GPU: synthetic profiled launches reach the summary, the charts and the
// verdict; the stall chart sorts and explains; baselines show deltas; the CPU backend says why there
// are no counters; chart exports write PNGs and refuse unwritable paths.
#include "widgets/engine_controller.h"
#include "widgets/main_window.h"
#include "widgets/metric_charts.h"
#include "widgets/metrics_panel.h"

#include <QCheckBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

MetricsSample synthetic(double seconds, double long_scoreboard, double barrier) {
    MetricsSample s;
    s.seconds = seconds;
    s.settings.config.size = { 4096, 4096, 1 };
    s.device_name = "test GPU";
    s.launch.passes = 7;
    s.launch.kernels = 1;
    s.launch.wall_ms = 12.0;
    s.launch.metrics = { { "gpu__time_duration.sum", 1.0e6 }, { "dram__bytes_read.sum", 64.0e6 },
        { "dram__bytes_write.sum", 64.0e6 }, { "lts__t_sector_hit_rate.pct", 42.5 },
        { stall_metric_name("long_scoreboard"), long_scoreboard }, { stall_metric_name("barrier"), barrier },
        { stall_metric_name("wait"), 0.5 } };
    s.duration_ms = 1.0;
    s.gcells_per_second = 16.7;
    s.dram_read_gbs = 64.0;
    s.dram_write_gbs = 64.0;
    s.dram_peak_gbs = 3000.0;
    s.verdict = { Limiter::LatencyOccupancy, "latency/occupancy: test" };
    return s;
}

template <typename W> W* child(QWidget& w, const char* name) {
    W* found = w.findChild<W*>(QLatin1String(name));
    if (!found) qFatal("no child named %s", name);
    return found;
}

} // namespace

class TestMetricsPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sample_reaches_every_readout() {
        MetricsPanel panel;
        panel.show_sample(synthetic(1.0, 3.0, 1.0));
        QCOMPARE(panel.history().size(), std::size_t(1));
        QVERIFY(child<QLabel>(panel, "metric_verdict")->text().contains(QLatin1String("latency/occupancy")));
        QVERIFY(child<QLabel>(panel, "sum_l2")->text().startsWith(QLatin1String("42.5")));
        QVERIFY(child<QLabel>(panel, "sum_passes")->text().startsWith(QLatin1String("7 passes")));
        QCOMPARE(child<TimeSeriesChart>(panel, "chart_dram")->points(), 1);
        // largest stall on top: a horizontal bar chart lists categories bottom-up
        const QStringList bars = child<StallChart>(panel, "chart_stalls")->categories();
        QCOMPARE(bars.size(), 3);
        QCOMPARE(bars.last(), QStringLiteral("Long scoreboard"));
        QCOMPARE(bars.first(), QStringLiteral("Wait"));
    }

    void unavailable_sample_explains_and_keeps_history() {
        MetricsPanel panel;
        panel.show_sample(synthetic(1.0, 3.0, 1.0));
        MetricsSample none;
        none.unavailable = "GPU performance counters are restricted to administrators";
        panel.show_sample(none);
        QVERIFY(child<QLabel>(panel, "metric_note")->text().contains(QLatin1String("administrators")));
        QCOMPARE(panel.history().size(), std::size_t(1));
    }

    void baseline_shows_speedup_and_second_bars() {
        MetricsPanel panel;
        panel.show_sample(synthetic(1.0, 3.0, 1.0));
        panel.set_baseline(*panel.latest());
        MetricsSample faster = synthetic(2.0, 1.0, 4.0);
        faster.gcells_per_second = 33.4;
        panel.show_sample(faster);
        QVERIFY(child<QLabel>(panel, "sum_gcells")->text().contains(QStringLiteral("2.00×")));
        // the barrier bar (4.0 now) outranks long scoreboard (1.0 now, 3.0 in the baseline)
        QCOMPARE(child<StallChart>(panel, "chart_stalls")->categories().last(), QStringLiteral("Barrier"));
        panel.set_baseline(std::nullopt);
        QVERIFY(!child<QLabel>(panel, "sum_gcells")->text().contains(QLatin1String("baseline")));
    }

    void per_gpu_table_for_strips() {
        MetricsPanel panel;
        panel.show();
        EngineStats stats;
        stats.ms_per_step = 1.0;
        QVERIFY(!child<QLabel>(panel, "metric_gpus")->isVisible()); // one GPU: no table
        stats.strips.timed = true;
        stats.strips.overlap = true;
        for (int g = 0; g < 2; ++g) {
            StripStats s;
            s.device = g, s.first_row = g * 100, s.end_row = (g + 1) * 100, s.updated_cells = 1000000;
            s.compute_ms = 0.5, s.exchange_ms = 0.01, s.halo_bytes = 4096;
            s.below = g ? HaloPath::PeerToPeer : HaloPath::None, s.above = g ? HaloPath::None : HaloPath::PeerToPeer;
            stats.strips.strips.push_back(s);
        }
        panel.show_stats(stats);
        QLabel* table = child<QLabel>(panel, "metric_gpus");
        QVERIFY(table->isVisible());
        QVERIFY(table->text().contains(QLatin1String("100–199")) || table->text().contains(QStringLiteral("100–199")));
        QVERIFY(table->text().contains(QLatin1String("peer-to-peer")));
        QVERIFY(table->text().contains(QLatin1String("overlap on")));
    }

    void charts_export_as_png() {
        MetricsPanel panel;
        panel.resize(1200, 400);
        panel.show_sample(synthetic(1.0, 3.0, 1.0));
        QTemporaryDir dir;
        QString why;
        QVERIFY(panel.save_charts(dir.filePath(QStringLiteral("m")), &why));
        for (const char* suffix : { "m-dram.png", "m-local.png", "m-stalls.png" })
            QVERIFY(!QImage(dir.filePath(QLatin1String(suffix))).isNull());
        QVERIFY(!panel.save_charts(QStringLiteral("/nonexistent-dir/m"), &why));
        QVERIFY(why.contains(QLatin1String("nonexistent")));
    }

    void cpu_backend_says_why_no_counters() {
        WindowOptions o;
        o.settings.config.backend = Backend::Cpu;
        o.settings.config.size = { 64, 64, 1 };
        o.restore_layout = false;
        o.renderer = FieldView::Renderer::Raster;
        o.metrics = true;
        o.metrics_given = true;
        MainWindow w(o);
        w.show();
        QLabel* note = child<QLabel>(w, "metric_note");
        QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(QLatin1String("CUDA GPU")), 10000);
        QVERIFY(child<QCheckBox>(w, "counters_toggle")->isChecked());
        QVERIFY(!w.pin_baseline()); // nothing profiled
        child<QCheckBox>(w, "counters_toggle")->setChecked(false);
        QVERIFY(w.engine().metrics_on() == false);
        QVERIFY(note->text().contains(QLatin1String("off")));

        // File > Export metrics: nothing profiled is refused; a profiled launch becomes one CSV row in
        // the columns of `stencilscope-cli profile --csv`
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("m.csv"));
        QString why;
        QVERIFY(!w.export_metrics(csv, &why));
        QVERIFY(why.contains(QLatin1String("profiled")));
        w.metrics().show_sample(synthetic(1.0, 3.0, 1.0));
        w.metrics().show_sample(synthetic(2.0, 3.0, 1.0));
        QVERIFY2(w.export_metrics(csv, &why), qPrintable(why));
        QVERIFY2(w.export_metrics(csv, &why), qPrintable(why)); // replaces, never appends twice
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("timestamp,device,"));
        QVERIFY(lines[0].contains("dram__bytes_read.sum"));
        QVERIFY(lines[1].contains("test GPU"));
        QVERIFY(!w.export_metrics(QStringLiteral("/nonexistent-dir/m.csv"), &why));
        QVERIFY(!why.isEmpty());
    }
};

QTEST_MAIN(TestMetricsPanel)
#include "tst_metrics_panel.moc"
