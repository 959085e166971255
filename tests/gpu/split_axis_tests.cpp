// SPDX-License-Identifier: MIT
// The split axis (issue 21): strips cut along x, or y in 3D, hold boxes of the domain and exchange strided ghost
// layers (copies) or load the neighbours' cells (remote). Whatever the axis, the field must not change a single
// bit against one GPU: every star variant, 2D and 3D, copy and remote modes, 2 and 3 strips on one GPU (the
// testing hook) and on real GPUs where present (2 GPUs: skipped elsewhere, counted in the output).
#include "gpu_test_util.h"
#include "strip_test_util.h"

#include "gpu/plan/launch_policy.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

using namespace ss;
using test::bitwise_equal;
using test::first_difference;
using test::run;

namespace {

constexpr int kSteps = 5, kR = 3;

// Copy modes: odd extents, so that strips differ by one layer; remote mode: updated extents divisible by 2 and 3
// (equal widths, check_strips; along y in 3D also by CF: strip_cut_unit), still not multiples of the block.
StencilConfig one_gpu(Variant v, int dims, Precision p, UpdateRule rule, bool equal_widths) {
    StencilConfig c;
    c.policy.variant = v, c.problem.dims = dims, c.problem.precision = p, c.problem.radius = kR;
    c.problem.rule = rule;
    c.policy.cf = v == Variant::Uncoalesced ? 1 : 2;
    const int w = equal_widths ? 0 : 1;
    c.problem.size = dims == 2 ? Extent { 2 * kR + 66 + w, 2 * kR + 29, 1 }
                               : Extent { 2 * kR + 12 + w, 2 * kR + 24 + w, 2 * kR + 9 }; // y: 24 = 2 x 3 x CF
    return c;
}

std::vector<StencilConfig> one_gpu_matrix(bool equal_widths) {
    std::vector<StencilConfig> out;
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced })
        for (int dims : { 2, 3 })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Wave }) // uniform and unequal weights
                    out.push_back(one_gpu(v, dims, p, rule, equal_widths));
    // The fp64 tensor-core stream kernel (R12, CF 1) groups a cell's x and y neighbours in fours from its tile's
    // origin: strips are cut at multiples of 4 (strip_cut_unit); updated extents of 48 divide into 2 and 3 of them,
    // each at least R thick.
    for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Wave }) {
        StencilConfig c = one_gpu(Variant::Stream, 3, Precision::FP64, rule, equal_widths);
        const int r = 12, w = equal_widths ? 0 : 1;
        c.problem.radius = r, c.policy.cf = 1, c.problem.size = Extent { 2 * r + 48 + w, 2 * r + 48 + w, 2 * r + 9 };
        EXPECT_TRUE(stream_layout(c).tensor) << describe(c);
        out.push_back(c);
    }
    return out;
}

// Every faster axis, every halo mode, 2 and 3 strips on GPU 0, and each GPU count up to the devices present.
std::vector<StencilConfig> box_splits_of(const StencilConfig& one, HaloMode halo) {
    std::vector<StencilConfig> out;
    for (SplitAxis axis : { SplitAxis::X, SplitAxis::Y }) {
        if (axis == SplitAxis::Y && one.problem.dims == 2) continue; // y is the slowest axis in 2D
        StencilConfig c = one;
        c.placement.split = axis, c.placement.halo = halo, c.placement.overlap = false;
        for (const StencilConfig& placed : test::strip_placements(c)) out.push_back(placed);
    }
    return out;
}

int compare_all(bool equal_widths, const std::vector<HaloMode>& modes) {
    std::vector<StencilConfig> warm;
    for (const StencilConfig& one : one_gpu_matrix(equal_widths)) {
        warm.push_back(one);
        for (HaloMode m : modes)
            for (const StencilConfig& c : box_splits_of(one, m)) warm.push_back(c);
    }
    test::warm_kernel_cache(warm);
    int compared = 0;
    for (const StencilConfig& one : one_gpu_matrix(equal_widths)) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 23);
        std::string why;
        const auto want = run(one, initial, kSteps, &why);
        EXPECT_FALSE(want.empty()) << describe(one) << ": " << why;
        for (HaloMode m : modes)
            for (const StencilConfig& c : box_splits_of(one, m)) {
                const auto got = run(c, initial, kSteps, &why);
                EXPECT_FALSE(got.empty()) << describe(c) << ": " << why;
                EXPECT_TRUE(bitwise_equal(got, want)) << describe(c) << ": " << first_difference(c, got, want);
                ++compared;
            }
    }
    return compared;
}

} // namespace

TEST(SplitAxis, CopiedStridedLayersAreBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    const int compared = compare_all(false, { HaloMode::Auto, HaloMode::Staged });
    EXPECT_GT(compared, 0);
    std::printf("compared %d box-strip copy runs with one GPU, %d devices\n", compared, test::catalogue().count());
}

TEST(SplitAxis, RemoteLoadsAlongFasterAxesAreBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    const int compared = compare_all(true, { HaloMode::Remote });
    EXPECT_GT(compared, 0);
    std::printf("compared %d box-strip remote runs with one GPU, %d devices\n", compared, test::catalogue().count());
}

