// SPDX-License-Identifier: MIT
// The metrics view's host logic: catalogue, unavailable reasons, and the limiter verdict.
#include "gpu/profiler/metrics.h"

#include <gtest/gtest.h>

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
