// SPDX-License-Identifier: MIT
// The hardware-metrics collector's host side: the metric list, aggregation over kernel ranges and over
// the GPUs of a split run, nested profiling with fake collectors, the profile CSV and text (one GPU and
// per GPU), and a GPU-less machine's answer.
#include "gpu/problem/device.h"
#include "gpu/profiler/collector.h"
#include "reports/profile_report.h"
#include "reports/run_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

using namespace ss;

namespace {

// The value of a named column of a CSV row ("?" and a failure when the header lacks it).
std::string csv_column(const CsvRow& header, const CsvRow& row, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return it == header.end() ? std::string("?") : row[std::size_t(it - header.begin())];
}

// Logs when its window opens and closes and returns fixed counters, as a CUPTI collector would.
class FakeCollector final : public MetricsCollector {
public:
    FakeCollector(int device, std::vector<std::string>* log, KernelMetrics counters, std::string failure = {})
        : m_device(device)
        , m_log(log)
        , m_counters(std::move(counters))
        , m_failure(std::move(failure)) { }
    bool profile(const std::function<void()>& work, ProfiledLaunch* out, std::string* why) override {
        m_log->push_back("open " + std::to_string(m_device));
        try {
            work();
        } catch (const std::exception& e) {
            m_log->push_back("close " + std::to_string(m_device));
            *why = std::string("the profiled work failed: ") + e.what();
            return false;
        }
        m_log->push_back("close " + std::to_string(m_device));
        if (!m_failure.empty()) {
            *why = m_failure;
            return false;
        }
        out->metrics = m_counters;
        out->kernels = 1;
        out->passes = 6 + m_device;
        out->wall_ms = 10.0 * (m_device + 1);
        return true;
    }
    int device() const override { return m_device; }

private:
    int m_device;
    std::vector<std::string>* m_log;
    KernelMetrics m_counters;
    std::string m_failure;
};

StencilConfig two_gpus_1026() { // radius 1: 1024 x 1024 updated cells, 512 rows per GPU
    StencilConfig c;
    c.problem.size = { 1026, 1026, 1 };
    c.placement.gpus = 2;
    return c;
}

} // namespace

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
    r.options.config.problem.size = { 1026, 1026, 1 }; // radius 1: 1024 x 1024 updated cells
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
    auto column = [&](const std::string& name) { return csv_column(header, row, name); };
    EXPECT_EQ(column("device"), "NVIDIA Test GPU");
    EXPECT_EQ(column("nx"), "1026");
    EXPECT_EQ(column("block_x"), "32");
    EXPECT_EQ(column("registers"), "40");
    EXPECT_EQ(column("stencil_name"), "star"); // as the run/bench table names it
    EXPECT_EQ(column("stencil_points"), "4"); // jacobi 2D R1: the centre weighs nothing
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
    r.options.config.problem.size = { 1026, 1026, 1 };
    r.profiled.kernels = 1;
    r.profiled.metrics = { { "gpu__time_duration.sum", 2.0e6 }, { "dram__bytes_read.sum", 4194304.0 },
        { "dram__bytes_write.sum", 4194304.0 }, { stall_metric_name("long_scoreboard"), 3.5 } };
    const std::string text = format_profile(r);
    EXPECT_NE(text.find("4.00 B/cell"), std::string::npos) << text;
    EXPECT_NE(text.find("Long scoreboard 3.50"), std::string::npos) << text;
    EXPECT_NE(text.find("verdict"), std::string::npos) << text;
}