// With the ghost layers poisoned (all-ones bits: NaN) a kernel reading them instead of the neighbours' cells writes
// NaN into the field; one step's updated cells must equal one GPU's, poisoned the same way.
TEST(SplitAxis, RemoteModeReadsTheNeighboursCellsNotGhostLayers) {
    SKIP_WITHOUT_GPU();
    const auto poisoned_step = [](const StencilConfig& c, const std::vector<double>& initial) {
        std::string why;
        auto sim = create_simulation(c, test::catalogue(), &why);
        EXPECT_TRUE(sim) << describe(c) << ": " << why;
        if (!sim) return std::vector<double> {};
        sim->upload(initial);
        sim->poison_output();
        sim->step(1);
        return test::updated_only(c, sim->download());
    };
    for (const StencilConfig& one : one_gpu_matrix(true)) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 29);
        const auto want = poisoned_step(one, initial);
        for (const StencilConfig& c : box_splits_of(one, HaloMode::Remote))
            EXPECT_TRUE(bitwise_equal(poisoned_step(c, initial), want)) << describe(c);
    }
}

// The display and the GUI's writes follow the split: every plane (normal to the split axis, or cut by it along its
// rows or columns) and k x k averaging, inject across a boundary, the wave's state through a repartition.
TEST(SplitAxis, SlicesInjectAndStateFollowTheSplit) {
    SKIP_WITHOUT_GPU();
    for (int dims : { 2, 3 })
        for (SplitAxis axis : { SplitAxis::X, SplitAxis::Y }) {
            if (axis == SplitAxis::Y && dims == 2) continue;
            const StencilConfig one = one_gpu(Variant::Base, dims, Precision::FP64, UpdateRule::Wave, false);
            StencilConfig split = one;
            split.placement.split = axis, split.placement.overlap = false, split.placement.strips_per_device = 3;
            std::string why;
            auto a = create_simulation(one, test::catalogue(), &why);
            auto b = create_simulation(split, test::catalogue(), &why);
            ASSERT_TRUE(a && b) << why;
            const auto initial = make_initial_field(one, InitialCondition::Random, 31);
            const int boundary = plan_strips(split).strips[0].end_row;
            for (Simulation* s : { a.get(), b.get() }) {
                s->upload(initial);
                s->step(2);
                s->inject(axis == SplitAxis::X ? boundary : 9, axis == SplitAxis::Y ? boundary : 8, dims == 3 ? 7 : 0,
                    3, 3.5);
                s->step(2);
            }
            EXPECT_TRUE(bitwise_equal(b->download(), a->download())) << "inject, " << describe(split);
            const std::vector<SliceAxis> planes = dims == 2
                ? std::vector { SliceAxis::XY }
                : std::vector { SliceAxis::XY, SliceAxis::XZ, SliceAxis::YZ };
            for (SliceAxis plane : planes)
                for (int k : { 1, 2, 4 }) {
                    const int index = dims == 3 ? 7 : 0;
                    const std::vector<float> want = test::slice_via_device(*a, plane, index, k);
                    const std::vector<float> got = test::slice_via_device(*b, plane, index, k);
                    EXPECT_EQ(got, want) << "plane " << int(plane) << " k " << k << " " << describe(split);
                    if (k == 1) {
                        EXPECT_EQ(b->download_slice(plane, index), want) << "plane " << int(plane);
                    }
                }
            ASSERT_TRUE(repartition(b, one, test::catalogue()).ok);
            a->step(2);
            b->step(2);
            EXPECT_TRUE(bitwise_equal(a->download(), b->download())) << "after repartition, " << describe(split);
        }
}

// Bytes copied per step follow the layer's shape: R columns of every row (x), R rows of every plane (y in 3D);
// remote bytes count the updated cells of those layers, computed.
TEST(SplitAxis, StatsCountTheStridedLayers) {
    SKIP_WITHOUT_GPU();
    StencilConfig c = one_gpu(Variant::Base, 3, Precision::FP32, UpdateRule::Thesis, true);
    c.placement.strips_per_device = 3, c.placement.overlap = false;
    const Extent e = c.problem.size;
    for (SplitAxis axis : { SplitAxis::X, SplitAxis::Y })
        for (HaloMode halo : { HaloMode::Auto, HaloMode::Remote }) {
            c.placement.split = axis, c.placement.halo = halo;
            std::string why;
            auto sim = create_simulation(c, test::catalogue(), &why);
            ASSERT_TRUE(sim) << describe(c) << ": " << why;
            const StripStats middle = sim->multi_gpu_stats().strips.at(1);
            const std::int64_t layer = axis == SplitAxis::X ? std::int64_t(e.ny) * e.nz : std::int64_t(e.nx) * e.nz;
            const std::int64_t updated = axis == SplitAxis::X ? std::int64_t(e.ny - 2 * kR) * (e.nz - 2 * kR)
                                                              : std::int64_t(e.nx - 2 * kR) * (e.nz - 2 * kR);
            EXPECT_EQ(middle.halo_bytes, halo == HaloMode::Remote ? 0 : 2 * kR * layer * 4) << describe(c);
            EXPECT_EQ(middle.remote_bytes, halo == HaloMode::Remote ? 2 * kR * updated * 4 : 0) << describe(c);
            EXPECT_EQ(middle.end_row - middle.first_row, middle.updated_cells / updated) << describe(c);
        }
}
