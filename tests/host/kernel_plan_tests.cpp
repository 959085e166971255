// SPDX-License-Identifier: MIT
// The plan travels to the backends: a CUDA launch plan holds one kernel plan per field the backend builds (one GPU,
// each strip, each MPI rank), and the NVRTC source generator writes what a kernel plan says, deciding nothing itself.
#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/rank_plan.h"
#include "gpu/problem/stencil_catalog.h"
#include "test_devices.h"

#include <gtest/gtest.h>

using namespace ss;

namespace {

StencilConfig star(int dims, Extent size, Variant v = Variant::Base) {
    StencilConfig c;
    c.problem.dims = dims;
    c.problem.size = size;
    c.problem.radius = 2;
    c.policy.variant = v;
    return c;
}

const DeviceCatalogue& two_h100() {
    static const DeviceCatalogue catalogue = [] {
        DeviceCatalogue c = described_catalogue(test::h100(), 2, 64ll << 30);
        c.devices[0].peers = { 1 }, c.devices[1].peers = { 0 }; // NVLink: the remote halo mode may run
        return c;
    }();
    return catalogue;
}

bool has(const std::string& source, const std::string& line) {
    return source.find(line + "\n") != std::string::npos;
}

} // namespace

TEST(KernelPlan, OnePerFieldTheBackendBuilds) {
    const LaunchPlan one = make_launch_plan(star(3, { 128, 128, 128 }, Variant::Stream), two_h100());
    ASSERT_TRUE(one.ok()) << one.verdict.reason;
    ASSERT_EQ(one.kernel_plans.size(), 1u);
    EXPECT_TRUE(one.kernel_plans[0].field == one.config);
    EXPECT_EQ(one.kernel_plans[0].kernels.placement.halo, HaloMode::Auto) << "one field reads no neighbour";
    EXPECT_EQ(one.kernel.entry, one.kernel_plans[0].choice.entry) << "the plan shows the kernel the backend builds";
    EXPECT_EQ(one.stream.forward, one.kernel_plans[0].stream.forward);

    StencilConfig split = star(3, { 128, 128, 128 }, Variant::Stream);
    split.placement.gpus = 2;
    split.placement.halo = HaloMode::Remote;
    const LaunchPlan two = make_launch_plan(split, two_h100());
    ASSERT_TRUE(two.ok()) << two.verdict.reason;
    ASSERT_TRUE(two.strips);
    ASSERT_EQ(two.kernel_plans.size(), two.strips->strips.size());
    for (std::size_t i = 0; i < two.kernel_plans.size(); ++i) {
        const KernelPlan& k = two.kernel_plans[i];
        const Strip& s = two.strips->strips[i];
        EXPECT_TRUE(k.field == strip_config(split, s)) << "strip " << i << " sizes its own buffers";
        EXPECT_EQ(k.kernels.problem.size.nz, 128) << "strips along z compile the whole domain's text";
        EXPECT_EQ(k.kernels.placement.halo, HaloMode::Remote) << "remote strips' kernels read the neighbours";
        EXPECT_EQ(k.device.index, s.device);
    }

    StencilConfig cpu = star(2, { 256, 256, 1 });
    cpu.placement.backend = Backend::Cpu;
    EXPECT_TRUE(make_launch_plan(cpu, two_h100()).kernel_plans.empty()) << "the CPU backend compiles nothing";
    StencilConfig refused = star(2, { 256, 256, 1 });
    refused.placement.gpus = 3;
    EXPECT_TRUE(make_launch_plan(refused, two_h100()).kernel_plans.empty()) << "a refused plan builds nothing";
}