// A temporal launch of depth 4 advances 4 steps: the report and its CSV row give bytes per cell and step.
TEST(ProfileReportText, AFusedLaunchShowsBytesPerCellAndStep) {
    ProfileReport r;
    r.options.config.problem.size = { 1026, 1026, 1 }; // 1024^2 updated cells
    r.options.config.policy.variant = Variant::Temporal, r.options.config.policy.depth = 4;
    r.profiled.kernels = 1;
    r.profiled.metrics = { { "gpu__time_duration.sum", 2.0e6 }, { "dram__bytes_read.sum", 4194304.0 },
        { "dram__bytes_write.sum", 4194304.0 } };
    const std::string text = format_profile(r);
    EXPECT_NE(text.find("one launch of 4 steps"), std::string::npos) << text;
    EXPECT_NE(text.find("read 4.19 MB (1.00 B/cell, ideal 1.00)"), std::string::npos) << text;
    EXPECT_NE(text.find("1.00x the ideal bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("2.10 GCells/s"), std::string::npos) << text; // 4 x 1024^2 updates in 2 ms
    const CsvRow header = profile_csv_header(), row = profile_csv_row(r);
    ASSERT_EQ(row.size(), header.size());
    EXPECT_EQ(csv_column(header, row, "dram_bytes_per_cell"), "2"); // 8 B/cell per launch over 4 steps
    EXPECT_EQ(csv_column(header, row, "ideal_bytes_per_cell"), "2");
    EXPECT_EQ(csv_column(header, row, "gcells_per_s"), "2.09715");
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
    if (query_device_catalogue().has_cuda())
        GTEST_SKIP() << "a CUDA device is present: the GPU tests cover the collector";
    std::string why;
    EXPECT_EQ(create_metrics_collector(0, &why), nullptr);
    EXPECT_FALSE(why.empty());
}

// The first collector's window encloses the second's, the work runs once inside both, and each GPU gets
// its own collector's counters.
TEST(ProfileDevices, NestsOneWindowPerGpuAroundOneRunOfTheWork) {
    std::vector<std::string> log;
    FakeCollector gpu0(0, &log, { { "dram__bytes_write.sum", 100.0 } });
    FakeCollector gpu1(1, &log, { { "dram__bytes_write.sum", 300.0 } });
    std::vector<ProfiledLaunch> per_gpu;
    std::string why;
    ASSERT_TRUE(profile_devices(
        { &gpu0, &gpu1 }, [&] { log.push_back("work"); }, &per_gpu, &why))
        << why;
    EXPECT_EQ(log, (std::vector<std::string> { "open 0", "open 1", "work", "close 1", "close 0" }));
    ASSERT_EQ(per_gpu.size(), 2u);
    EXPECT_DOUBLE_EQ(per_gpu[0].metrics.at("dram__bytes_write.sum"), 100.0);
    EXPECT_DOUBLE_EQ(per_gpu[1].metrics.at("dram__bytes_write.sum"), 300.0);
    EXPECT_EQ(per_gpu[1].passes, 7);
}

// The innermost failure is the cause: the outer windows only saw its consequences.
TEST(ProfileDevices, NamesTheGpuThatFailedAndTheWorksOwnError) {
    std::vector<std::string> log;
    FakeCollector gpu0(0, &log, {}), gpu1(1, &log, {}, "counters busy");
    std::vector<ProfiledLaunch> per_gpu;
    std::string why;
    EXPECT_FALSE(profile_devices(
        { &gpu0, &gpu1 }, [] {}, &per_gpu, &why));
    EXPECT_EQ(why, "GPU 1: counters busy");
    EXPECT_EQ(log.back(), "close 0") << "every window is closed";

    why.clear();
    EXPECT_FALSE(profile_devices(
        { &gpu0 }, [] { throw std::runtime_error("step failed"); }, &per_gpu, &why));
    EXPECT_NE(why.find("step failed"), std::string::npos) << why;
    EXPECT_FALSE(profile_devices(
        { &gpu0, nullptr }, [] {}, &per_gpu, &why));
    EXPECT_FALSE(why.empty());
}

// GPUs step concurrently: bytes add up over the slowest GPU's time, ratios weigh each GPU's time.
TEST(CombineDevices, BytesAddOverTheSlowestDurationAndRatiosAreTimeWeighted) {
    ProfiledLaunch fast, slow;
    fast.metrics = { { "gpu__time_duration.sum", 1000.0 }, { "dram__bytes_read.sum", 100.0 },
        { "dram__bytes_read.sum.per_second", 100.0 / 1000e-9 }, { stall_metric_name("barrier"), 10.0 } };
    slow.metrics = { { "gpu__time_duration.sum", 3000.0 }, { "dram__bytes_read.sum", 300.0 },
        { "dram__bytes_read.sum.per_second", 300.0 / 3000e-9 }, { stall_metric_name("barrier"), 30.0 } };
    fast.kernels = 3, slow.kernels = 3, fast.passes = 6, slow.passes = 7, fast.wall_ms = 50.0, slow.wall_ms = 40.0;
    const ProfiledLaunch all = combine_devices({ fast, slow });
    EXPECT_DOUBLE_EQ(all.metrics.at("gpu__time_duration.sum"), 3000.0);
    EXPECT_DOUBLE_EQ(all.metrics.at("dram__bytes_read.sum"), 400.0);
    EXPECT_NEAR(all.metrics.at("dram__bytes_read.sum.per_second"), 400.0 / 3000e-9, 1.0);
    EXPECT_DOUBLE_EQ(all.metrics.at(stall_metric_name("barrier")), 25.0); // (10 * 1 + 30 * 3) / 4
    EXPECT_EQ(all.kernels, 6);
    EXPECT_EQ(all.passes, 7);
    EXPECT_DOUBLE_EQ(all.wall_ms, 50.0);
    const ProfiledLaunch one = combine_devices({ fast });
    EXPECT_EQ(one.metrics, fast.metrics) << "one GPU's launch is its own whole run";
}

TEST(TopStall, TheLargestReasonOtherThanIssuingWithItsShare) {
    const TopStall top = top_stall({ { stall_metric_name("selected"), 9.0 }, { stall_metric_name("barrier"), 3.0 },
        { stall_metric_name("long_scoreboard"), 1.0 } });
    ASSERT_NE(top.reason, nullptr);
    EXPECT_EQ(top.reason->reason, "barrier");
    EXPECT_DOUBLE_EQ(top.ratio, 3.0);
    EXPECT_DOUBLE_EQ(top.share, 0.75);
    EXPECT_EQ(top_stall({ { "gpu__time_duration.sum", 1.0 } }).reason, nullptr);
}

// A split run writes one row per GPU: its device, strips and cells, and figures over its own rows.
TEST(ProfileCsv, PerGpuRowsDescribeTheirOwnRows) {
    const StencilConfig c = two_gpus_1026();
    const std::vector<DeviceShare> shares = device_shares(c);
    ASSERT_EQ(shares.size(), 2u);
    ProfileReport r;
    r.options.config = c;
    r.device = "NVIDIA Test GPU";
    r.gpu = shares[1];
    r.profiled.metrics = { { "gpu__time_duration.sum", 1.0e6 }, { "dram__bytes_read.sum", 2097152.0 },
        { "dram__bytes_write.sum", 2097152.0 } };
    const CsvRow header = profile_csv_header(), row = profile_csv_row(r);
    ASSERT_EQ(row.size(), header.size());
    auto column = [&](const std::string& name) { return csv_column(header, row, name); };
    EXPECT_EQ(column("gpu"), "1");
    EXPECT_EQ(column("gpu_strips"), "1");
    EXPECT_EQ(column("gpu_updated_cells"), "524288"); // 512 rows of 1024 cells
    EXPECT_EQ(column("gcells_per_s"), "0.524288"); // its cells in 1 ms
    EXPECT_EQ(column("dram_bytes_per_cell"), "8");
    EXPECT_EQ(column("gpus"), "2");

    ProfileReport one; // a single GPU's row keeps the whole domain and names its device
    one.options.config.problem.size = { 1026, 1026, 1 };
    one.options.config.placement.device = 3;
    one.profiled.metrics = r.profiled.metrics;
    const CsvRow single = profile_csv_row(one);
    const auto at = [&](const std::string& name) {
        return single[std::size_t(std::find(header.begin(), header.end(), name) - header.begin())];
    };
    EXPECT_EQ(at("gpu"), "3");
    EXPECT_EQ(at("gpu_updated_cells"), "1048576");
    EXPECT_EQ(at("dram_bytes_per_cell"), "4");
}

TEST(ProfileReportText, SplitRunNamesEachGpuAndSumsTheWholeRun) {
    const StencilConfig c = two_gpus_1026();
    std::vector<ProfileReport> reports;
    for (const DeviceShare& share : device_shares(c)) {
        ProfileReport& r = reports.emplace_back();
        r.options.config = c;
        r.device = "NVIDIA Test GPU";
        r.gpu = share;
        r.verdict = { 1000e9, double(share.updated_cells) * 8.0 };
        r.profiled.kernels = 3;
        r.profiled.metrics = { { "gpu__time_duration.sum", share.device == 0 ? 1.0e6 : 2.0e6 },
            { "dram__bytes_read.sum", 2097152.0 }, { "dram__bytes_write.sum", 2097152.0 } };
    }
    const std::string second = format_profile(reports[1]);
    EXPECT_NE(second.find("on GPU 1 (NVIDIA Test GPU, rows 513-1025 along y)"), std::string::npos) << second;
    EXPECT_NE(second.find("4.00 B/cell"), std::string::npos) << second;
    EXPECT_NE(second.find("1.00x the ideal bytes"), std::string::npos) << second;
    const std::string all = format_profile_all_gpus(reports);
    EXPECT_NE(all.find("all 2 GPUs  slowest 2.0000 ms"), std::string::npos) << all;
    EXPECT_NE(all.find("1.00x the ideal bytes"), std::string::npos) << all;
    EXPECT_NE(all.find("(2000 GB/s)"), std::string::npos) << all; // two rooflines together
}
