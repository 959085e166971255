// SPDX-License-Identifier: MIT
// The metrics panel without a GPU: synthetic profiled launches reach the summary, the charts and the
// verdict; the stall chart sorts and explains; baselines show deltas; the CPU backend says why there
// are no counters; chart exports write PNGs and refuse unwritable paths. Split runs: synthetic per-GPU
// counters go through the sampler's derivation into the per-GPU table, one chart line pair per GPU, the
// stall chart's GPU selector and one CSV row per GPU.
#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/main_window.h"
#include "widgets/metric_charts.h"
#include "widgets/metrics_panel.h"
#include "widgets/window_exports.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

MetricsSample synthetic(double seconds, double long_scoreboard, double barrier) {
    MetricsSample s;
    s.seconds = seconds;
    s.settings.config.problem.size = { 4096, 4096, 1 };
    s.device_name = "test GPU";
    s.launch.passes = 7;
    s.launch.kernels = 1;
    s.launch.wall_ms = 12.0;
    s.launch.metrics = { { "gpu__time_duration.sum", 1.0e6 }, { "dram__bytes_read.sum", 64.0e6 },
        { "dram__bytes_write.sum", 64.0e6 }, { "lts__t_sector_hit_rate.pct", 42.5 },
        { stall_metric_name("long_scoreboard"), long_scoreboard }, { stall_metric_name("barrier"), barrier },
        { stall_metric_name("wait"), 0.5 } };
    s.figures.duration_ms = 1.0;
    s.figures.gcells_per_second = 16.7;
    s.figures.dram_read_gbs = 64.0;
    s.figures.dram_write_gbs = 64.0;
    s.figures.dram_peak_gbs = 3000.0;
    s.figures.verdict = { Limiter::LatencyOccupancy, "latency/occupancy: test" };
    s.figures.l2_hit_pct = l2_hit_percent(s.launch.metrics);
    s.figures.l1_hit_pct = l1_hit_percent(s.launch.metrics);
    return s;
}

// A 1026 x 1026 radius-1 run split over GPUs 0 and 1 (512 rows of 1024 cells each, 4 B per cell each way):
// GPU 0 moves its ideal bytes in 1 ms and stalls on memory, GPU 1 in 2 ms and stalls at barriers.
// With `hook`, both strips run on GPU 0 (the testing hook) and one GPU's counters cover them.
MetricsSample split_sample(double seconds, bool hook = false) {
    MetricsSample s;
    s.seconds = seconds;
    StencilConfig& c = s.settings.config;
    c.problem.size = { 1026, 1026, 1 };
    c.placement.gpus = hook ? 1 : 2;
    c.placement.strips_per_device = hook ? 2 : 1;
    s.device_name = "test GPU";
    std::vector<MetricsSampler::GpuCounters> gpus;
    for (const DeviceShare& share : device_shares(c)) {
        MetricsSampler::GpuCounters& g = gpus.emplace_back();
        g.share = share;
        g.device_name = "test GPU";
        g.peak_bytes_per_s = 10e9;
        const bool first = share.device == 0;
        const double bytes = 4.0 * double(share.updated_cells);
        g.launch.kernels = 3;
        g.launch.passes = 6;
        g.launch.metrics = { { "gpu__time_duration.sum", first ? 1.0e6 : 2.0e6 }, { "dram__bytes_read.sum", bytes },
            { "dram__bytes_write.sum", bytes }, { "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", 0.0 },
            { stall_metric_name("long_scoreboard"), first ? 4.0 : 1.0 },
            { stall_metric_name("barrier"), first ? 1.0 : 3.0 } };
    }
    MetricsSampler::derive(c, gpus, s);
    return s;
}