TEST(KernelPlan, BlockRuleFollowsTheConfiguration) {
    const DeviceInfo h100 = test::h100();
    StencilConfig base = star(2, { 512, 512, 1 });
    const KernelPlan heuristic = plan_single_gpu_kernels(base, h100);
    EXPECT_EQ(heuristic.block_rule, BlockRule::Occupancy) << "base with the heuristic: occupancy_block (the default)";
    ASSERT_TRUE(heuristic.occupancy_block);
    EXPECT_EQ(heuristic.occupancy_block->threads(), occupancy_block(base, h100)->threads());
    EXPECT_GT(heuristic.occupancy_blocks_per_sm, 0);

    base.policy.heuristic_block = false, base.policy.block = { 32, 4, 1 };
    EXPECT_EQ(plan_single_gpu_kernels(base, h100).block_rule, BlockRule::Given);
    EXPECT_EQ(plan_single_gpu_kernels(star(3, { 64, 64, 64 }, Variant::Stream), h100).block_rule, BlockRule::Heuristic)
        << "the stream kernel's block waits for the occupancy API";

    std::string why;
    const KernelPlan stream = plan_single_gpu_kernels(star(3, { 64, 64, 64 }, Variant::Stream), h100);
    const auto refined = heuristic_block_for(stream, 512, 256, &why);
    ASSERT_TRUE(refined) << why;
    EXPECT_LE(refined->threads(), 256) << "the compiled kernel's thread limit caps the occupancy API's answer";
}

// The 2D ring kernel (point stencils, fp32) measured faster with rows of 1024 threads than with the occupancy API's
// shorter rows at CF 2 and up, where such blocks tile a row; CF 1, fp64 and the forward-sum kernel keep rows of 128.
TEST(KernelPlan, PointRingKernelTakesWholeRowsWhereTheyTile) {
    if (knob_integer(Knob::PointForward) != 2) GTEST_SKIP() << "STENCILSCOPE_POINT_FORWARD is set to another mode";
    const DeviceInfo h100 = test::h100();
    auto box = [](int radius, int cf, Precision p) {
        StencilConfig c;
        use_shape(c.problem, box_shape(2, radius));
        c.problem.size = { 16384, 16384, 1 };
        c.problem.precision = p;
        c.policy.variant = Variant::Stream;
        c.policy.cf = cf;
        return c;
    };
    std::string why;
    for (const int cf : { 2, 4, 8 }) {
        const auto b = heuristic_block_for(plan_single_gpu_kernels(box(1, cf, Precision::FP32), h100), 640, 1024, &why);
        ASSERT_TRUE(b) << why;
        EXPECT_EQ(*b, (BlockDims { 1024, 1, 1 })) << "CF " << cf << ": the occupancy API's 640 is not taken";
    }
    const auto capped = heuristic_block_for(plan_single_gpu_kernels(box(1, 8, Precision::FP32), h100), 640, 512, &why);
    ASSERT_TRUE(capped) << why;
    EXPECT_EQ(*capped, (BlockDims { 512, 1, 1 })) << "the compiled kernel's thread limit still caps it";
    const auto cf1 = heuristic_block_for(plan_single_gpu_kernels(box(1, 1, Precision::FP32), h100), 640, 1024, &why);
    const auto fp64 = heuristic_block_for(plan_single_gpu_kernels(box(1, 8, Precision::FP64), h100), 640, 1024, &why);
    const auto forward
        = heuristic_block_for(plan_single_gpu_kernels(box(2, 8, Precision::FP32), h100), 640, 1024, &why);
    ASSERT_TRUE(cf1 && fp64 && forward) << why;
    EXPECT_EQ(*cf1, (BlockDims { 128, 1, 1 }));
    EXPECT_EQ(*fp64, (BlockDims { 128, 1, 1 }));
    EXPECT_EQ(*forward, (BlockDims { 128, 1, 1 })) << "radius 2 sums forward by default";

    // 8640 wide (EBISU's 2d9pt): a row of blocks of 1024 x CF cells ends in a mostly idle one; the API's rows stay.
    StencilConfig ebisu = box(1, 2, Precision::FP32);
    ebisu.problem.size = { 8640, 8640, 1 };
    const auto cf2 = heuristic_block_for(plan_single_gpu_kernels(ebisu, h100), 640, 1024, &why);
    ebisu.policy.cf = 8;
    const auto cf8 = heuristic_block_for(plan_single_gpu_kernels(ebisu, h100), 640, 1024, &why);
    ASSERT_TRUE(cf2 && cf8) << why;
    EXPECT_EQ(*cf2, (BlockDims { 256, 1, 1 }));
    EXPECT_EQ(*cf8, (BlockDims { 640, 1, 1 }));
}

