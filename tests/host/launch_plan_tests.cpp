// SPDX-License-Identifier: MIT
// The launch plan resolves a configuration once: its verdict, block, strips and alternatives are what the separate
// rules (can_implement, heuristic_block, plan_strips) say, and each plan counts as one evaluation.
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/validation.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ss;

namespace {

StencilConfig star_2d(int radius = 4) {
    StencilConfig c;
    c.problem.dims = 2;
    c.problem.size = { 512, 512, 1 };
    c.problem.radius = radius;
    return c;
}

StencilConfig star_3d(Variant v) {
    StencilConfig c = star_2d();
    c.problem.dims = 3;
    c.problem.size = { 128, 128, 128 };
    c.policy.variant = v;
    return c;
}

std::vector<StencilConfig> valid_and_invalid() {
    std::vector<StencilConfig> out;
    out.push_back(star_2d());
    out.push_back(star_3d(Variant::Stream));
    out.push_back(star_3d(Variant::SmemPadded));
    StencilConfig temporal = star_2d(1);
    temporal.policy.variant = Variant::Temporal, temporal.policy.depth = 4;
    out.push_back(temporal);
    StencilConfig wide = star_2d(20); // past kMaxRadius
    out.push_back(wide);
    StencilConfig threads = star_2d();
    threads.policy.heuristic_block = false, threads.policy.block = { 64, 32, 1 }; // 2048 threads
    out.push_back(threads);
    StencilConfig small = star_2d(16);
    small.problem.size = { 16, 16, 1 }; // smaller than R16 needs
    out.push_back(small);
    StencilConfig depth = star_2d();
    depth.policy.depth = 3; // a depth on a variant that fuses no steps
    out.push_back(depth);
    StencilConfig two = star_2d();
    two.placement.gpus = 2;
    out.push_back(two);
    StencilConfig cpu = star_2d();
    cpu.placement.backend = Backend::Cpu;
    out.push_back(cpu);
    return out;
}

} // namespace

TEST(LaunchPlan, VerdictIsCanImplements) {
    for (int gpus : { 0, 1, 2 }) {
        const DeviceCatalogue catalogue = described_catalogue(test::h100(), gpus, 64ll << 30);
        for (const StencilConfig& c : valid_and_invalid()) {
            const LaunchPlan plan = make_launch_plan(c, catalogue);
            const Status expected = can_implement(c, catalogue);
            EXPECT_EQ(plan.verdict.ok, expected.ok) << describe(c) << " on " << gpus << " GPUs";
            EXPECT_EQ(plan.verdict.reason, expected.reason) << describe(c);
            EXPECT_EQ(plan.config, c);
        }
    }
}

TEST(LaunchPlan, AlternativesAreTheVerdictsOfTheSwitchedKnob) {
    const DeviceCatalogue catalogue = described_catalogue(test::h100(), 2, 64ll << 30);
    for (StencilConfig c : valid_and_invalid()) {
        c.placement.gpus = 2;
        const LaunchPlan plan = make_launch_plan(c, catalogue);
        for (const HaloMode mode : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote }) {
            StencilConfig with = c;
            with.placement.halo = mode;
            EXPECT_EQ(plan.halo_verdict(mode).ok, can_implement(with, catalogue).ok) << describe(with);
            EXPECT_EQ(plan.halo_verdict(mode).reason, can_implement(with, catalogue).reason);
        }
        for (const SplitAxis axis : { SplitAxis::Slowest, SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
            StencilConfig with = c;
            with.placement.split = axis;
            if (!splits_slowest(with)) with.placement.overlap = false;
            EXPECT_EQ(plan.split_verdict(axis).ok, can_implement(with, catalogue).ok) << describe(with);
            EXPECT_EQ(plan.split_verdict(axis).reason, can_implement(with, catalogue).reason);
        }
    }
    // Two strips of a 2D domain: it runs as cut, and z, which it lacks, is refused.
    StencilConfig two = star_2d();
    two.placement.gpus = 2;
    const LaunchPlan plan = make_launch_plan(two, catalogue);
    EXPECT_TRUE(plan.split_verdict(SplitAxis::Slowest).ok);
    EXPECT_FALSE(plan.split_verdict(SplitAxis::Z).ok);
}