EngineStats strip_stats(const std::vector<int>& devices) {
    EngineStats stats;
    stats.ms_per_step = 1.0;
    stats.strips.timed = true;
    stats.strips.overlap = true;
    const int n = int(devices.size());
    for (int i = 0; i < n; ++i) {
        StripStats s;
        s.device = devices[std::size_t(i)], s.first_row = i * 513, s.end_row = (i + 1) * 513;
        s.updated_cells = 524288, s.compute_ms = 0.5, s.exchange_ms = 0.01, s.halo_bytes = 4096;
        const bool same = n > 1 && devices.front() == devices.back();
        const HaloPath path = same ? HaloPath::SameDevice : HaloPath::PeerToPeer;
        s.below = i > 0 ? path : HaloPath::None, s.above = i + 1 < n ? path : HaloPath::None;
        stats.strips.strips.push_back(s);
    }
    return stats;
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

    void per_gpu_table_for_strips() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.show();
        EngineStats one;
        one.ms_per_step = 1.0;
        panel.show_stats(one);
        auto* table = child<QTableWidget>(panel, "metric_gpus");
        QVERIFY(!table->isVisible()); // one GPU: no table
        panel.show_stats(strip_stats({ 0, 1 }));
        QVERIFY(table->isVisible());
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("513–1025"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("0.500 ms"));
        QVERIFY(table->isColumnHidden(7)); // no counters yet: no counter columns
        QVERIFY(table->isColumnHidden(5)); // copies: no remote reads
        QLabel* halo = child<QLabel>(panel, "metric_halo");
        QVERIFY(halo->text().contains(QLatin1String("peer-to-peer")));
        QVERIFY(halo->text().contains(QLatin1String("overlap on")));
    }

    // Remote loads: each strip's bytes read from its neighbours, labelled as computed, and nothing copied.
    void per_gpu_table_shows_computed_remote_reads() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.show();
        EngineStats stats = strip_stats({ 0, 0, 0 });
        stats.strips.overlap = false;
        for (StripStats& s : stats.strips.strips) {
            s.halo_bytes = 0;
            s.remote_bytes = (s.below != HaloPath::None) * 4096 + (s.above != HaloPath::None) * 4096;
            for (HaloPath* p : { &s.below, &s.above })
                if (*p != HaloPath::None) *p = HaloPath::Remote;
        }
        panel.show_stats(stats);
        auto* table = child<QTableWidget>(panel, "metric_gpus");
        QVERIFY(!table->isColumnHidden(5));
        QVERIFY(table->horizontalHeaderItem(5)->text().contains(QLatin1String("computed")));
        QCOMPARE(table->item(0, 5)->text(), QStringLiteral("4.0 KiB"));
        QCOMPARE(table->item(1, 5)->text(), QStringLiteral("8.0 KiB"));
        QVERIFY(table->item(1, 5)->toolTip().contains(QLatin1String("not measured")));
        const QString halo = child<QLabel>(panel, "metric_halo")->text();
        QVERIFY2(halo.contains(QLatin1String("16.0 KiB/step")) && halo.contains(QLatin1String("computed")),
            qPrintable(halo));
    }

    // The sampler's derivation: each GPU's figures over its own rows and time, the whole run's over the
    // slowest GPU's time, stall ratios weighted by each GPU's time.
    void split_sample_has_each_gpu_and_the_whole_run() {
        const MetricsSample s = split_sample(1.0);
        QCOMPARE(s.gpus.size(), std::size_t(2));
        const GpuMetricsSample &g0 = s.gpus[0], &g1 = s.gpus[1];
        QCOMPARE(g1.share.device, 1);
        QCOMPARE(g0.share.updated_cells, std::int64_t(524288));
        QCOMPARE(g0.figures.duration_ms, 1.0);
        QCOMPARE(g1.figures.duration_ms, 2.0);
        QVERIFY(qFuzzyCompare(g0.figures.dram_write_gbs, 4.0 * 524288 / 1e-3 / 1e9));
        QVERIFY(qFuzzyCompare(g1.figures.dram_write_gbs, g0.figures.dram_write_gbs / 2));
        QCOMPARE(g0.figures.dram_bytes_per_cell, 8.0);
        QCOMPARE(g0.figures.dram_peak_gbs, 10.0);
        QCOMPARE(s.figures.duration_ms, 2.0); // the slowest GPU
        QVERIFY(qFuzzyCompare(s.figures.dram_write_gbs, 2 * g1.figures.dram_write_gbs)); // all bytes over that time
        QCOMPARE(s.figures.dram_bytes_per_cell, 8.0);
        QCOMPARE(s.figures.dram_peak_gbs, 20.0); // both rooflines
        QCOMPARE(s.launch.kernels, 6);
        QCOMPARE(s.launch.metrics.at(stall_metric_name("long_scoreboard")), 2.0); // (4 * 1 + 1 * 2) / 3
        QVERIFY(g0.figures.verdict.sentence != g1.figures.verdict.sentence);
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
        QCOMPARE(child<QLabel>(panel, "sum_bytes_per_cell")->text(), QStringLiteral("2.00 (ideal 2)"));
        QVERIFY(child<QLabel>(panel, "sum_gcells")->text().startsWith(QLatin1String("4.2"))); // 4 x 1024^2 in 1 ms
    }

    void per_gpu_table_gains_counter_columns() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.show();
        panel.show_stats(strip_stats({ 0, 1 }));
        session.add_sample(split_sample(1.0));
        auto* table = child<QTableWidget>(panel, "metric_gpus");
        for (int column = 7; column < 10; ++column) {
            QVERIFY(!table->isColumnHidden(column));
            QVERIFY(!table->horizontalHeaderItem(column)->toolTip().isEmpty());
        }
        QCOMPARE(table->horizontalHeaderItem(7)->text(), QStringLiteral("DRAM R/W GB/s"));
        QCOMPARE(table->item(0, 7)->text(), QStringLiteral("2.1 / 2.1")); // 2.1 MB each way in 1 ms
        QCOMPARE(table->item(1, 7)->text(), QStringLiteral("1.0 / 1.0")); // the same bytes in 2 ms
        QVERIFY(table->item(0, 9)->text().startsWith(QLatin1String("Long scoreboard 4.00")));
        QVERIFY(table->item(1, 9)->text().startsWith(QLatin1String("Barrier 3.00")));
        QVERIFY(table->item(1, 7)->toolTip().contains(QLatin1String("GPU 1")));
        QVERIFY(child<QLabel>(panel, "metric_note")->text().contains(QLatin1String("2 GPUs")));
        panel.new_configuration(); // the next kernel's counters are not these
        QVERIFY(table->isColumnHidden(7));
    }

    void strips_sharing_a_gpu_share_its_counters() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.show();
        panel.show_stats(strip_stats({ 0, 0 }));
        const MetricsSample s = split_sample(1.0, true);
        QCOMPARE(s.gpus.size(), std::size_t(1));
        QCOMPARE(s.gpus[0].share.strips, 2);
        session.add_sample(s);
        auto* table = child<QTableWidget>(panel, "metric_gpus");
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->rowSpan(0, 7), 2); // one cell covers both strips
        QVERIFY(table->item(0, 7)->toolTip().contains(QLatin1String("2 strips are counted together")));
        QVERIFY(child<QLabel>(panel, "metric_halo")->text().contains(QLatin1String("cover them together")));
        QVERIFY(child<QLabel>(panel, "metric_note")->text().contains(QLatin1String("counted together")));
        QVERIFY(child<QComboBox>(panel, "stall_gpu")->isHidden()); // one GPU: nothing to choose
        QCOMPARE(child<TimeSeriesChart>(panel, "chart_dram")->series_names().size(), 2);
    }

    void split_charts_draw_a_line_pair_per_gpu() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(split_sample(1.0));
        session.add_sample(split_sample(2.0));
        auto* dram = child<TimeSeriesChart>(panel, "chart_dram");
        const QStringList lines = dram->series_names();
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[3].startsWith(QLatin1String("GPU 1 write")));
        QCOMPARE(dram->points(), 2);
        QCOMPARE(child<TimeSeriesChart>(panel, "chart_local")->series_names().size(), 4);
        session.add_sample(synthetic(3.0, 3.0, 1.0)); // back to one GPU: read and write again
        QCOMPARE(dram->series_names().size(), 2);
        QCOMPARE(dram->points(), 1);
    }

    void stall_chart_shows_the_chosen_gpu() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        session.add_sample(split_sample(1.0));
        auto* gpu = child<QComboBox>(panel, "stall_gpu");
        auto* stalls = child<StallChart>(panel, "chart_stalls");
        QVERIFY(!gpu->isHidden());
        QCOMPARE(gpu->count(), 3);
        // all GPUs: long scoreboard (4*1 + 1*2)/3 = 2.0 is below barrier (1*1 + 3*2)/3 = 2.33
        QCOMPARE(stalls->categories().last(), QStringLiteral("Barrier"));
        gpu->setCurrentIndex(gpu->findData(0));
        QCOMPARE(stalls->categories().last(), QStringLiteral("Long scoreboard"));
        QVERIFY(stalls->chart()->title().contains(QLatin1String("GPU 0")));
        session.add_sample(split_sample(2.0)); // the choice survives the next sample
        QCOMPARE(gpu->currentData().toInt(), 0);
        QCOMPARE(stalls->categories().last(), QStringLiteral("Long scoreboard"));
        gpu->setCurrentIndex(gpu->findData(1));
        QCOMPARE(stalls->categories().last(), QStringLiteral("Barrier"));
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
