// SPDX-License-Identifier: MIT
// Point stencils on strips (issue 34), without a GPU: the verdicts (several GPUs, the testing hook, every halo mode
// and split axis, MPI ranks) and what is still refused says why; the strips carry ghost zones of R whole layers, so
// a box's corners come along; the kernels' text is one GPU's for strips along the slow axis; the CPU backend's rank
// strips are bitwise one process.
#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/create_rank_strip.h"
#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/rank_plan.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/stencil_catalog.h"
#include "rank_split_run.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace ss;

namespace {

StencilConfig points(StencilShape shape, Extent size, int gpus, int strips_per_device = 1) {
    StencilConfig c;
    use_shape(c.problem, std::move(shape));
    c.problem.size = size;
    c.placement.gpus = gpus, c.placement.strips_per_device = strips_per_device;
    return c;
}

DeviceCatalogue linked_gpus(int count) {
    DeviceCatalogue d = described_catalogue(test::h100(), count);
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < count; ++j)
            if (i != j) d.devices[std::size_t(i)].peers.push_back(j);
    return d;
}

std::string verdict(const StencilConfig& c, const DeviceCatalogue& d) {
    const Status s = can_implement(c, d);
    return s ? "ok" : s.reason;
}

} // namespace

TEST(PointStrips, RunOnSeveralGpusInEveryHaloModeAndSplit) {
    const DeviceCatalogue two = linked_gpus(2), one = described_catalogue(test::h100(), 1);
    for (Variant v : { Variant::Base, Variant::Smem, Variant::Stream })
        for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote }) {
            StencilConfig c = points(box_shape(2, 2), { 256, 130, 1 }, 2);
            c.policy.variant = v, c.placement.halo = halo;
            EXPECT_EQ(verdict(c, two), "ok") << describe(c);
            c.placement.gpus = 1, c.placement.strips_per_device = 3; // the testing hook: strips on one GPU
            EXPECT_EQ(verdict(c, one), "ok") << describe(c);
            for (SplitAxis split : { SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
                StencilConfig box = points(*ebisu_shape("3d27pt"), { 66, 34, 40 }, 2);
                box.policy.variant = v, box.placement.halo = halo, box.placement.split = split;
                box.placement.overlap = split == SplitAxis::Z; // boxes cannot compute their boundary first
                EXPECT_EQ(verdict(box, two), "ok") << describe(box);
            }
        }
}

TEST(PointStrips, WhatIsStillRefusedSaysWhy) {
    const DeviceCatalogue two = linked_gpus(2);
    StencilConfig padded = points(box_shape(2, 1), { 256, 256, 1 }, 2);
    padded.policy.variant = Variant::SmemPadded;
    EXPECT_EQ(verdict(padded, two),
        "--variant smem_padded runs star stencils only so far (point stencils run base, smem, stream and temporal)");
    StencilConfig thin = points(box_shape(2, 4), { 64, 12, 1 }, 2); // 4 updated rows over 2 strips: 2 rows each
    EXPECT_NE(verdict(thin, two).find("thinner than the R4 ghost zone"), std::string::npos) << verdict(thin, two);
    StencilConfig uneven = points(*ebisu_shape("3d27pt"), { 67, 34, 40 }, 2); // 65 updated columns
    uneven.placement.split = SplitAxis::X, uneven.placement.halo = HaloMode::Remote, uneven.placement.overlap = false;
    EXPECT_NE(verdict(uneven, two).find("needs strips of equal width"), std::string::npos) << verdict(uneven, two);
    StencilConfig unlinked = points(box_shape(2, 1), { 256, 256, 1 }, 2);
    unlinked.placement.halo = HaloMode::Remote;
    EXPECT_NE(verdict(unlinked, described_catalogue(test::h100(), 2)).find("needs peer access"), std::string::npos);
}

// A point stencil reads up to R cells away along every axis at once (a box's corners): its strips carry R ghost
// layers, and a layer is whole across the split axis (rows, planes, or a box's full face), so a cell's diagonal
// neighbours in the next strip are in them.
TEST(PointStrips, GhostZonesAreRWholeLayers) {
    for (SplitAxis split : { SplitAxis::Slowest, SplitAxis::X, SplitAxis::Y }) {
        StencilConfig c = points(box_shape(3, 2), { 40, 36, 33 }, 3);
        c.placement.split = split;
        const StripPlan plan = plan_strips(c);
        ASSERT_EQ(plan.strips.size(), 3u);
        EXPECT_EQ(plan.ghost_depth, 2);
        const int axis = split_axis(c), extent = split_extent(c);
        EXPECT_EQ(plan.strips.front().update_begin, 2) << "the Dirichlet border is R layers";
        EXPECT_EQ(plan.strips.back().update_end, extent - 2);
        for (std::size_t i = 1; i < plan.strips.size(); ++i) {
            EXPECT_EQ(plan.strips[i].local_begin, plan.strips[i].update_begin - 2);
            EXPECT_EQ(plan.strips[i - 1].local_end, plan.strips[i - 1].update_end + 2);
        }
        for (const Strip& s : plan.strips) { // the other axes whole: border rows and corners included
            const Extent local = strip_config(c, s).problem.size;
            for (int a = 0; a < 3; ++a)
                EXPECT_EQ(extent_along(local, a), a == axis ? s.local_rows() : extent_along(c.problem.size, a));
        }
    }
}

