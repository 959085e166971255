// SPDX-License-Identifier: MIT
// Continuous counters without a GPU: synthetic PM-sampling chunks go through the session's history into
// 50 ms chart points (rates exact, the pre-start sample and other kernels' samples left out, lost samples
// flagged), the panel draws them on its timer and names each figure's source; a device where continuous
// sampling is unavailable falls back to the replayed profile and says why; two GPUs get lines each;
// the replayed detail stays off on 2+ GPUs while continuous counters stay on.
#include "gpu/problem/cuda_support.h"
#include "metrics_test_samples.h"
#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/metric_charts.h"
#include "widgets/metric_sources.h"
#include "widgets/metrics_panel.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace ss;
using namespace ss::gui;

// Turns the session's counters on; a build without them (ASan) skips the test, saying why.
#define TURN_COUNTERS_ON_OR_SKIP(session)                                                                              \
    do {                                                                                                               \
        (session).set_counters(true);                                                                                  \
        if (!(session).counters_unavailable().isEmpty())                                                               \
            QSKIP(qPrintable(QStringLiteral("counters unavailable here: ") + (session).counters_unavailable()));       \
    } while (false)

namespace {

ContinuousChunk announce(std::uint64_t generation = 0) {
    ContinuousChunk c = test::continuous_samples(0, 0.0, 0, {}, generation);
    c.device_name.clear();
    return c;
}

// `n` back-to-back 1 ms samples from `t0` seconds: 64 MB read and 32 MB written per ms (64 and 32 GB/s).
ContinuousChunk samples(int device, double t0, int n, std::uint64_t generation = 0) {
    return test::continuous_samples(device, t0, n, { 64e6, 32e6, 40.0, 0.0, 0.0 }, generation);
}

template <typename W> W* child(QWidget& w, const char* name) {
    W* found = w.findChild<W*>(QLatin1String(name));
    if (!found) qFatal("no child named %s", name);
    return found;
}

} // namespace

