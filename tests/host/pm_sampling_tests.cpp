// SPDX-License-Identifier: MIT
// Continuous counters without a GPU: the one-pass metric set from CUPTI's host API, the CSV rows and the
// integrated totals of synthetic samples, and the reason given where no GPU can sample.
#include "app/cli/continuous_rows.h"
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

// `count` consecutive 100 us samples of `device` from `start_ns`, with DRAM bytes that number them.
PmChunk samples_of(int device, std::uint64_t start_ns, int count) {
    PmChunk c;
    c.device = device;
    c.metrics = { "dram__bytes_read.sum" };
    for (int i = 0; i < count; ++i)
        c.samples.push_back({ start_ns + std::uint64_t(i) * 100'000, start_ns + std::uint64_t(i + 1) * 100'000,
            { double(device * 1000 + i) } });
    return c;
}

// The rows as `profile --continuous` wrote them at the end before they were streamed: every chunk in the
// order it arrived, timed from the earliest sample's start.
std::vector<CsvRow> rows_written_at_the_end(const std::vector<PmChunk>& chunks) {
    std::uint64_t origin = 0;
    for (const PmChunk& c : chunks)
        if (!c.samples.empty() && (origin == 0 || c.samples.front().start_ns < origin))
            origin = c.samples.front().start_ns;
    std::vector<CsvRow> rows;
    for (const PmChunk& c : chunks)
        for (CsvRow& row : pm_csv_rows(c, c.device == 0 ? "GPU A" : "GPU B", origin)) rows.push_back(row);
    return rows;
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

// Streamed rows (issue 39): GPU 1 began sampling before GPU 0 but hands its first chunk over later. Nothing
// is written until both have sampled; then the rows that waited come out timed from GPU 1's first sample,
// and every later chunk's rows at once. What was written at any moment is a prefix of the rows written at
// the end, and all of it together is exactly those rows.
TEST(ContinuousRows, StreamedRowsEqualTheRowsWrittenAtTheEnd) {
    const std::vector<PmChunk> chunks
        = { samples_of(0, 2'000'000'000, 3), samples_of(0, 2'000'300'000, 2), samples_of(1, 1'999'950'000, 4),
              PmChunk { 1, {}, {}, false }, samples_of(0, 2'000'500'000, 2), samples_of(1, 2'000'350'000, 1) };
    ContinuousRows stream({ { 0, "GPU A" }, { 1, "GPU B" } });
    std::vector<CsvRow> streamed;
    std::vector<std::size_t> ready_after;
    for (const PmChunk& chunk : chunks) {
        for (CsvRow& row : stream.add(chunk)) streamed.push_back(row);
        ready_after.push_back(streamed.size());
    }
    EXPECT_EQ(ready_after, (std::vector<std::size_t> { 0, 0, 9, 9, 11, 12 }));
    ASSERT_TRUE(stream.origin_ns());
    EXPECT_EQ(*stream.origin_ns(), 1'999'950'000u);
    EXPECT_TRUE(stream.finish().empty());
    EXPECT_EQ(streamed, rows_written_at_the_end(chunks));
    EXPECT_EQ(streamed.front().front(), "0.000150"); // GPU 0's first sample ends 150 us after GPU 1's began
    EXPECT_EQ(streamed[2][2], "GPU A");
    EXPECT_EQ(streamed[5][2], "GPU B");
}

// A GPU that hands over no sample before sampling ends does not hold the others' rows back then.
TEST(ContinuousRows, FinishReleasesWhatWaitedForAGpuThatNeverSampled) {
    ContinuousRows stream({ { 0, "GPU A" }, { 1, "GPU B" } });
    const std::vector<PmChunk> chunks = { samples_of(0, 5'000'000'000, 2), samples_of(0, 5'000'200'000, 1) };
    for (const PmChunk& chunk : chunks) EXPECT_TRUE(stream.add(chunk).empty());
    EXPECT_FALSE(stream.origin_ns());
    EXPECT_EQ(stream.finish(), rows_written_at_the_end(chunks));
    EXPECT_TRUE(stream.finish().empty()); // written once
    ContinuousRows nothing({ { 0, "GPU A" } });
    EXPECT_TRUE(nothing.finish().empty());
}

// One GPU: its first chunk fixes the origin, and its rows are ready at once.
TEST(ContinuousRows, OneGpuWritesEachChunkAsItArrives) {
    ContinuousRows stream({ { 3, "GPU A" } });
    const std::vector<CsvRow> rows = stream.add(samples_of(3, 7'000'000'000, 2));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][0], "0.000100");
    EXPECT_EQ(rows[1][0], "0.000200");
    EXPECT_EQ(stream.add(samples_of(3, 7'000'200'000, 1)).at(0).at(0), "0.000300");
}
