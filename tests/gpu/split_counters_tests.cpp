// SPDX-License-Identifier: MIT
// Issue 36: the window kept its replayed counters off on 2 or more GPUs, because a profiled launch taken as the window
// takes it corrupted the field on two H200s. This runs the engine thread's pattern (gpu/profiler/profile_procedure.h
// is what the window's MetricsSampler calls): batches queued with step_async and a marker, the marker waited for, one
// profiled launch with no warm-up, one plain step; over and over. The field must stay bitwise the field of one GPU
// stepped as often without counters. Two GPUs when present, else strips sharing one GPU.
#include "gpu_test_util.h"

#include "gpu/plan/strip_plan.h"
#include "gpu/profiler/profile_procedure.h"

#include <cstring>

using namespace ss;

namespace {

StencilConfig split_config(HaloMode halo, bool overlap, int dims) {
    const bool two = test::catalogue().devices.size() >= 2;
    StencilConfig c;
    c.problem.rule = UpdateRule::Wave; // reads u(t-1) from the buffer it writes: a restored buffer shows
    c.problem.dims = dims;
    c.problem.radius = 4;
    c.problem.size = dims == 2 ? Extent { 2048, 2050, 1 } : Extent { 192, 160, 130 };
    if (dims == 3) c.policy.variant = Variant::Stream, c.policy.cf = 2;
    c.placement.gpus = two ? 2 : 1;
    c.placement.strips_per_device = two ? 1 : 3;
    c.placement.halo = halo, c.placement.overlap = overlap;
    return c;
}

// Runs the window's pattern on every halo mode and overlap, 2D and 3D; `drain_first`: a full synchronize (every
// stream of every GPU) before each profiled launch as well.
void expect_window_pattern_keeps_the_field(bool drain_first) {
    static CollectorsByDevice collectors; // one per device for the process, as the window's sampler keeps them
    for (int dims : { 2, 3 })
        for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote })
            for (bool overlap : { true, false }) {
                if (halo == HaloMode::Remote && overlap) continue; // remote mode has nothing to overlap
                const StencilConfig c = split_config(halo, overlap, dims);
                SCOPED_TRACE(describe(c));
                const LaunchPlan plan = make_launch_plan(c, test::catalogue());
                if (!plan.ok()) {
                    ADD_FAILURE() << plan.verdict.reason;
                    continue;
                }
                // The collectors first, as the window's sampler has them from the run before (CUPTI answered
                // CUPTI_ERROR_INVALID_PARAMETER to the first collector made after a split run's peer access).
                const std::vector<ProfileTarget> targets = profile_targets(c, test::catalogue());
                std::vector<MetricsCollector*> in_order;
                std::string attach_why;
                ASSERT_TRUE(attach_collectors(targets, collectors, &in_order, &attach_why)) << attach_why;
                auto sim = test::make_with_random_field(c);
                ASSERT_NE(sim, nullptr);
                const std::vector<double> initial = sim->download();
                int steps = 0;
                for (int round = 0; round < 6; ++round) {
                    sim->step_async(7); // a batch, as the engine thread queues it
                    const std::uint64_t batch = sim->enqueue_marker();
                    sim->wait_marker(batch); // EngineWorker::profile_step drains the queue first
                    if (drain_first) sim->synchronize();
                    ProfiledStep profiled;
                    std::string why;
                    ASSERT_TRUE(profile_one_launch(*sim, targets, collectors, 0, &profiled, &why)) << why;
                    sim->step(1); // the plain step that times the strips again
                    steps += 7 + fused_steps(c.policy) + 1;
                }
                const std::vector<double> with_counters = sim->download();

                StencilConfig one = single_gpu_equivalent(c);
                std::string why;
                auto reference = create_simulation(one, test::catalogue(), &why);
                ASSERT_NE(reference, nullptr) << why;
                reference->upload(initial);
                reference->step(steps);
                const std::vector<double> plain = reference->download();
                ASSERT_EQ(with_counters.size(), plain.size());
                EXPECT_EQ(std::memcmp(with_counters.data(), plain.data(), plain.size() * sizeof(double)), 0)
                    << "profiled launches between batches changed the field (" << steps << " steps)";
            }
}

} // namespace

TEST(SplitCounters, WindowPatternKeepsTheFieldOfOneGpu) {
    SKIP_WITHOUT_GPU();
    expect_window_pattern_keeps_the_field(false);
}

TEST(SplitCounters, WithEveryStreamDrainedFirstToo) {
    SKIP_WITHOUT_GPU();
    expect_window_pattern_keeps_the_field(true);
}