// Strips along the slow axis compile the whole domain's single-GPU text (the same strides); box strips their own;
// remote strips read the neighbours' buffers, and every other text is unchanged by the halo mode.
TEST(PointStrips, KernelTextsOfTheStrips) {
    const DeviceCatalogue two = linked_gpus(2);
    StencilConfig c = points(*ebisu_shape("3d27pt"), { 66, 34, 40 }, 2);
    const LaunchPlan slow = make_launch_plan(c, two);
    ASSERT_TRUE(slow.verdict) << slow.verdict.reason;
    ASSERT_EQ(slow.kernel_plans.size(), 2u);
    StencilConfig one = c;
    one.placement.gpus = 1;
    const std::string single = kernel_source(plan_single_gpu_kernels(one, two.devices[0]));
    for (const KernelPlan& k : slow.kernel_plans) {
        EXPECT_EQ(k.kernels.problem.size, c.problem.size);
        EXPECT_EQ(kernel_source(k), single) << "a strip along the slow axis runs one GPU's text";
    }
    EXPECT_NE(single.find("#define REMOTE 0"), std::string::npos);
    StencilConfig remote = c;
    remote.placement.halo = HaloMode::Remote, remote.placement.split = SplitAxis::X, remote.placement.overlap = false;
    const LaunchPlan boxes = make_launch_plan(remote, two);
    ASSERT_TRUE(boxes.verdict) << boxes.verdict.reason;
    for (Variant v : { Variant::Base, Variant::Smem }) {
        KernelPlan k = boxes.kernel_plans.front();
        k.kernels.policy.variant = k.field.policy.variant = v;
        const std::string text = kernel_source(k);
        EXPECT_EQ(k.kernels.problem.size.nx, boxes.strips->strips.front().local_rows());
        EXPECT_NE(text.find("#define REMOTE 1\n#define SPLIT 0\n"), std::string::npos);
        EXPECT_NE(text.find("CELL_SRC("), std::string::npos);
    }
}

TEST(PointStrips, MpiRanksSplitPointStencils) {
    const StencilConfig c = points(box_shape(2, 3), { 60, 50, 1 }, 1);
    EXPECT_TRUE(check_rank_split(c, 3)) << check_rank_split(c, 3).reason;
    EXPECT_EQ(plan_ranks(c, 3).strips.ghost_depth, 3);
    const Status thin = check_rank_split(points(box_shape(2, 3), { 60, 14, 1 }, 1), 3);
    EXPECT_NE(thin.reason.find("thinner than the R3 ghost zone"), std::string::npos) << thin.reason;
}

// The CPU backend's rank strips (what MPI runs between processes), trading R rows by memcpy after every step: bitwise
// one process for a 2D box R2 and EBISU's 3d27pt.
TEST(PointStrips, CpuRankStripsAreBitwiseOneProcess) {
    for (const StencilShape& shape : { box_shape(2, 2), *ebisu_shape("3d27pt"), *ebisu_shape("poisson") }) {
        StencilConfig c = points(shape, shape.dims == 3 ? Extent { 21, 19, 26 } : Extent { 45, 37, 1 }, 1);
        c.placement.backend = Backend::Cpu, c.problem.precision = Precision::FP64;
        const std::vector<double> expected = test::run_whole(c, 6);
        const std::size_t row = std::size_t(c.problem.size.nx) * (c.problem.dims == 3 ? c.problem.size.ny : 1);
        for (int ranks : { 2, 3 }) {
            std::string why;
            const auto first = create_rank_strip(plan_rank_strip(plan_ranks(c, ranks), 0, 0, {}), &why);
            ASSERT_TRUE(first) << why;
            EXPECT_EQ(first->halo_bytes(), std::size_t(c.problem.radius) * row * sizeof(double)); // R rows deep
            const std::vector<double> field = test::run_split(c, ranks, 6);
            ASSERT_EQ(field.size(), expected.size());
            EXPECT_EQ(std::memcmp(field.data(), expected.data(), field.size() * sizeof(double)), 0)
                << shape.name << " over " << ranks << " ranks";
        }
    }
}
