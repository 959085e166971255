// SPDX-License-Identifier: MIT
// Continuous counters without a GPU: the one-pass metric set from CUPTI's host API, the CSV rows and the
// integrated totals of synthetic samples, and the reason given where no GPU can sample.
#include "gpu/problem/device.h"
#include "gpu/profiler/pm_sampler.h"
#include "reports/pm_report.h"
#include "reports/run_options.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ss;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

PmChunk synthetic_chunk() {
    PmChunk c;
    c.device = 1;
    c.metrics
        = { "dram__bytes_read.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes_write.sum" };
    c.samples.push_back({ 1'000'000'000, 1'000'100'000, { 1000.0, 40.0, 10.0 } });
    c.samples.push_back({ 1'000'100'000, 1'000'200'000, { 3000.0, 60.0, 30.0 } });
    return c;
}

} // namespace

// The truth test integrates DRAM bytes: both must be in the one pass, and every chosen set fits
// one pass (each metric was only kept when the set with it still did).
TEST(PmSampling, TheH100SetHasDramReadAndWriteInOnePass) {
    PmMetricSet set;
    std::string why;
    if (!pm_one_pass_metrics("GH100", {}, pm_candidate_metrics(), &set, &why))
        GTEST_SKIP() << "CUPTI's host API cannot tell here: " << why;
    EXPECT_TRUE(contains(set.metrics, "dram__bytes_read.sum"));
    EXPECT_TRUE(contains(set.metrics, "dram__bytes_write.sum"));
    EXPECT_EQ(set.metrics.size() + set.left_out.size(), pm_candidate_metrics().size());
    for (const auto& m : set.metrics) EXPECT_FALSE(contains(set.left_out, m)) << m;
    std::string chosen;
    for (const auto& m : set.metrics) chosen += m + " ";
    RecordProperty("one_pass_metrics", chosen);
    std::cout << "GH100 one-pass PM sampling set: " << chosen << "\n";
}

TEST(PmSampling, AnUnknownChipIsRefusedWithAReason) {
    PmMetricSet set;
    std::string why;
    EXPECT_FALSE(pm_one_pass_metrics("NOT_A_CHIP", {}, pm_candidate_metrics(), &set, &why));
    EXPECT_FALSE(why.empty());
}

TEST(PmSampling, WithoutAGpuThereIsNoSamplerAndAReason) {
    if (query_device_catalogue().has_cuda()) GTEST_SKIP() << "a CUDA device is present: the GPU tests cover it";
    std::string why;
    EXPECT_EQ(create_pm_sampler(0, {}, &why), nullptr);
    EXPECT_FALSE(why.empty());
}

TEST(PmReport, RowsCarryEachMetricInItsNcuNamedColumnAndBlanksForTheRest) {
    const CsvRow header = pm_csv_header();
    const std::vector<CsvRow> rows = pm_csv_rows(synthetic_chunk(), "H100", 1'000'000'000);
    ASSERT_EQ(rows.size(), 2u);
    ASSERT_EQ(rows[1].size(), header.size());
    auto column = [&](const std::string& name) {
        return std::size_t(std::find(header.begin(), header.end(), name) - header.begin());
    };
    EXPECT_EQ(rows[1][column("timestamp")], "0.000200");
    EXPECT_EQ(rows[1][column("device")], "1");
    EXPECT_EQ(rows[1][column("sample_start_ns")], "1000100000");
    EXPECT_EQ(rows[1][column("dram__bytes_read.sum")], "3000");
    EXPECT_EQ(rows[1][column("dram__bytes_write.sum")], "30");
    EXPECT_EQ(rows[1][column("dram__throughput.avg.pct_of_peak_sustained_elapsed")], "60");
    EXPECT_EQ(rows[1][column("gr__cycles_elapsed.max")], ""); // not sampled: blank, not 0
}

TEST(PmReport, TotalsSumTheSumMetricsOnly) {
    PmTotals t;
    add_to_totals(synthetic_chunk(), &t);
    add_to_totals(synthetic_chunk(), &t);
    EXPECT_EQ(t.samples, 4u);
    EXPECT_DOUBLE_EQ(t.sum("dram__bytes_read.sum"), 8000.0);
    EXPECT_DOUBLE_EQ(t.sum("dram__bytes_write.sum"), 80.0);
    EXPECT_DOUBLE_EQ(t.sum("dram__throughput.avg.pct_of_peak_sustained_elapsed"), 0.0); // a percentage
    EXPECT_NEAR(t.seconds, 4e-4, 1e-12);
    EXPECT_FALSE(t.overflow);
}

TEST(PmOptions, ContinuousTakesSecondsAndRefusesTheRest) {
    RunOptions o;
    ASSERT_TRUE(parse_run_options({ "--continuous", "2.5" }, o));
    EXPECT_DOUBLE_EQ(o.continuous_seconds, 2.5);
    for (const char* bad : { "0", "-1", "abc", "1e9", "2s", "" }) {
        RunOptions r;
        const Status s = parse_run_options({ "--continuous", bad }, r);
        EXPECT_FALSE(s) << bad;
        EXPECT_NE(s.reason.find("--continuous"), std::string::npos) << s.reason;
    }
}
