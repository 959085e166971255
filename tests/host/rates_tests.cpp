// SPDX-License-Identifier: MIT
// One derivation of every rate and share (gpu/problem/rates.h), the verdict reading the figures' capped DRAM
// share, and the one copy roofline both programs profile against (bandwidth.h, profile_procedure.h).
#include "gpu/backends/bandwidth.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/rates.h"
#include "gpu/profiler/launch_figures.h"
#include "gpu/profiler/profile_procedure.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ss;

TEST(Rates, CellUpdatesAndBytesPerSecond) {
    EXPECT_DOUBLE_EQ(gcells_per_second(1e9, 1, 1000.0), 1.0); // 1e9 cells in 1 s
    EXPECT_DOUBLE_EQ(gcells_per_second(1024.0 * 1024.0, 8, 1.048576), 8.0); // a fused launch counts every step
    EXPECT_DOUBLE_EQ(gbytes_per_second(3e9, 2.0), 1500.0); // 3 GB in 2 ms
    StripStats strip;
    strip.updated_cells = 2'000'000;
    strip.compute_ms = 0.5;
    EXPECT_DOUBLE_EQ(strip.gcells_per_s(), 4.0); // the strip table reads the same function
}

TEST(Rates, NoTimeMeansNoRate) {
    EXPECT_EQ(gcells_per_second(1e9, 1, 0.0), 0.0);
    EXPECT_EQ(gcells_per_second(1e9, 1, -1.0), 0.0);
    EXPECT_EQ(gbytes_per_second(1e9, 0.0), 0.0);
    EXPECT_EQ(StripStats {}.gcells_per_s(), 0.0);
}

TEST(Rates, APercentageIsCappedAt100AndUnknownWithoutACeiling) {
    EXPECT_DOUBLE_EQ(percent_of(750.0, 3000.0), 25.0);
    EXPECT_DOUBLE_EQ(percent_of(3000.0, 3000.0), 100.0);
    EXPECT_DOUBLE_EQ(percent_of(3300.0, 3000.0), 100.0); // 110 % shown as 100 %
    EXPECT_TRUE(std::isnan(percent_of(1.0, 0.0)));
    EXPECT_TRUE(std::isnan(percent_of(1.0, -2.0)));
    EXPECT_TRUE(std::isnan(percent_of(std::nan(""), 100.0))); // not 100: an unknown value stays unknown
}

TEST(Rates, TheVerdictReadsTheFiguresCappedDramShare) {
    // 8 GB in 2 ms: 4000 GB/s against a 3000 GB/s copy roofline, 133 % uncapped.
    const KernelMetrics m { { "gpu__time_duration.sum", 2.0e6 }, { "dram__bytes_read.sum", 4e9 },
        { "dram__bytes_write.sum", 4e9 } };
    const LaunchFigures f = derive_launch_figures(m, { 1'000'000'000, 1, 8.0 }, 3.0e12);
    EXPECT_DOUBLE_EQ(f.dram_gbs(), 4000.0); // the rate itself is never capped
    EXPECT_DOUBLE_EQ(f.dram_pct_of_roofline, 100.0);
    EXPECT_EQ(f.verdict.limiter, Limiter::DramBandwidth);
    EXPECT_NE(f.verdict.sentence.find("4000 GB/s, 100% of the measured peak"), std::string::npos) << f.verdict.sentence;
    EXPECT_EQ(f.verdict.sentence.find("133%"), std::string::npos) << f.verdict.sentence;
    const Verdict v = diagnose(m, { 3.0e12, 8e9 }); // the same numbers without the figures
    EXPECT_EQ(v.sentence, f.verdict.sentence);
    // Below the roofline both read the same share too.
    const LaunchFigures half = derive_launch_figures(m, { 1'000'000'000, 1, 8.0 }, 8.0e12);
    EXPECT_DOUBLE_EQ(half.dram_pct_of_roofline, 50.0);
    EXPECT_NE(half.verdict.sentence.find("DRAM at 50% of peak"), std::string::npos) << half.verdict.sentence;
}

TEST(CopyRoofline, FullSizeWhereItFitsElseHalvedDownToTheLeast) {
    constexpr std::int64_t MiB = std::int64_t(1) << 20, GiB = std::int64_t(1) << 30;
    EXPECT_EQ(kRooflineCopyBytes, GiB);
    EXPECT_EQ(kRooflineRepeats, 10);
    EXPECT_EQ(roofline_copy_bytes(80 * GiB), kRooflineCopyBytes);
    EXPECT_EQ(roofline_copy_bytes(4 * GiB), kRooflineCopyBytes); // two buffers, half of the free memory
    EXPECT_EQ(roofline_copy_bytes(4 * GiB - 1), 512 * MiB);
    EXPECT_EQ(roofline_copy_bytes(1 * GiB), 256 * MiB);
    EXPECT_EQ(roofline_copy_bytes(4 * kRooflineMinCopyBytes), kRooflineMinCopyBytes);
    EXPECT_EQ(roofline_copy_bytes(4 * kRooflineMinCopyBytes - 1), 0); // too little: not measured
    EXPECT_EQ(roofline_copy_bytes(0), 0);
}

TEST(CopyRoofline, MeasuredOncePerDeviceAndReadByTheProfilingProcedure) {
    // A device that exists nowhere: the measurement fails at once, without a GPU as with one.
    constexpr int kNoDevice = 917;
    const CopyRoofline& first = measure_copy_roofline(kNoDevice);
    EXPECT_FALSE(first.measured.error.empty());
    EXPECT_EQ(first.bytes_per_s(), 0.0);
    EXPECT_NE(first.note.find("not measured"), std::string::npos) << first.note;
    EXPECT_EQ(&measure_copy_roofline(kNoDevice), &first); // kept for the process: one object for every caller
    // The procedure the GUI's sampler and `profile` share reads that same roofline for each GPU.
    StencilConfig c;
    c.placement.backend = Backend::Cuda;
    c.placement.device = kNoDevice;
    const std::vector<ProfileTarget> targets = profile_targets(c, DeviceCatalogue {});
    ASSERT_EQ(targets.size(), 1u);
    EXPECT_EQ(targets[0].share.device, kNoDevice);
    EXPECT_EQ(targets[0].peak_bytes_per_s, first.bytes_per_s());
    EXPECT_EQ(targets[0].roofline_note, first.note);
    const VerdictInputs in = target_verdict_inputs(c, targets[0]);
    EXPECT_EQ(in.dram_peak_bytes_per_s, targets[0].peak_bytes_per_s);
    EXPECT_DOUBLE_EQ(in.working_set_bytes, double(targets[0].share.updated_cells) * 8.0); // fp32 read + write
}
