// SPDX-License-Identifier: MIT
// Point stencils on strips (issue 34): a box R2 in 2D, EBISU's 3d27pt and poisson, and a random-weights user stencil
// reaching its corners, base, smem and stream, fp32 and fp64, split along every axis in every halo mode that applies,
// on 2 and 3 strips of GPU 0 (the testing hook) and on real GPUs where present: the field after K steps equals one
// GPU's bitwise, and one step into a NaN-poisoned output (with the ghost rows poisoned too in remote mode) writes every
// updated cell as one GPU does. A box reads its corners: ghost layers missing them would change the bits.
#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu_test_util.h"
#include "strip_test_util.h"

#include <cstdio>
#include <random>

using namespace ss;
using test::bitwise_equal;
using test::first_difference;
using test::run;

namespace {

constexpr int kSteps = 5;

// Every point of the (2R+1)^dims box kept with probability 2/3 (the +R corner always: the radius and a corner),
// weights drawn from [-0.2, 0.2].
StencilShape random_corner_stencil(int dims, int radius, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> weight(-0.2, 0.2);
    StencilShape s { "random", dims, {}, {} };
    for (const StencilPoint& p : box_shape(dims, radius).points) {
        const bool corner = p.dx == radius && p.dy == radius && p.dz == (dims == 3 ? radius : 0);
        if (corner || rng() % 3 != 0) s.points.push_back({ p.dx, p.dy, p.dz, weight(rng) });
    }
    return s;
}

// Updated extents divisible by 2 and 3 along x and y (remote box strips need equal widths), odd along the slowest
// axis (copy-mode strips then differ by a layer); 3 strips of the 3D domain along z are 3 planes thick.
std::vector<StencilConfig> point_matrix() {
    const std::vector<StencilShape> shapes { box_shape(2, 2), *ebisu_shape("3d27pt"), *ebisu_shape("poisson"),
        random_corner_stencil(3, 2, 5), random_corner_stencil(2, 3, 6) };
    std::vector<StencilConfig> out;
    for (const StencilShape& shape : shapes)
        for (Variant v : { Variant::Base, Variant::Smem, Variant::Stream })
            for (Precision p : { Precision::FP32, Precision::FP64 }) {
                StencilConfig c;
                use_shape(c.problem, shape);
                const int r = c.problem.radius;
                c.problem.precision = p, c.policy.variant = v, c.policy.cf = v == Variant::Base ? 2 : 1;
                c.problem.size = shape.dims == 2 ? Extent { 2 * r + 66, 2 * r + 29, 1 }
                                                 : Extent { 2 * r + 12, 2 * r + 18, 2 * r + 9 };
                out.push_back(c);
            }
    return out;
}

// Every split axis and halo mode, overlap on and off where it applies, 2 and 3 strips on GPU 0, and the GPUs present.
std::vector<StencilConfig> splits_of(const StencilConfig& one) {
    std::vector<StencilConfig> out;
    for (SplitAxis axis : { SplitAxis::Slowest, SplitAxis::X, SplitAxis::Y })
        for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote })
            for (bool overlap : { true, false }) {
                if (axis == SplitAxis::Y && one.problem.dims == 2) continue; // y is the slowest axis in 2D
                if (overlap && (axis != SplitAxis::Slowest || halo == HaloMode::Remote)) continue; // not applicable
                StencilConfig c = one;
                c.placement.split = axis, c.placement.halo = halo, c.placement.overlap = overlap;
                for (const StencilConfig& placed : test::strip_placements(c)) out.push_back(placed);
            }
    return out;
}

} // namespace

TEST(PointStrips, EveryLayoutIsBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    std::vector<StencilConfig> warm;
    for (const StencilConfig& one : point_matrix()) {
        warm.push_back(one);
        for (const StencilConfig& c : splits_of(one)) warm.push_back(c);
    }
    test::warm_kernel_cache(warm);
    int compared = 0;
    for (const StencilConfig& one : point_matrix()) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 7);
        std::string why;
        const auto want = run(one, initial, kSteps, &why);
        ASSERT_FALSE(want.empty()) << describe(one) << ": " << why;
        for (const StencilConfig& c : splits_of(one)) {
            ASSERT_TRUE(can_implement(c, test::catalogue())) << describe(c);
            const auto got = run(c, initial, kSteps, &why);
            ASSERT_FALSE(got.empty()) << describe(c) << ": " << why;
            EXPECT_TRUE(bitwise_equal(got, want)) << describe(c) << ": " << first_difference(c, got, want);
            ++compared;
        }
    }
    std::printf("compared %d point-stencil split runs with their one-GPU runs, %d devices\n", compared,
        test::catalogue().count());
}

