// SPDX-License-Identifier: MIT
// The metrics view's host logic: catalogue, unavailable reasons, the limiter verdict and the launch figures.
#include "gpu/profiler/launch_figures.h"
#include "gpu/profiler/metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

using namespace ss;

namespace {
KernelMetrics launch(double ms, double read, double write) {
    return { { "gpu__time_duration.sum", ms * 1e6 }, { "dram__bytes_read.sum", read },
        { "dram__bytes_write.sum", write } };
}
const VerdictInputs kH100 { 3.0e12, 8.0e9 }; // 3 TB/s peak; 1 G cells x 8 ideal bytes
} // namespace

TEST(Metrics, CatalogueNamesAreUniqueAndExplained) {
    std::set<std::string_view> names;
    for (const auto& m : kernel_metrics()) {
        EXPECT_TRUE(names.insert(m.name).second) << m.name;
        EXPECT_FALSE(m.explanation.empty()) << m.name;
        EXPECT_FALSE(m.unit.empty()) << m.name;
    }
    for (const char* needed : { "dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum",
             "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum",
             "sm__warps_active.avg.pct_of_peak_sustained_active", "lts__t_sector_hit_rate.pct" })
        EXPECT_TRUE(names.count(needed)) << needed;
    EXPECT_EQ(stall_metric_name("long_scoreboard"),
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio");
    for (const auto& r : stall_reasons()) EXPECT_FALSE(r.explanation.empty()) << r.reason;
}

TEST(Metrics, UnavailableReasonsSayWhatToDo) {
    const std::string priv = counters_unavailable_reason(35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES");
    EXPECT_NE(priv.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos);
    EXPECT_NE(counters_unavailable_reason(999, "CUPTI_ERROR_SOMETHING").find("CUPTI_ERROR_SOMETHING (999)"),
        std::string::npos);
}

TEST(Verdict, StreamingAtPeakIsDramBound) {
    // 8 GB in 3 ms = 2.67 TB/s, 89 % of 3 TB/s
    const Verdict v = diagnose(launch(3.0, 4e9, 4e9), kH100);
    EXPECT_EQ(v.limiter, Limiter::DramBandwidth);
    EXPECT_NE(v.sentence.find("89%"), std::string::npos) << v.sentence;
    EXPECT_NE(v.sentence.find("1.00x the ideal"), std::string::npos) << v.sentence;
}

TEST(Verdict, SpillsWinOverEverythingElse) {
    KernelMetrics m = launch(3.0, 4e9, 4e9);
    m["l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum"] = 2e9;
    m["l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"] = 2e9;
    const Verdict v = diagnose(m, kH100);
    EXPECT_EQ(v.limiter, Limiter::LocalMemorySpills);
    EXPECT_NE(v.sentence.find("50%"), std::string::npos) << v.sentence;
}

TEST(Verdict, BarrierAndMioStallsPointAtSharedMemory) {
    KernelMetrics m = launch(10.0, 4e9, 4e9); // 27 % of peak
    m[stall_metric_name("barrier")] = 3.0;
    m[stall_metric_name("mio_throttle")] = 2.0;
    m[stall_metric_name("long_scoreboard")] = 1.0;
    m[stall_metric_name("selected")] = 9.0; // issuing is not a stall
    EXPECT_EQ(diagnose(m, kH100).limiter, Limiter::SharedMemory);
}

TEST(Verdict, MemoryWaitsAtLowOccupancyAreLatency) {
    KernelMetrics m = launch(10.0, 4e9, 4e9);
    m[stall_metric_name("long_scoreboard")] = 6.0;
    m[stall_metric_name("wait")] = 1.0;
    m["sm__warps_active.avg.pct_of_peak_sustained_active"] = 25.0;
    const Verdict v = diagnose(m, kH100);
    EXPECT_EQ(v.limiter, Limiter::LatencyOccupancy);
    EXPECT_NE(v.sentence.find("25% achieved occupancy"), std::string::npos) << v.sentence;
}

TEST(Verdict, OtherwiseCompute) {
    KernelMetrics m = launch(10.0, 4e9, 4e9);
    m[stall_metric_name("math_pipe_throttle")] = 5.0;
    m[stall_metric_name("wait")] = 2.0;
    const Verdict v = diagnose(m, kH100);
    EXPECT_EQ(v.limiter, Limiter::Compute);
    EXPECT_NE(v.sentence.find("Math pipe throttle"), std::string::npos) << v.sentence;
    EXPECT_EQ(diagnose({}, kH100).limiter, Limiter::Unknown);
}

namespace {
// A recorded-style profiled launch of 2D R1 base fp32 1024² on the H100 (1022² updated cells, 5.2 µs):
// the field (8 MiB, two buffers) lives in the 50 MiB L2. CUPTI's own L2 .pct of this launch read
// 101.1 %: its hits and lookups came from different replay passes of a kernel far below 20 µs.
KernelMetrics h100_1024_base() {
    KernelMetrics m = launch(0.0052, 0.41e6, 1.13e6);
    m["lts__t_sector_hit_rate.pct"] = 101.1;
    m["lts__t_sectors_lookup_hit.sum"] = 289184.0;
    m["lts__t_sectors_lookup_miss.sum"] = 3912.0;
    m["l1tex__t_sector_hit_rate.pct"] = 49.7;
    m["l1tex__t_sectors_lookup_hit.sum"] = 261120.0;
    m["l1tex__t_sectors_lookup_miss.sum"] = 264192.0;
    m["sm__warps_active.avg.pct_of_peak_sustained_active"] = 71.0;
    return m;
}
const VerdictInputs kH100Resident { 3.0e12, 1044484.0 * 8.0, 1048576.0 * 8.0, 50.0 * (1 << 20) };
} // namespace

TEST(HitRate, FromRawCountsNeverPasses100) {
    const KernelMetrics m = h100_1024_base();
    EXPECT_NEAR(l2_hit_percent(m), 100.0 * 289184.0 / (289184.0 + 3912.0), 1e-9); // 98.67 %, not 101.1
    EXPECT_LE(l2_hit_percent(m), 100.0);
    EXPECT_NEAR(l1_hit_percent(m), 100.0 * 261120.0 / (261120.0 + 264192.0), 1e-9);
}

TEST(HitRate, WithoutRawCountsAnImpossiblePercentageIsNotShown) {
    KernelMetrics m = h100_1024_base();
    m.erase("lts__t_sectors_lookup_hit.sum");
    m.erase("lts__t_sectors_lookup_miss.sum");
    EXPECT_TRUE(std::isnan(l2_hit_percent(m))) << "101.1 % is no share: not shown";
    m["lts__t_sector_hit_rate.pct"] = 62.8;
    EXPECT_DOUBLE_EQ(l2_hit_percent(m), 62.8);
    EXPECT_TRUE(std::isnan(l2_hit_percent({})));
}

TEST(HitRate, SeveralKernelsAreARatioOfSums) {
    // A split step: the boundary kernel hits little, the interior much; their hit counts add up.
    KernelMetrics boundary = launch(0.001, 1e5, 1e5), interior = launch(0.004, 1e5, 1e5);
    boundary["lts__t_sectors_lookup_hit.sum"] = 100.0;
    boundary["lts__t_sectors_lookup_miss.sum"] = 900.0;
    interior["lts__t_sectors_lookup_hit.sum"] = 9000.0;
    interior["lts__t_sectors_lookup_miss.sum"] = 0.0;
    boundary["lts__t_sector_hit_rate.pct"] = 10.0;
    interior["lts__t_sector_hit_rate.pct"] = 100.4; // replay noise
    const KernelMetrics both = aggregate_ranges({ boundary, interior });
    EXPECT_NEAR(l2_hit_percent(both), 100.0 * 9100.0 / 10000.0, 1e-9);
}

TEST(Verdict, AnL2ResidentFieldIsNotDramBound) {
    KernelMetrics m = h100_1024_base();
    m[stall_metric_name("long_scoreboard")] = 6.0;
    m[stall_metric_name("wait")] = 2.0;
    const Verdict v = diagnose(m, kH100Resident);
    EXPECT_TRUE(v.l2_resident);
    EXPECT_EQ(v.sentence.rfind("L2-resident", 0), 0u) << v.sentence;
    EXPECT_NE(v.sentence.find("8.0 MiB field fits in the 50 MiB L2"), std::string::npos) << v.sentence;
    EXPECT_NE(v.sentence.find("DRAM is not the limit"), std::string::npos) << v.sentence;
    EXPECT_EQ(v.limiter, Limiter::LatencyOccupancy);
    // The same launch judged without knowing the L2: no such claim.
    EXPECT_FALSE(diagnose(m, kH100).l2_resident);
    // A field larger than the L2 (8192² fp32, 512 MiB) streaming at 89 % of peak stays DRAM bound.
    VerdictInputs big = kH100Resident;
    big.working_set_bytes = 512.0 * (1 << 20);
    const Verdict streaming = diagnose(launch(3.0, 4e9, 4e9), big);
    EXPECT_EQ(streaming.limiter, Limiter::DramBandwidth);
    EXPECT_FALSE(streaming.l2_resident);
}

TEST(Verdict, SmootherHoldsTheVerdictWhenSamplesHoverAtAThreshold) {
    // Recorded-style samples of one configuration whose long-scoreboard share hovers around 40 %: single
    // launches flip between latency/occupancy and compute; the shown verdict must not.
    const double shares[] = { 0.43, 0.38, 0.41, 0.37, 0.42, 0.39, 0.44, 0.36, 0.41, 0.38 };
    std::set<Limiter> single, shown;
    VerdictSmoother smoother;
    for (double share : shares) {
        KernelMetrics m = h100_1024_base();
        m[stall_metric_name("long_scoreboard")] = 10.0 * share;
        m[stall_metric_name("wait")] = 10.0 * (1.0 - share);
        single.insert(diagnose(m, kH100Resident).limiter);
        shown.insert(smoother.add(m, kH100Resident).limiter);
    }
    EXPECT_EQ(single.size(), 2u) << "the recorded samples do straddle the threshold";
    EXPECT_EQ(shown.size(), 1u);
    EXPECT_EQ(*shown.begin(), Limiter::LatencyOccupancy);
    EXPECT_EQ(smoother.samples(), VerdictSmoother::kWindow);
    // A real change (the stalls move to the math pipe) does come through.
    for (int i = 0; i < VerdictSmoother::kWindow; ++i) {
        KernelMetrics m = h100_1024_base();
        m[stall_metric_name("long_scoreboard")] = 1.0;
        m[stall_metric_name("math_pipe_throttle")] = 9.0;
        smoother.add(m, kH100Resident);
    }
    KernelMetrics m = h100_1024_base();
    m[stall_metric_name("math_pipe_throttle")] = 9.0;
    EXPECT_EQ(smoother.add(m, kH100Resident).limiter, Limiter::Compute);
    smoother.reset();
    EXPECT_EQ(smoother.samples(), 0);
}

// Counters as ncu recorded them for one temporal launch (bench/results/PERFORMANCE_HISTORY.md, "What limits
// 3D": 2D R1 fp32 8568^2, 0.58 GB of DRAM traffic in 0.95 ms). The same counters read as one launch of 4 fused
// steps: the bytes per cell and step are a quarter of the launch's, the rate counts 4 updates per cell, and the
// launch's bytes against its ideal (each cell read and written once) do not change.
TEST(LaunchFigures, AFusedLaunchCountsBytesPerCellAndStep) {
    const KernelMetrics m = launch(0.95, 0.30e9, 0.28e9);
    const std::int64_t cells = std::int64_t(8566) * 8566;
    const LaunchFigures one = derive_launch_figures(m, { cells, 1, 8.0 }, 2968e9);
    const LaunchFigures four = derive_launch_figures(m, { cells, 4, 8.0 }, 2968e9);
    EXPECT_NEAR(one.dram_bytes_per_cell, 0.58e9 / double(cells), 1e-12);
    EXPECT_DOUBLE_EQ(four.dram_bytes_per_cell, one.dram_bytes_per_cell / 4.0);
    EXPECT_DOUBLE_EQ(four.ideal_bytes_per_cell, 2.0);
    EXPECT_DOUBLE_EQ(one.ideal_bytes_per_cell, 8.0);
    EXPECT_EQ(four.steps, 4);
    EXPECT_DOUBLE_EQ(four.gcells_per_second, 4.0 * one.gcells_per_second);
    EXPECT_DOUBLE_EQ(four.dram_vs_ideal, one.dram_vs_ideal);
    EXPECT_DOUBLE_EQ(four.ideal_launch_bytes(), one.ideal_launch_bytes());
    EXPECT_DOUBLE_EQ(four.dram_gbs(), one.dram_gbs()); // the same bytes in the same time
    EXPECT_EQ(four.verdict.limiter, one.verdict.limiter);
    const LaunchFigures none = derive_launch_figures(m, { cells, 0, 8.0 }, 0.0); // a nonsense step count: one
    EXPECT_EQ(none.steps, 1);
    EXPECT_DOUBLE_EQ(none.dram_bytes_per_cell, one.dram_bytes_per_cell);
}
