// SPDX-License-Identifier: MIT
// The temporal variant on strips (issue 20): ghost rows of depth R x depth, one fused launch over each strip as a
// domain of its own, then a trade. On the testing hook's 2 and 3 strips of one device (and on real GPUs where
// present), 2D and 3D, fp32 and fp64, both rules, several depths: bitwise equal to one GPU after step counts that
// are and are not multiples of the depth, and equal to the fp64 CPU reference on random data with the output
// poisoned first.
#include "gpu/plan/strip_plan.h"
#include "gpu_test_util.h"
#include "strip_test_util.h"

#include <cstring>

using namespace ss;
using test::bitwise_equal;
using test::first_difference;

namespace {

// Odd extents, multiples of no tile; 3 strips along the streaming axis are still thicker than R x depth (6).
StencilConfig temporal_config(int dims, int radius, Precision p, int depth) {
    StencilConfig c;
    c.policy.variant = Variant::Temporal, c.policy.depth = depth, c.policy.cf = dims == 3 ? 4 : 1;
    c.problem.dims = dims, c.problem.radius = radius, c.problem.precision = p;
    c.problem.rule = depth % 2 ? UpdateRule::Jacobi : UpdateRule::Thesis;
    c.problem.size
        = dims == 2 ? Extent { 333, 2 * radius + 47, 1 } : Extent { 2 * radius + 53, 2 * radius + 47, 2 * radius + 29 };
    return c;
}

std::vector<StencilConfig> matrix() {
    std::vector<StencilConfig> out;
    for (int dims : { 2, 3 })
        for (int r : { 1, 2 })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (int depth : { 2, 3 }) out.push_back(temporal_config(dims, r, p, depth));
    return out;
}

// 2 and 3 strips on one device (copies on the device, overlap on: the rows the neighbours need launched first;
// 2 strips also staged through the host with overlap on, 3 with overlap off), and every real GPU count present.
std::vector<StencilConfig> splits_of(const StencilConfig& one) {
    std::vector<StencilConfig> out;
    for (int n : { 2, 3 }) {
        StencilConfig c = one;
        c.placement.strips_per_device = n;
        out.push_back(c);
        if (n == 2) c.placement.halo = HaloMode::Staged, out.push_back(c); // staged, overlapped
        if (n == 3) c.placement.halo = HaloMode::Staged, c.placement.overlap = false, out.push_back(c);
    }
    for (int g = 2; g <= int(test::catalogue().devices.size()); ++g) {
        StencilConfig c = one;
        c.placement.gpus = g;
        if (can_implement(c, test::catalogue())) out.push_back(c);
    }
    return out;
}

struct RunResult {
    std::vector<double> field;
    std::string why;
    long long iteration = 0;
    MultiGpuStats stats;
};

// `batches` step calls (as the GUI and the CLI make them) from `initial`, the output poisoned first if asked.
RunResult run(
    const StencilConfig& c, const std::vector<double>& initial, std::initializer_list<int> batches, bool poison) {
    RunResult r;
    auto sim = create_simulation(c, test::catalogue(), &r.why);
    if (!sim) return r;
    sim->upload(initial);
    if (poison) sim->poison_output();
    for (int n : batches) sim->step(n);
    r.field = sim->download();
    r.iteration = sim->iteration();
    r.stats = sim->multi_gpu_stats();
    return r;
}

std::vector<StencilConfig> with_splits(const std::vector<StencilConfig>& configs) {
    std::vector<StencilConfig> all = configs;
    for (const StencilConfig& c : configs)
        for (const StencilConfig& s : splits_of(c)) all.push_back(s);
    return all;
}

} // namespace

TEST(TemporalStrips, AreBitwiseEqualToOneGpuForAnyStepCount) {
    SKIP_WITHOUT_GPU();
    const auto configs = matrix();
    test::warm_kernel_cache(with_splits(configs)); // 2D strips compile their own text (the extent is compiled in)
    int compared = 0;
    for (const StencilConfig& one : configs) {
        const int t = one.policy.depth;
        const auto initial = make_initial_field(one, InitialCondition::Random, 11);
        // 2t + 1 steps in one call (two fused launches, one single step), then t + 1 and t - 1 in two more calls.
        const RunResult want = run(one, initial, { 2 * t + 1, t + 1, t - 1 }, false);
        ASSERT_FALSE(want.field.empty()) << describe(one) << ": " << want.why;
        const auto reference = cpu_reference(one, test::rounded(initial, one.problem.precision), 4 * t + 1);
        const double err = relative_l2_error(want.field, reference);
        EXPECT_LT(err, test::tolerance(one.problem.precision)) << describe(one);
        for (const StencilConfig& c : splits_of(one)) {
            const RunResult got = run(c, initial, { 2 * t + 1, t + 1, t - 1 }, false);
            ASSERT_FALSE(got.field.empty()) << describe(c) << ": " << got.why;
            EXPECT_EQ(got.iteration, 4 * t + 1) << describe(c);
            EXPECT_TRUE(bitwise_equal(got.field, want.field))
                << describe(c) << ": " << first_difference(c, got.field, want.field);
            ++compared;
        }
    }
    std::printf("compared %d temporal split runs with their one-GPU runs\n", compared);
}