TEST(LaunchPlan, StripsOnlyWhereTheRunIsCut) {
    const DeviceCatalogue two_gpus = described_catalogue(test::h100(), 2, 64ll << 30);
    EXPECT_FALSE(make_launch_plan(star_2d(), two_gpus).strips);
    StencilConfig split = star_2d();
    split.placement.gpus = 2;
    const LaunchPlan plan = make_launch_plan(split, two_gpus);
    ASSERT_TRUE(plan.ok()) << plan.verdict.reason;
    ASSERT_TRUE(plan.strips);
    const StripPlan expected = plan_strips(split);
    ASSERT_EQ(plan.strips->strips.size(), expected.strips.size());
    EXPECT_EQ(plan.strips->ghost_depth, expected.ghost_depth);
    for (std::size_t i = 0; i < expected.strips.size(); ++i) {
        EXPECT_EQ(plan.strips->strips[i].device, expected.strips[i].device);
        EXPECT_EQ(plan.strips->strips[i].first_row, expected.strips[i].first_row);
        EXPECT_EQ(plan.strips->strips[i].end_row, expected.strips[i].end_row);
    }
    // Two strips the catalogue cannot place (one GPU): refused, so nothing is cut.
    const LaunchPlan refused = make_launch_plan(split, described_catalogue(test::h100(), 1, 64ll << 30));
    EXPECT_FALSE(refused.ok());
    EXPECT_FALSE(refused.strips);
}

TEST(LaunchPlan, BlockIsTheHeuristicsOrTheGivenOne) {
    const DeviceInfo h100 = test::h100();
    const DeviceCatalogue catalogue = described_catalogue(h100, 1, 64ll << 30);
    for (const StencilConfig& c :
        { star_2d(), star_3d(Variant::Base), star_3d(Variant::Stream), star_3d(Variant::SmemPadded) }) {
        const LaunchPlan plan = make_launch_plan(c, catalogue);
        const auto heuristic = heuristic_block(c, h100.max_threads_per_block, &h100);
        ASSERT_TRUE(heuristic && plan.heuristic) << describe(c);
        EXPECT_EQ(*plan.heuristic, *heuristic) << describe(c);
        EXPECT_EQ(plan.block, *heuristic);
        EXPECT_TRUE(plan.block_verdict.ok) << plan.block_verdict.reason;
        EXPECT_EQ(plan.dynamic_smem, dynamic_smem_bytes(c, *heuristic));
        EXPECT_EQ(plan.grid.x, grid_dims(c, *heuristic).x);
        EXPECT_EQ(plan.grid.y, grid_dims(c, *heuristic).y);
        EXPECT_EQ(plan.stream.forward, c.policy.variant == Variant::Stream && stream_layout(c).forward);
    }
    StencilConfig manual = star_2d();
    manual.policy.heuristic_block = false, manual.policy.block = { 64, 32, 1 };
    const LaunchPlan plan = make_launch_plan(manual, catalogue);
    EXPECT_EQ(plan.block, manual.policy.block);
    EXPECT_EQ(plan.block_verdict.reason, check_block(manual, manual.policy.block, &h100).reason);
    EXPECT_FALSE(plan.block_verdict.ok);
    EXPECT_TRUE(plan.heuristic); // previewed all the same
    EXPECT_EQ(plan.dynamic_smem, 0); // nothing derived from a block that cannot launch
}

