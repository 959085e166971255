// SPDX-License-Identifier: MIT
// The metrics panel without a GPU: synthetic profiled launches reach the summary, the charts and the
// verdict; the stall chart sorts and explains; baselines show deltas; the CPU backend says why there
// are no counters; chart exports write PNGs and refuse unwritable paths; File > Export metrics writes one
// CSV row per GPU. Split runs in the panel: tst_metrics_per_gpu.cpp.
#include "metrics_test_samples.h"
#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/main_window.h"
#include "widgets/metric_charts.h"
#include "widgets/metrics_panel.h"
#include "widgets/window_exports.h"

#include <QCheckBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

class TestMetricsPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sample_reaches_every_readout() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(synthetic(1.0, 3.0, 1.0));
        QCOMPARE(session.history().samples().size(), std::size_t(1));
        QVERIFY(child<QLabel>(panel, "metric_verdict")->text().contains(QLatin1String("latency/occupancy")));
        QVERIFY(child<QLabel>(panel, "sum_l2")->text().startsWith(QLatin1String("42.5")));
        QCOMPARE(child<QLabel>(panel, "sum_l1")->text(), QStringLiteral("–")); // not collected: no number
        QVERIFY(child<QLabel>(panel, "sum_passes")->text().startsWith(QLatin1String("7 passes")));
        QCOMPARE(child<TimeSeriesChart>(panel, "chart_dram")->points(), 1);
        // largest stall on top: a horizontal bar chart lists categories bottom-up
        const QStringList bars = child<StallChart>(panel, "chart_stalls")->categories();
        QCOMPARE(bars.size(), 3);
        QCOMPARE(bars.last(), QStringLiteral("Long scoreboard"));
        QCOMPARE(bars.first(), QStringLiteral("Wait"));
    }

    void unavailable_sample_explains_and_keeps_history() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(synthetic(1.0, 3.0, 1.0));
        MetricsSample none;
        none.unavailable = "GPU performance counters are restricted to administrators";
        session.add_sample(none);
        QVERIFY(child<QLabel>(panel, "metric_note")->text().contains(QLatin1String("administrators")));
        QCOMPARE(session.history().samples().size(), std::size_t(1));
    }

    void baseline_shows_speedup_and_second_bars() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(synthetic(1.0, 3.0, 1.0));
        QVERIFY(session.pin_baseline());
        MetricsSample faster = synthetic(2.0, 1.0, 4.0);
        faster.figures.gcells_per_second = 33.4;
        session.add_sample(faster);
        QVERIFY(child<QLabel>(panel, "sum_gcells")->text().contains(QStringLiteral("2.00×")));
        // the barrier bar (4.0 now) outranks long scoreboard (1.0 now, 3.0 in the baseline)
        QCOMPARE(child<StallChart>(panel, "chart_stalls")->categories().last(), QStringLiteral("Barrier"));
        session.clear_baseline();
        QVERIFY(!child<QLabel>(panel, "sum_gcells")->text().contains(QLatin1String("baseline")));
    }

    // A temporal launch of depth 4 is profiled as one launch of 4 steps: the panel shows the bytes per cell and
    // step (a quarter of the launch's) against the per-step ideal, and the rate counts every step.
    void temporal_sample_shows_bytes_per_cell_and_step() {
        MetricsSample s;
        StencilConfig& c = s.settings.config;
        c.problem.size = { 1026, 1026, 1 };
        c.policy.variant = Variant::Temporal, c.policy.depth = 4;
        MetricsSampler::GpuCounters g;
        g.share = device_shares(c).front();
        g.peak_bytes_per_s = 10e9;
        const double bytes = 4.0 * double(g.share.updated_cells); // a read and a write of each cell per launch
        g.launch.kernels = 1;
        g.launch.metrics = { { "gpu__time_duration.sum", 1.0e6 }, { "dram__bytes_read.sum", bytes },
            { "dram__bytes_write.sum", bytes } };
        MetricsSampler::derive(c, { g }, s);
        QCOMPARE(s.figures.steps, 4);
        QCOMPARE(s.figures.dram_bytes_per_cell, 2.0);
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(s);
        QCOMPARE(child<QLabel>(panel, "sum_bytes_per_cell")->text(), QStringLiteral("2.00 (ideal 2.00)"));
        QVERIFY(child<QLabel>(panel, "sum_gcells")->text().startsWith(QLatin1String("4.2"))); // 4 x 1024^2 in 1 ms
    }

    void charts_export_as_png() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.resize(1200, 400);
        QTemporaryDir dir;
        QString why;
        // nothing profiled: refused with the reason, nothing written
        QVERIFY(!panel.save_charts(dir.filePath(QStringLiteral("m")), &why));
        QVERIFY2(why.contains(QLatin1String("no data because")), qPrintable(why));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("m-dram.png"))));
        session.add_sample(synthetic(1.0, 3.0, 1.0));
        QStringList written;
        QVERIFY2(panel.save_charts(dir.filePath(QStringLiteral("m")), &why, &written), qPrintable(why));
        // the local-memory chart has no traffic to show (0 B/s): hidden, and not written as an empty picture
        QCOMPARE(written,
            (QStringList { dir.filePath(QStringLiteral("m-dram.png")), dir.filePath(QStringLiteral("m-stalls.png")) }));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("m-local.png"))));
        for (const QString& path : written) {
            const QImage image(path);
            QVERIFY(!image.isNull());
            // the caption strip under the chart: dark text pixels on white in the bottom rows
            int dark = 0;
            for (int y = image.height() - 12; y < image.height(); ++y)
                for (int x = 0; x < image.width() / 2; ++x) dark += qGray(image.pixel(x, y)) < 100;
            QVERIFY2(dark > 20, qPrintable(path));
        }
        QVERIFY(!panel.save_charts(QStringLiteral("/nonexistent-dir/m"), &why));
        QVERIFY(why.contains(QLatin1String("nonexistent")));
    }

    void empty_and_zero_charts_say_why_with_a_readable_axis() {
        // "0, 0.5, 1.0" and nice steps, never "1, 1, 1, 0, 0"
        const AxisScale none = nice_axis(0.0);
        QCOMPARE(none.top, 1.0);
        QCOMPARE(none.ticks, 3);
        QCOMPARE(none.decimals, 1);
        const AxisScale small = nice_axis(0.3); // 0, 0.1, 0.2, 0.3, 0.4
        QVERIFY(small.top >= 0.33 && small.top <= 0.5);
        QCOMPARE(small.decimals, 1);
        const AxisScale big = nice_axis(2890.0);
        QCOMPARE(big.top, 4000.0);
        QCOMPARE(big.decimals, 0);
        TimeSeriesChart chart(QStringLiteral("t"), QStringLiteral("GB/s"), { QStringLiteral("a") });
        QCOMPARE(chart.axis_labels(), QStringLiteral("0.0, 0.5, 1.0"));
        chart.append(1.0, { 0.3 });
        const QStringList labels = chart.axis_labels().split(QStringLiteral(", "));
        QStringList distinct = labels;
        distinct.removeDuplicates();
        QCOMPARE(distinct.size(), labels.size()); // every tick label tells its tick apart

        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.show();
        QLabel* notice = child<QLabel>(panel, "chart_notice");
        QVERIFY(notice->text().contains(QLatin1String("no data because")));
        QVERIFY(child<QWidget>(panel, "chart_dram")->isHidden());
        session.add_sample(synthetic(1.0, 3.0, 1.0));
        QVERIFY(!child<QWidget>(panel, "chart_dram")->isHidden());
        QVERIFY(child<QWidget>(panel, "chart_local")->isHidden()); // zero local traffic
        QVERIFY(notice->text().contains(QLatin1String("0 B/s")));
        // another kernel: the charts start again and say since when
        panel.new_configuration();
        session.add_sample(synthetic(2.0, 3.0, 1.0));
        QVERIFY2(notice->text().contains(QLatin1String("since the change at")), qPrintable(notice->text()));
        QCOMPARE(child<TimeSeriesChart>(panel, "chart_dram")->points(), 1);
    }

    // The H100 launch (2D R1 base 1024², counters on): CUPTI's L2 percentage read 101.1 %; the panel
    // shows hits / (hits + misses) of the same launch, and the verdict knows the field sits in the L2.
    void recorded_h100_launch_shows_a_true_l2_rate_and_an_l2_resident_verdict() {
        MetricsSample s;
        StencilConfig& c = s.settings.config;
        c.problem.size = { 1024, 1024, 1 };
        MetricsSampler::GpuCounters g;
        g.share = device_shares(c).front();
        g.device_name = "NVIDIA H100 80GB HBM3";
        g.peak_bytes_per_s = 3.0e12;
        g.l2_bytes = 50.0 * (1 << 20);
        g.launch.kernels = 1;
        g.launch.passes = 6;
        g.launch.metrics = { { "gpu__time_duration.sum", 5200.0 }, { "dram__bytes_read.sum", 0.41e6 },
            { "dram__bytes_write.sum", 1.13e6 }, { "lts__t_sector_hit_rate.pct", 101.1 },
            { "lts__t_sectors_lookup_hit.sum", 289184.0 }, { "lts__t_sectors_lookup_miss.sum", 3912.0 },
            { stall_metric_name("long_scoreboard"), 2.0 }, { stall_metric_name("wait"), 1.0 } };
        MetricsSampler::derive(c, { g }, s);
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(s);
        QCOMPARE(child<QLabel>(panel, "sum_l2")->text(), QStringLiteral("98.7 %"));
        const QString verdict = child<QLabel>(panel, "metric_verdict")->text();
        QVERIFY2(verdict.contains(QLatin1String("L2-resident")), qPrintable(verdict));
        QVERIFY(verdict.contains(QLatin1String("DRAM is not the limit")));
    }

    void headline_is_the_kernels_own_rate() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        EngineStats s; // the H100 case: 1024² R1 at 10 steps per frame
        s.kernel_ms_per_step = 0.0052, s.kernel_gcells_per_second = 200.9, s.kernel_timed_steps = 1200;
        s.ms_per_step = 0.98, s.gcells_per_second = 1.07, s.steps_per_second = 1100;
        panel.show_stats(s);
        QCOMPARE(child<QLabel>(panel, "metric_gcells")->text(), QStringLiteral("200.90"));
        QCOMPARE(child<QLabel>(panel, "metric_time")->text(), QStringLiteral("5.2 µs"));
        QVERIFY(child<QLabel>(panel, "metric_cadence")->text().contains(QLatin1String("1100 steps/s wall clock")));
        s.kernel_ms_per_step = 0.0, s.kernel_gcells_per_second = 0.0, s.kernel_timed_steps = 0;
        panel.show_stats(s); // no timed batch in this window: no made-up headline
        QCOMPARE(child<QLabel>(panel, "metric_gcells")->text(), QStringLiteral("-"));
    }

    void cpu_backend_says_why_no_counters() {
        WindowOptions o;
        o.settings.config.placement.backend = Backend::Cpu;
        o.settings.config.problem.size = { 64, 64, 1 };
        o.restore_layout = false;
        o.renderer = FieldView::Renderer::Raster;
        o.metrics = true;
        o.metrics_given = true;
        MainWindow w(o);
        w.show();
        QLabel* note = child<QLabel>(w, "metric_note");
        QTRY_VERIFY_WITH_TIMEOUT(note->text().contains(QLatin1String("CUDA GPU")), 10000);
        QVERIFY(!child<QCheckBox>(w, "counters_toggle")->isChecked()); // cannot work here: unticked, disabled
        QVERIFY(!child<QCheckBox>(w, "counters_toggle")->isEnabled());
        QVERIFY(!w.pin_baseline()); // nothing profiled
        w.session().set_counters(false);
        QVERIFY(w.session().counters() == false);
        QVERIFY(note->text().contains(QLatin1String("CUDA GPU"))); // the reason still holds, not "off"

        // File > Export metrics: profiled launches become CSV rows in the columns of `stencilscope-cli profile
        // --csv` at the chosen path (the timing figures go beside it)
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("m.csv"));
        QString why;
        w.session().add_sample(synthetic(1.0, 3.0, 1.0));
        w.session().add_sample(synthetic(2.0, 3.0, 1.0));
        QVERIFY2(w.exports().export_metrics(csv, &why), qPrintable(why));
        QVERIFY2(w.exports().export_metrics(csv, &why), qPrintable(why)); // replaces, never appends twice
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        f.close();
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("timestamp,device,"));
        QVERIFY(lines[0].contains("dram__bytes_read.sum"));
        QVERIFY(lines[1].contains("test GPU"));
        QVERIFY(!w.exports().export_metrics(QStringLiteral("/nonexistent-dir/m.csv"), &why));
        QVERIFY(!why.isEmpty());

        // a split launch: one row per GPU, the same launch index, its own GPU and figures
        w.session().add_sample(split_sample(3.0));
        QVERIFY2(w.exports().export_metrics(csv, &why), qPrintable(why));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = f.readAll().trimmed().split('\n');
        f.close();
        QCOMPARE(rows.size(), 5);
        const QList<QByteArray> header = rows[0].split(',');
        const auto value
            = [&](int row, const char* column) { return rows[row].split(',').value(header.indexOf(column)); };
        QVERIFY(header.contains("gpu"));
        QCOMPARE(value(1, "gpu"), QByteArray("0"));
        QCOMPARE(value(3, "gpu"), QByteArray("0"));
        QCOMPARE(value(4, "gpu"), QByteArray("1"));
        QCOMPARE(value(3, "launch"), QByteArray("3"));
        QCOMPARE(value(4, "launch"), QByteArray("3"));
        QCOMPARE(value(4, "gpu_updated_cells"), QByteArray("524288"));
        QCOMPARE(value(3, "duration_ms"), QByteArray("1"));
        QCOMPARE(value(4, "duration_ms"), QByteArray("2"));
        QCOMPARE(value(4, "dram_bytes_per_cell"), QByteArray("8"));
    }
};

QTEST_MAIN(TestMetricsPanel)
#include "tst_metrics_panel.moc"