// One step into a poisoned output: a cell a strip did not write, or wrote from a poisoned ghost cell (remote mode
// poisons the ghost layers, which it must never read), would be NaN and differ.
TEST(PointStrips, OneStepIntoAPoisonedOutputWritesEveryCellAsOneGpu) {
    SKIP_WITHOUT_GPU();
    int compared = 0;
    for (const StencilConfig& one : point_matrix()) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 13);
        auto step_once = [&initial](const StencilConfig& c) {
            std::string why;
            auto sim = create_simulation(c, test::catalogue(), &why);
            EXPECT_TRUE(sim) << describe(c) << ": " << why;
            if (!sim) return std::vector<double> {};
            sim->upload(initial);
            sim->poison_output();
            sim->step(1);
            return test::updated_only(c, sim->download());
        };
        const auto want = step_once(one);
        ASSERT_FALSE(want.empty());
        for (const StencilConfig& c : splits_of(one)) {
            const auto got = step_once(c);
            EXPECT_TRUE(bitwise_equal(got, want)) << describe(c) << ": " << first_difference(c, got, want);
            ++compared;
        }
    }
    std::printf("compared %d poisoned single steps of point-stencil strips\n", compared);
}

namespace {

// Every strip placement of `c` (test::strip_placements) run kSteps steps from `initial`, each bitwise `want`: how many
// ran.
int expect_placements_equal(
    const StencilConfig& c, const std::vector<double>& initial, const std::vector<double>& want) {
    int ran = 0;
    for (const StencilConfig& placed : test::strip_placements(c)) {
        const Status can = can_implement(placed, test::catalogue());
        EXPECT_TRUE(can) << describe(placed) << ": " << can.reason;
        std::string why;
        const auto got = can ? run(placed, initial, kSteps, &why) : std::vector<double>();
        EXPECT_FALSE(got.empty()) << describe(placed) << ": " << why;
        if (got.empty()) continue;
        EXPECT_TRUE(bitwise_equal(got, want)) << describe(placed) << ": " << first_difference(placed, got, want);
        ++ran;
    }
    return ran;
}

} // namespace

// Temporal point stencils on strips: cut along the axis they stream, each strip carries R x depth ghost rows, traded
// once per fused launch. 5 steps at depth 2 (two fused launches and a single step) equal one GPU's bitwise, and one
// GPU's temporal run equals base's.
TEST(PointStrips, TemporalStripsAreBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    int compared = 0;
    for (const StencilShape& shape : { box_shape(2, 2), *ebisu_shape("3d27pt"), *ebisu_shape("poisson") })
        for (Precision p : { Precision::FP32, Precision::FP64 }) {
            StencilConfig base;
            use_shape(base.problem, shape);
            const int r = base.problem.radius;
            base.problem.precision = p;
            base.problem.size = shape.dims == 2 ? Extent { 2 * r + 66, 2 * r + 60, 1 } : Extent { 40, 36, 2 * r + 30 };
            const auto initial = make_initial_field(base, InitialCondition::Random, 21);
            std::string why;
            const auto want = run(base, initial, kSteps, &why);
            ASSERT_FALSE(want.empty()) << describe(base) << ": " << why;
            StencilConfig one = base;
            one.policy.variant = Variant::Temporal, one.policy.depth = 2;
            EXPECT_TRUE(bitwise_equal(run(one, initial, kSteps, &why), want)) << describe(one) << ": " << why;
            for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged }) {
                StencilConfig c = one;
                c.placement.halo = halo;
                compared += expect_placements_equal(c, initial, want);
            }
        }
    EXPECT_GT(compared, 0);
    std::printf("compared %d temporal point-stencil split runs with base on one GPU\n", compared);
}

// Issue 35: EBISU's stars (every point on an axis) run temporal on the star's kernel; on strips too,
// bitwise one GPU's temporal run (5 steps at depth 2: two fused launches and a single step). 3D at CF 4, as the star's
// own strip test: at CF 1 a 3D strip's single steps differ in the last bit (TemporalStrips.DISABLED_...CfOne...).
TEST(PointStrips, AxisStarTemporalStripsAreBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    int compared = 0;
    for (const char* name : { "2d5pt", "2ds9pt", "3d7pt", "3d13pt" })
        for (Precision p : { Precision::FP32, Precision::FP64 }) {
            StencilConfig one;
            use_shape(one.problem, *ebisu_shape(name));
            const int r = one.problem.radius;
            one.problem.precision = p;
            one.problem.size
                = one.problem.dims == 2 ? Extent { 2 * r + 66, 2 * r + 60, 1 } : Extent { 40, 36, 2 * r + 30 };
            one.policy.variant = Variant::Temporal, one.policy.depth = 2;
            one.policy.cf = one.problem.dims == 3 ? 4 : 1;
            ASSERT_TRUE(runs_as_axis_star(one)) << name;
            const auto initial = make_initial_field(one, InitialCondition::Random, 23);
            std::string why;
            const auto want = run(one, initial, kSteps, &why);
            ASSERT_FALSE(want.empty()) << describe(one) << ": " << why;
            compared += expect_placements_equal(one, initial, want);
        }
    EXPECT_GT(compared, 0);
    std::printf("compared %d temporal axis-star split runs with one GPU\n", compared);
}