TEST(KernelSource, WritesWhatThePlanSays) {
    KernelPlan plan = plan_single_gpu_kernels(star(3, { 64, 64, 64 }, Variant::Stream), test::h100());
    const std::string planned = kernel_source(plan);
    EXPECT_TRUE(has(planned, "#define SS_ENTRY " + plan.choice.entry));
    EXPECT_TRUE(has(planned, "#define PIPE " + std::to_string(plan.pipeline)));

    // Change the plan, not the configuration or the knobs: the text follows the plan.
    plan.choice.entry = "ss_planted_entry";
    plan.pipeline = 7;
    plan.stream.forward = true, plan.stream.x_cells = 4, plan.stream.roles = 2;
    plan.lean_addresses = true;
    plan.max_halo = 13;
    const std::string changed = kernel_source(plan);
    EXPECT_TRUE(has(changed, "#define SS_ENTRY ss_planted_entry"));
    EXPECT_TRUE(has(changed, "#define PIPE 7"));
    EXPECT_TRUE(has(changed, "#define STREAM_FWD 1"));
    EXPECT_TRUE(has(changed, "#define XB 4"));
    EXPECT_TRUE(has(changed, "#define ROLES 2"));
    EXPECT_TRUE(has(changed, "#define LEAN_ADDR 1"));
    EXPECT_TRUE(has(changed, "#define MAX_HALO 13")) << "the generic text's halo bound is the plan's";

    StencilConfig temporal = star(2, { 256, 256, 1 }, Variant::Temporal);
    temporal.policy.depth = 4;
    KernelPlan deep = plan_single_gpu_kernels(temporal, test::h100());
    deep.temporal_loads_ahead = 3, deep.temporal_fast_path = true, deep.temporal_min_blocks_per_sm = 5;
    deep.temporal_sync_rows = 2;
    const BlockDims block { 32, 8, 1 };
    const std::string fused = kernel_source(deep, &block);
    EXPECT_TRUE(has(fused, "#define DEPTH 4"));
    EXPECT_TRUE(has(fused, "#define TEMPORAL_AHEAD 3"));
    EXPECT_TRUE(has(fused, "#define TEMPORAL_FAST 1"));
    EXPECT_TRUE(has(fused, "#define TMINB 5"));
    EXPECT_TRUE(has(fused, "#define TEMPORAL_SYNC_ROWS 2")) << "rows per barrier: the plan's";
    EXPECT_TRUE(has(kernel_source(at_depth(deep, 1), &block), "#define DEPTH 1")) << "the one-step launches' text";
}

TEST(RankPlan, EveryRankTakesItsStripFromOnePlan) {
    StencilConfig whole = star(2, { 64, 64, 1 });
    const RankPlan ranks = plan_ranks(whole, 3);
    ASSERT_TRUE(ranks.verdict) << ranks.verdict.reason;
    ASSERT_EQ(ranks.strips.strips.size(), 3u);
    for (int r = 0; r < 3; ++r) {
        const RankStripPlan mine = plan_rank_strip(ranks, r, r % 2, two_h100());
        ASSERT_TRUE(mine.verdict) << mine.verdict.reason;
        EXPECT_EQ(mine.strip.first_row, ranks.strips.strips[std::size_t(r)].first_row);
        EXPECT_EQ(mine.strip.device, r % 2);
        ASSERT_TRUE(mine.kernels) << "a CUDA rank builds the plan's kernels";
        EXPECT_TRUE(mine.kernels->field == mine.local);
        EXPECT_EQ(mine.kernels->kernels.problem.size.ny, 64) << "the whole domain's single-GPU text";
        EXPECT_EQ(mine.kernels->kernels.placement.device, r % 2);
    }
    EXPECT_FALSE(plan_rank_strip(ranks, 3, 0, two_h100()).verdict) << "three ranks have no fourth strip";
    whole.placement.backend = Backend::Cpu;
    EXPECT_FALSE(plan_rank_strip(plan_ranks(whole, 2), 0, 0, two_h100()).kernels) << "the CPU compiles nothing";
    const RankPlan thin = plan_ranks(star(2, { 64, 8, 1 }), 3);
    EXPECT_FALSE(thin.verdict);
    EXPECT_FALSE(plan_rank_strip(thin, 0, 0, two_h100()).verdict) << "a refused split refuses every rank";
}