TEST(LaunchPlan, TemporalDepthAndTile) {
    StencilConfig c = star_2d(1);
    c.policy.variant = Variant::Temporal, c.policy.depth = 4;
    const LaunchPlan plan = make_launch_plan(c, described_catalogue(test::h100(), 1, 64ll << 30));
    ASSERT_TRUE(plan.ok()) << plan.verdict.reason;
    EXPECT_EQ(plan.depth, 4);
    ASSERT_TRUE(plan.temporal_tile);
    EXPECT_EQ(plan.temporal_tile->core_x, temporal_tile(c, plan.block, 4).core_x);
    EXPECT_EQ(make_launch_plan(star_2d(), described_catalogue(test::h100(), 1)).depth, 1);
    EXPECT_FALSE(make_launch_plan(star_2d(), described_catalogue(test::h100(), 1)).temporal_tile);
}

TEST(LaunchPlan, DeviceIsTheSelectedGpuOrTheLargestLimits) {
    const LaunchPlan on_gpu = make_launch_plan(star_2d(), described_catalogue(test::h100(), 1));
    EXPECT_TRUE(on_gpu.device_present);
    EXPECT_EQ(on_gpu.device.name, test::h100().name);
    StencilConfig cpu = star_2d();
    cpu.placement.backend = Backend::Cpu;
    const LaunchPlan without = make_launch_plan(cpu, described_catalogue(test::h100(), 0, 64ll << 30));
    EXPECT_TRUE(without.ok()) << without.verdict.reason;
    EXPECT_FALSE(without.device_present);
    EXPECT_EQ(without.device.name, largest_gpu_limits().name);
}

TEST(LaunchPlan, EachPlanIsOneEvaluation) {
    const DeviceCatalogue catalogue = described_catalogue(test::h100(), 1);
    const std::uint64_t before = launch_plan_evaluations();
    make_launch_plan(star_2d(), catalogue);
    EXPECT_EQ(launch_plan_evaluations() - before, 1u);
}

// The engine re-reads free memory and asks check_memory alone: it says what can_implement says on that catalogue.
TEST(LaunchPlan, MemoryIsCanImplementsLastRule) {
    DeviceInfo tight = test::h100();
    tight.free_memory = 1 << 20;
    StencilConfig c = star_2d();
    c.problem.size = { 4096, 4096, 1 };
    const DeviceCatalogue catalogue = described_catalogue(tight, 1);
    EXPECT_FALSE(check_memory(c, catalogue).ok);
    EXPECT_EQ(check_memory(c, catalogue).reason, can_implement(c, catalogue).reason);
    EXPECT_TRUE(check_memory(c, described_catalogue(test::h100(), 1)).ok);
    StencilConfig cpu = c;
    cpu.placement.backend = Backend::Cpu;
    EXPECT_EQ(check_memory(cpu, described_catalogue(tight, 0, 1 << 20)).reason,
        can_implement(cpu, described_catalogue(tight, 0, 1 << 20)).reason);
    EXPECT_FALSE(check_memory(cpu, described_catalogue(tight, 0, 1 << 20)).ok);
}

TEST(LaunchPlan, RadiusRangeIsOneRule) {
    EXPECT_FALSE(radius_in_range(0));
    EXPECT_TRUE(radius_in_range(1));
    EXPECT_TRUE(radius_in_range(kMaxRadius));
    EXPECT_FALSE(radius_in_range(kMaxRadius + 1));
    EXPECT_EQ(radius_range_text(), "1.." + std::to_string(kMaxRadius));
}

// The plan names the kernel a step launches (choose_kernel), so the panel, the reports and the engine read one answer.
TEST(LaunchPlan, CarriesTheChosenKernel) {
    const DeviceCatalogue catalogue = described_catalogue(test::h100(), 1);
    StencilConfig c = star_2d();
    c.policy.variant = Variant::Smem;
    const LaunchPlan plan = make_launch_plan(c, catalogue);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan.kernel.entry, choose_kernel(c).entry);
    EXPECT_EQ(plan.kernel.entry, "ss_smem_2d");
    EXPECT_FALSE(plan.kernel.why.empty());
    c.problem.radius = kMaxRadius + 1; // refused: no kernel is chosen
    EXPECT_TRUE(make_launch_plan(c, catalogue).kernel.entry.empty());
}