class TestContinuous : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void history_bins_samples_into_exact_rates() {
        MetricsHistory h;
        ContinuousChunk first = samples(0, 1.0, 1);
        first.chunk.samples.front().start_ns = 0; // spans the time before sampling started: left out
        h.append_continuous(first);
        h.append_continuous(samples(0, 1.001, 120));
        QCOMPARE(h.continuous_samples(), std::size_t(121));
        const std::vector<ContinuousPoint> points = h.continuous_points_from(0);
        QCOMPARE(points.size(), std::size_t(2)); // 120 ms: two full 50 ms bins, 20 ms still open
        QCOMPARE(points[0].dram_read_gbs, 64.0);
        QCOMPARE(points[0].dram_write_gbs, 32.0);
        QCOMPARE(points[0].dram_pct, 40.0);
        QCOMPARE(points[0].local_load_gbs, 0.0);
        QVERIFY(std::abs(points[1].seconds - 1.101) < 1e-9);
        QVERIFY(!points[0].lost_samples);
        QCOMPARE(h.continuous_points_from(1).size(), std::size_t(1));
        QVERIFY(h.continuous_points_from(2).empty());
        ContinuousChunk lost = samples(0, 1.2, 60);
        lost.chunk.overflow = true;
        h.append_continuous(lost);
        QVERIFY(h.continuous_points_from(2).front().lost_samples);
        // one CSV row per sample, ncu-named columns
        QCOMPARE(h.continuous_csv_rows().size(), std::size_t(181));
    }

    void panel_draws_continuous_points_and_names_the_sources() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        TURN_COUNTERS_ON_OR_SKIP(session);
        session.add_continuous(announce());
        QVERIFY(session.continuous_active());
        QVERIFY(session.continuous_note().contains(QLatin1String("5 counters in one pass")));
        session.add_continuous(samples(0, 1.0, 200));
        auto* dram = child<TimeSeriesChart>(panel, "chart_dram");
        QTRY_COMPARE(dram->points(), 4); // drawn by the panel's timer, not on arrival
        QCOMPARE(dram->series_names().front(), QStringLiteral("read 64"));
        QVERIFY(dram->chart()->title().contains(QLatin1String("40 % of peak")));
        // PM sampling counts the whole GPU: the local chart does not call that traffic the kernel's spills
        const QString local = child<TimeSeriesChart>(panel, "chart_local")->chart()->title();
        QVERIFY2(
            local.contains(QLatin1String("whole GPU")) && !local.contains(QLatin1String("spills")), qPrintable(local));
        const QString sources = child<QLabel>(panel, "metric_sources")->text();
        QVERIFY2(sources.contains(QLatin1String("continuous counters")), qPrintable(sources));
        QVERIFY2(sources.contains(QLatin1String("replayed profile")), qPrintable(sources));
        QVERIFY(!child<QPushButton>(panel, "take_detail")->isHidden());
        // a replayed sample now feeds the summary and stalls, not the continuous charts
        MetricsSample replayed;
        replayed.launch.metrics = { { "dram__bytes_read.sum", 1.0 } };
        session.add_sample(replayed);
        QCOMPARE(dram->points(), 4);
        QVERIFY(child<QLabel>(panel, "metric_sources")->text().contains(QLatin1String("last at")));
        // another kernel's samples are not drawn on this kernel's chart
        session.add_continuous(samples(0, 2.0, 100, 7));
        QTest::qWait(3 * MetricSources::kRefreshMs);
        QCOMPARE(dram->points(), 4);
    }

    void unavailable_continuous_falls_back_to_replayed_profiles_and_says_why() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        TURN_COUNTERS_ON_OR_SKIP(session);
        ContinuousChunk off;
        off.active = false;
        off.note = "Continuous counters are unavailable (Another profiler (Nsight Compute or Nsight Systems) holds the "
                   "GPU's counters). The charts show replayed profiles instead, about four a second.";
        session.add_continuous(off);
        QVERIFY(!session.continuous_active());
        const QString sources = child<QLabel>(panel, "metric_sources")->text();
        QVERIFY2(sources.contains(QLatin1String("Another profiler")), qPrintable(sources));
        QVERIFY(child<QPushButton>(panel, "take_detail")->isHidden());
        MetricsSample replayed;
        replayed.launch.metrics = { { "dram__bytes_read.sum", 1.0 } };
        replayed.figures.dram_read_gbs = 12.0;
        session.add_sample(replayed);
        QCOMPARE(child<TimeSeriesChart>(panel, "chart_dram")->points(), 1); // the replayed profile draws
        QSignalSpy said(&session, &Session::continuous_changed);
        session.add_continuous(off); // the same reason again: said once
        QCOMPARE(said.count(), 0);
    }

    void two_gpus_get_lines_each() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        TURN_COUNTERS_ON_OR_SKIP(session);
        session.add_continuous(announce());
        session.add_continuous(samples(0, 1.0, 100));
        session.add_continuous(samples(1, 1.0, 100));
        auto* dram = child<TimeSeriesChart>(panel, "chart_dram");
        QTRY_COMPARE(dram->series_names().size(), 4);
        QVERIFY(dram->series_names().contains(QStringLiteral("GPU 0 read")));
        QVERIFY(dram->series_names().contains(QStringLiteral("GPU 1 write")));
    }

    // NVLink bytes, where the device samples them, become each GPU's measured link rates: binned like DRAM,
    // shown in the per-GPU table for strips on several GPUs (and not for strips sharing one GPU).
    void nvlink_counters_give_each_gpu_measured_link_rates() {
        Session session { DeviceCatalogue {} };
        MetricsPanel panel(session);
        panel.show();
        TURN_COUNTERS_ON_OR_SKIP(session);
        for (int device : { 0, 1 }) {
            ContinuousChunk c = samples(device, 1.0, 100);
            c.chunk.metrics.push_back("nvlrx__bytes.sum");
            c.chunk.metrics.push_back("nvltx__bytes.sum");
            for (PmSample& s : c.chunk.samples) s.values.insert(s.values.end(), { 5e6 * (device + 1), 2e6 });
            session.add_continuous(c);
        }
        const ContinuousPoint* p = session.history().latest_continuous_point(1, session.active().generation);
        QVERIFY(p);
        QCOMPARE(p->nvlink_rx_gbs, 10.0); // 10 MB per 1 ms sample
        QCOMPARE(p->nvlink_tx_gbs, 2.0);
        QVERIFY(session.history().continuous_points_from(0).front().nvlink_rx_gbs >= 0.0);
        EngineStats stats;
        stats.strips.timed = true;
        for (int i = 0; i < 2; ++i) {
            StripStats s;
            s.device = i, s.first_row = i * 100, s.end_row = (i + 1) * 100, s.updated_cells = 1000;
            stats.strips.strips.push_back(s);
        }
        panel.show_stats(stats);
        auto* table = child<QTableWidget>(panel, "metric_gpus");
        QVERIFY(!table->isColumnHidden(6));
        QVERIFY(table->horizontalHeaderItem(6)->text().contains(QLatin1String("measured")));
        QCOMPARE(table->item(0, 6)->text(), QStringLiteral("5.0 / 2.0"));
        QVERIFY(table->item(1, 6)->text().startsWith(QLatin1String("10")));
        stats.strips.strips[1].device = 0; // both strips on GPU 0 (the testing hook): no link between them
        panel.show_stats(stats);
        QVERIFY(table->isColumnHidden(6));
        MetricsHistory plain; // a device without NVLink counters: no link rates
        plain.append_continuous(samples(0, 1.0, 100));
        QCOMPARE(plain.continuous_points_from(0).front().nvlink_rx_gbs, -1.0);
    }

    // Both kinds of counters run on 2+ GPUs (issue 36: the profiled step drains every GPU first); only a missing
    // CUPTI turns them off.
    void several_gpus_keep_both_kinds_of_counters() {
        StencilConfig c;
        c.placement.backend = Backend::Cuda;
        c.placement.gpus = 2;
        const std::string replay = MetricsSampler::precheck(c);
        QVERIFY(!QString::fromStdString(replay).contains(QLatin1String("2 or more GPUs")));
        QVERIFY(replay.empty() || !cupti_unavailable_reason().empty());
        QVERIFY(MetricsSampler::continuous_precheck(c).empty() || !cupti_unavailable_reason().empty());
        c.placement.backend = Backend::Cpu;
        QVERIFY(!MetricsSampler::continuous_precheck(c).empty());
    }
};

QTEST_MAIN(TestContinuous)
#include "tst_continuous.moc"