// The defect of 2026-11-27 (docs/PERFORMANCE.md, "Temporal blocking on strips"): in 3D at CF 1 a single-step launch
// on strips gave other bits than one GPU's. ptxas fused a shared product into some sums and not others, differently
// per text; since temporal.cuh spells every FMA out (2026-11-28) it agrees (two H200s).
TEST(TemporalStrips, ThreeDAtCfOneAreBitwiseAfterSingleSteps) {
    SKIP_WITHOUT_GPU();
    StencilConfig one = temporal_config(3, 1, Precision::FP32, 3);
    one.policy.cf = 1, one.problem.rule = UpdateRule::Jacobi, one.problem.size = { 64, 48, 120 };
    const auto initial = make_initial_field(one, InitialCondition::Random, 1);
    for (int steps : { 1, 4 }) {
        const RunResult want = run(one, initial, { steps }, false);
        ASSERT_FALSE(want.field.empty()) << want.why;
        for (const StencilConfig& c : splits_of(one)) {
            const RunResult got = run(c, initial, { steps }, false);
            ASSERT_FALSE(got.field.empty()) << describe(c) << ": " << got.why;
            EXPECT_TRUE(bitwise_equal(got.field, want.field))
                << describe(c) << ", " << steps << " steps: " << first_difference(c, got.field, want.field);
        }
    }
}

// One fused launch from random data into a poisoned (NaN) output buffer: every updated cell of every strip must
// be written by its own launch, from the right ghost rows, and match the fp64 CPU reference; and one single step.
TEST(TemporalStrips, MatchTheCpuReferenceWithTheOutputPoisoned) {
    SKIP_WITHOUT_GPU();
    const auto configs = matrix();
    test::warm_kernel_cache(with_splits(configs));
    for (const StencilConfig& one : configs)
        for (int steps : { one.policy.depth, 1 }) {
            const auto initial
                = test::rounded(make_initial_field(one, InitialCondition::Random, 5), one.problem.precision);
            const auto want = test::updated_only(one, cpu_reference(one, initial, steps));
            const RunResult single = run(one, initial, { steps }, true);
            ASSERT_FALSE(single.field.empty()) << single.why;
            for (const StencilConfig& c : splits_of(one)) {
                const RunResult got = run(c, initial, { steps }, true);
                ASSERT_FALSE(got.field.empty()) << describe(c) << ": " << got.why;
                const auto cells = test::updated_only(c, got.field);
                const double err = relative_l2_error(cells, want);
                EXPECT_LT(err, test::tolerance(c.problem.precision)) << describe(c) << ", " << steps << " steps";
                EXPECT_TRUE(bitwise_equal(cells, test::updated_only(one, single.field)))
                    << describe(c) << ", " << steps << " steps poisoned";
            }
        }
}

// What the metrics panel shows: ghost rows of R x depth, bytes per step = both sides' G rows per trade / depth,
// overlap on (the rows the neighbours need are launched first, the trade overlaps the rest); and the display plane
// gathered from the strips' own rows equals one GPU's.
TEST(TemporalStrips, StatsAndDisplayFollowTheGhostDepth) {
    SKIP_WITHOUT_GPU();
    for (int dims : { 2, 3 }) {
        StencilConfig one = temporal_config(dims, 2, Precision::FP32, 3);
        StencilConfig c = one;
        c.placement.strips_per_device = 3; // overlap on, as by default
        std::string why;
        auto split = create_simulation(c, test::catalogue(), &why);
        ASSERT_TRUE(split) << why;
        auto single = create_simulation(one, test::catalogue(), &why);
        ASSERT_TRUE(single) << why;
        const auto initial = make_initial_field(one, InitialCondition::Random, 3);
        split->upload(initial), single->upload(initial);
        split->step(7), single->step(7);
        const MultiGpuStats stats = split->multi_gpu_stats();
        EXPECT_EQ(stats.ghost_depth, 6);
        EXPECT_TRUE(stats.overlap);
        ASSERT_EQ(stats.strips.size(), 3u);
        const std::int64_t row_bytes = c.problem.size.cells() / extent_along(c.problem.size, dims - 1) * 4;
        EXPECT_EQ(stats.halo_bytes(), 4 * 6 * row_bytes / 3) << "4 ghost zones of 6 rows, traded every 3 steps";
        EXPECT_EQ(stats.strips[1].halo_bytes, 2 * 6 * row_bytes / 3);
        const SliceAxis along = dims == 2 ? SliceAxis::XY : SliceAxis::XZ; // a plane crossing every strip
        const int index = dims == 2 ? 0 : one.problem.size.ny / 2;
        const std::vector<float> got = split->download_slice(along, index), want = single->download_slice(along, index);
        ASSERT_EQ(got.size(), want.size());
        EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)), 0) << describe(c);
    }
}
