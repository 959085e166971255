// SPDX-License-Identifier: MIT
// Continuous counters (CUPTI PM sampling) on the GPU: samples arrive while a simulation runs, the DRAM
// bytes integrated over them match what a streaming stencil must move, sampling can stop for a replayed
// profile (range profiler) and start again, and the field is the one an unsampled run computes. Its own
// process: one profiler per context.
#include "gpu_test_util.h"

#include "gpu/profiler/collector.h"
#include "gpu/profiler/pm_sampling_run.h"
#include "reports/pm_report.h"

#include <chrono>
#include <mutex>

using namespace ss;

namespace {

// 4096^2 fp32 R1: each buffer is 64 MiB, past the H100's 50 MB L2, so a step streams its field once
// each way; the ideal bytes per step are what the sampled DRAM bytes must add up to.
StencilConfig streaming_config() {
    StencilConfig c;
    c.problem.size = { 4096, 4096, 1 }, c.problem.radius = 1;
    return c;
}

struct Collected {
    std::mutex mutex;
    std::vector<PmChunk> chunks;
    PmTotals totals() {
        const std::lock_guard lock(mutex);
        PmTotals t;
        for (const PmChunk& c : chunks) add_to_totals(c, &t);
        return t;
    }
    // Consecutive samples of a device that do not meet (start != the previous end): lost samples.
    std::size_t gaps() {
        const std::lock_guard lock(mutex);
        std::size_t n = 0;
        std::uint64_t end = 0;
        for (const PmChunk& c : chunks)
            for (const PmSample& s : c.samples) {
                if (end != 0 && s.start_ns != end) ++n;
                end = s.end_ns;
            }
        return n;
    }
    void clear() {
        const std::lock_guard lock(mutex);
        chunks.clear();
    }
};

std::unique_ptr<PmSamplingRun> start_run(Collected& into, std::string* why) {
    PmSamplerOptions o;
    o.interval_ns = 100'000;
    o.image_samples = 1000; // 5 decode periods' worth
    return PmSamplingRun::start(
        { 0 }, o, std::chrono::milliseconds(20),
        [&into](PmChunk&& c) {
            const std::lock_guard lock(into.mutex);
            into.chunks.push_back(std::move(c));
        },
        why);
}

} // namespace

TEST(PmSamplingGpu, SamplesTheDramBytesAStreamingStencilMoves) {
    SKIP_WITHOUT_GPU();
    const StencilConfig c = streaming_config();
    auto sim = test::make_with_random_field(c);
    ASSERT_NE(sim, nullptr);
    sim->step(4);
    Collected got;
    std::string why;
    auto run = start_run(got, &why);
    ASSERT_NE(run, nullptr) << why;
    std::printf("one pass on %s: ", run->samplers()[0]->chip().c_str());
    for (const auto& m : run->samplers()[0]->metrics()) std::printf("%s ", m.c_str());
    std::printf("| left out: ");
    for (const auto& m : run->samplers()[0]->left_out()) std::printf("%s ", m.c_str());
    std::printf("\n");
    constexpr int kSteps = 400;
    const double ms = sim->step(kSteps).milliseconds;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    run->finish();
    EXPECT_EQ(run->error(), "");
    const PmTotals t = got.totals();
    const double ideal = double(updated_cells(c)) * 4.0; // fp32: read once, written once per step
    const double read = t.sum("dram__bytes_read.sum") / kSteps, write = t.sum("dram__bytes_write.sum") / kSteps;
    std::printf("%d steps in %.2f ms: %zu samples over %.2f ms of GPU time; per step DRAM read %.4g B, write "
                "%.4g B (ideal %.4g each)%s\n",
        kSteps, ms, t.samples, t.seconds * 1e3, read, write, ideal, t.overflow ? "; OVERFLOW" : "");
    EXPECT_FALSE(t.overflow);
    const std::size_t gaps = got.gaps();
    std::printf("samples not back to back: %zu\n", gaps);
    EXPECT_EQ(gaps, 0u);
    EXPECT_GT(t.samples, std::size_t(ms / 0.1 / 2)); // at least half the 100 us intervals of the steps
    EXPECT_NEAR(read / ideal, 1.0, 0.15);
    EXPECT_NEAR(write / ideal, 1.0, 0.15);
}

// A replayed profile needs the range profiler; PM sampling stops for it and starts again afterwards.
TEST(PmSamplingGpu, PausesForAReplayedProfileAndResumes) {
    SKIP_WITHOUT_GPU();
    auto sim = test::make_with_random_field(streaming_config());
    ASSERT_NE(sim, nullptr);
    Collected got;
    std::string why;
    auto run = start_run(got, &why);
    ASSERT_NE(run, nullptr) << why;
    sim->step(50);
    run->pause();
    const std::size_t before = got.totals().samples;
    EXPECT_GT(before, 0u);
    {
        auto collector = create_metrics_collector(0, &why);
        ASSERT_NE(collector, nullptr) << "range profiler while PM sampling is disabled: " << why;
        ProfiledLaunch p;
        EXPECT_TRUE(collector->profile([&] { sim->step(1); }, &p, &why)) << why;
        EXPECT_GT(p.metrics["dram__bytes_read.sum"], 0.0);
    }
    release_range_profiler(0);
    ASSERT_TRUE(run->resume(&why)) << "PM sampling after a replayed profile: " << why;
    got.clear();
    sim->step(200);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    run->finish();
    EXPECT_EQ(run->error(), "");
    const PmTotals after = got.totals();
    EXPECT_GT(after.samples, 0u) << "no samples after resuming";
    EXPECT_GT(after.sum("dram__bytes_read.sum"), 0.0);
    std::printf("before the replayed profile %zu samples; after resuming %zu samples, %.4g B read\n", before,
        after.samples, after.sum("dram__bytes_read.sum"));
}

// Sampling reads counters and never re-runs a kernel: the field is bitwise the unsampled run's.
TEST(PmSamplingGpu, LeavesTheFieldAsAnUnsampledRun) {
    SKIP_WITHOUT_GPU();
    StencilConfig c = streaming_config();
    c.problem.size = { 1024, 1024, 1 };
    auto plain = test::make_with_random_field(c), sampled = test::make_with_random_field(c);
    ASSERT_NE(plain, nullptr);
    ASSERT_NE(sampled, nullptr);
    plain->step(30);
    Collected got;
    std::string why;
    auto run = start_run(got, &why);
    ASSERT_NE(run, nullptr) << why;
    sampled->step(30);
    run->finish();
    EXPECT_EQ(plain->download(), sampled->download());
}
