// SPDX-License-Identifier: MIT
// The hardware-metrics collector's host side: the metric list, aggregation over kernel ranges, the
// profile CSV, and a GPU-less machine's answer.
#include "app/profile_report.h"
#include "app/run_report.h"
#include "gpu/device.h"
#include "gpu/profiler/collector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

using namespace ss;

TEST(ProfiledMetrics, EveryKernelAndStallMetricOnceEach) {
    const auto names = profiled_metric_names();
    const std::set<std::string> unique(names.begin(), names.end());
    EXPECT_EQ(unique.size(), names.size()) << "duplicate metric names";
    for (const auto& m : kernel_metrics()) EXPECT_TRUE(unique.count(std::string(m.name))) << m.name;
    for (const auto& r : stall_reasons()) EXPECT_TRUE(unique.count(stall_metric_name(r.reason))) << r.reason;
    for (const auto& m : supporting_metrics()) EXPECT_TRUE(unique.count(std::string(m.name))) << m.name;
    EXPECT_EQ(names.size(), kernel_metrics().size() + stall_reasons().size() + supporting_metrics().size());
}

TEST(AggregateRanges, SumsAddAndTheRestIsWeightedByDuration) {
    const std::vector<KernelMetrics> ranges = {
        { { "gpu__time_duration.sum", 1000.0 }, { "dram__bytes_read.sum", 100.0 },
            { "lts__t_sector_hit_rate.pct", 10.0 }, { "dram__bytes_read.sum.per_second", 100.0 / 1000e-9 } },
        { { "gpu__time_duration.sum", 3000.0 }, { "dram__bytes_read.sum", 500.0 },
            { "lts__t_sector_hit_rate.pct", 30.0 }, { "dram__bytes_read.sum.per_second", 500.0 / 3000e-9 } },
    };
    const KernelMetrics m = aggregate_ranges(ranges);
    EXPECT_DOUBLE_EQ(m.at("gpu__time_duration.sum"), 4000.0);
    EXPECT_DOUBLE_EQ(m.at("dram__bytes_read.sum"), 600.0);
    EXPECT_DOUBLE_EQ(m.at("lts__t_sector_hit_rate.pct"), 25.0); // (10*1 + 30*3) / 4
    // a rate averaged by time is the total amount over the total time: 600 B / 4000 ns
    EXPECT_NEAR(m.at("dram__bytes_read.sum.per_second"), 600.0 / 4000e-9, 1.0);
}

TEST(AggregateRanges, PlainMeanWithoutDurationsAndNothingFromNothing) {
    EXPECT_TRUE(aggregate_ranges({}).empty());
    const KernelMetrics m = aggregate_ranges({ { { "sm__warps_active.avg.pct_of_peak_sustained_active", 20.0 } },
        { { "sm__warps_active.avg.pct_of_peak_sustained_active", 60.0 } } });
    EXPECT_DOUBLE_EQ(m.at("sm__warps_active.avg.pct_of_peak_sustained_active"), 40.0);
    const KernelMetrics one = aggregate_ranges({ { { "gpu__time_duration.sum", 5.0 }, { "x.ratio", 2.5 } } });
    EXPECT_DOUBLE_EQ(one.at("x.ratio"), 2.5);
}

TEST(ProfileCsv, SharesTheRunTablesColumnsAndNamesEveryMetric) {
    const CsvRow header = profile_csv_header();
    const CsvRow config = config_csv_header(), run = report_csv_header();
    ASSERT_GT(header.size(), 2 + config.size());
    EXPECT_EQ(header[0], "timestamp");
    EXPECT_EQ(header[1], "device");
    EXPECT_TRUE(std::equal(config.begin(), config.end(), header.begin() + 2));
    // the same names, in the same order, as the run/bench table writes them
    const auto at = std::search(run.begin(), run.end(), config.begin(), config.end());
    EXPECT_NE(at, run.end());
    const auto names = profiled_metric_names();
    EXPECT_TRUE(std::equal(names.begin(), names.end(), header.end() - std::ptrdiff_t(names.size())));
    EXPECT_EQ(std::set<std::string>(header.begin(), header.end()).size(), header.size()) << "duplicate columns";
}

TEST(ProfileCsv, RowPutsEachValueUnderItsColumn) {
    ProfileReport r;
    r.options.config.size = { 1026, 1026, 1 }; // radius 1: 1024 x 1024 updated cells
    r.device = "NVIDIA Test GPU";
    r.resources.registers = 40;
    r.resources.block = { 32, 8, 1 };
    r.launch = 2;
    r.profiled.kernels = 1;
    r.profiled.passes = 7;
    r.profiled.metrics = { { "gpu__time_duration.sum", 2.0e6 }, { "dram__bytes_read.sum", 4194304.0 },
        { "dram__bytes_write.sum", 123456789012.0 } };
    const CsvRow header = profile_csv_header(), row = profile_csv_row(r);
    ASSERT_EQ(row.size(), header.size());
    auto column = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        EXPECT_NE(it, header.end()) << name;
        return it == header.end() ? std::string("?") : row[std::size_t(it - header.begin())];
    };
    EXPECT_EQ(column("device"), "NVIDIA Test GPU");
    EXPECT_EQ(column("nx"), "1026");
    EXPECT_EQ(column("block_x"), "32");
    EXPECT_EQ(column("registers"), "40");
    EXPECT_EQ(column("launch"), "2");
    EXPECT_EQ(column("passes"), "7");
    EXPECT_EQ(column("duration_ms"), "2");
    EXPECT_EQ(column("gcells_per_s"), "0.524288"); // 1024^2 cells in 2 ms
    EXPECT_EQ(column("dram__bytes_read.sum"), "4194304");
    EXPECT_EQ(column("dram__bytes_write.sum"), "123456789012"); // no digits lost
    EXPECT_EQ(column("lts__t_sector_hit_rate.pct"), ""); // not collected: empty
    EXPECT_EQ(column("limiter"), "compute");
}

TEST(ProfileReportText, NamesTheNumbersAndTheVerdict) {
    ProfileReport r;
    r.options.config.size = { 1026, 1026, 1 };
    r.profiled.kernels = 1;
    r.profiled.metrics = { { "gpu__time_duration.sum", 2.0e6 }, { "dram__bytes_read.sum", 4194304.0 },
        { "dram__bytes_write.sum", 4194304.0 }, { stall_metric_name("long_scoreboard"), 3.5 } };
    const std::string text = format_profile(r);
    EXPECT_NE(text.find("4.00 B/cell"), std::string::npos) << text;
    EXPECT_NE(text.find("Long scoreboard 3.50"), std::string::npos) << text;
    EXPECT_NE(text.find("verdict"), std::string::npos) << text;
}

// The GUI refreshes the metrics at >= 2 Hz: every replay pass re-runs the kernel with its memory
// restored, so a metric that costs passes costs refresh rate. CUPTI's host API counts them without a GPU.
TEST(ProfiledMetrics, FitInSixReplayPassesOnTheH100) {
    std::string why;
    const int passes = profiled_metric_passes("GH100", &why);
    if (passes < 0) GTEST_SKIP() << "CUPTI's host API cannot tell here: " << why;
    EXPECT_GE(passes, 1);
    EXPECT_LE(passes, 6);
}

TEST(Collector, WithoutAGpuThereIsNoneAndAReason) {
    if (!query_devices().empty()) GTEST_SKIP() << "a CUDA device is present: the GPU tests cover the collector";
    std::string why;
    EXPECT_EQ(create_metrics_collector(0, &why), nullptr);
    EXPECT_FALSE(why.empty());
}
