// SPDX-License-Identifier: MIT
// The metrics panel on a split run, without a GPU: synthetic per-GPU counters go through the sampler's
// derivation into the per-GPU table, one chart line pair per GPU and the stall chart's GPU selector.
#include "metrics_test_samples.h"
#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/metric_charts.h"
#include "widgets/metrics_panel.h"

#include <QComboBox>
#include <QLabel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

class TestMetricsPerGpu : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

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
};

QTEST_MAIN(TestMetricsPerGpu)
#include "tst_metrics_per_gpu.moc"
