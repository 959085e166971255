// SPDX-License-Identifier: MIT
// Point stencils on the GPU (issue 34): box shapes, EBISU's ten and random-weight user stencils (read through the
// JSON file format), base, smem, stream and temporal (depth 2), against the fp64 CPU reference on random data and odd
// domain sizes, (a) one step into a NaN-poisoned output, (b) several steps; smem, stream and temporal agree with base
// bitwise (the same products in the same order).
#include "gpu/plan/axis_star_plan.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/problem/stencil_file.h"
#include "gpu_test_util.h"

#include <cstring>
#include <random>

using namespace ss;

namespace {

// A user stencil as a user would write it: every point of the (2R+1)^dims box kept with probability 2/3, weights
// drawn from [-0.2, 0.2], the point at +R along x always kept so the radius is R.
StencilShape random_user_stencil(int dims, int radius, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> weight(-0.2, 0.2);
    std::string text = "{\"name\": \"random\", \"dims\": " + std::to_string(dims) + ", \"points\": [";
    bool first = true;
    char buf[128];
    for (const StencilPoint& p : box_shape(dims, radius).points) {
        if (rng() % 3 == 0 && !(p.dx == radius && p.dy == 0 && p.dz == 0)) continue;
        if (dims == 3)
            std::snprintf(buf, sizeof buf, "[[%d, %d, %d], %.17g]", p.dx, p.dy, p.dz, weight(rng));
        else
            std::snprintf(buf, sizeof buf, "[[%d, %d], %.17g]", p.dx, p.dy, weight(rng));
        text += (first ? "" : ", ") + std::string(buf);
        first = false;
    }
    StencilShape shape;
    const Status s = parse_stencil_json(text + "]}", "random", shape);
    EXPECT_TRUE(s) << s.reason;
    return shape;
}

BlockDims given_block_of(int dims, Variant v) {
    if (v == Variant::Temporal) return dims == 3 ? BlockDims { 32, 16, 1 } : BlockDims { 128, 1, 1 };
    if (v == Variant::Stream) return dims == 3 ? BlockDims { 32, 4, 1 } : BlockDims { 64, 1, 1 };
    return dims == 3 ? BlockDims { 32, 4, 2 } : BlockDims { 32, 8, 1 };
}

std::vector<StencilConfig> point_matrix() {
    std::vector<StencilShape> shapes { box_shape(2, 1), box_shape(2, 3), box_shape(3, 1), box_shape(3, 2),
        random_user_stencil(2, 4, 1), random_user_stencil(3, 2, 2), random_user_stencil(2, 1, 3) };
    for (const std::string_view name : ebisu_stencil_names()) shapes.push_back(*ebisu_shape(name));
    std::vector<StencilConfig> out;
    for (const StencilShape& shape : shapes)
        for (Variant v : { Variant::Base, Variant::Smem, Variant::Stream, Variant::Temporal })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (int cf : { 1, 2, 4, 8 })
                    for (bool given_block : { false, true }) {
                        // CF 2 and 8 for the stream kernel only: the CFs --variant auto tries for point stencils,
                        // and in 2D the heuristic's rows of up to 1024 threads
                        if ((cf == 2 || cf == 8) && v != Variant::Stream) continue;
                        StencilConfig c;
                        use_shape(c.problem, shape);
                        const int r = c.problem.radius;
                        c.problem.precision = p, c.policy.cf = cf, c.policy.variant = v;
                        c.problem.size = shape.dims == 2 ? Extent { 2 * r + 67, 2 * r + 29, 1 }
                                                         : Extent { 2 * r + 13, 2 * r + 11, 2 * r + 9 };
                        c.policy.heuristic_block = !given_block;
                        // stream and temporal march: a block one deep along the slow axis; temporal fuses 2 steps
                        // per launch (3 steps: one fused launch and one single), its tile wider than 2 R x depth
                        c.policy.block = given_block_of(shape.dims, v);
                        if (v == Variant::Temporal) c.policy.depth = 2;
                        out.push_back(c);
                    }
    return out;
}

std::string check_against_reference(const StencilConfig& c, bool poison, int steps) {
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    if (!sim) return "create failed: " + why;
    const auto initial = test::rounded(make_initial_field(c, InitialCondition::Random, 42), c.problem.precision);
    sim->upload(initial);
    if (poison) sim->poison_output();
    sim->step(steps);
    const auto got = sim->download();
    const auto want = cpu_reference(c, initial, steps);
    const double err = poison ? relative_l2_error(test::updated_only(c, got), test::updated_only(c, want))
                              : relative_l2_error(got, want);
    if (!(err < test::tolerance(c.problem.precision)))
        return "relative L2 error " + std::to_string(err) + " (block " + format_block(sim->resources().block) + ")";
    const Variant v = c.policy.variant;
    // A star (every point on an axis) runs temporal on the star's kernel (axis_star_plan.h).
    const char* kind = v == Variant::Smem ? "ss_points_smem"
        : v == Variant::Stream            ? "ss_points_stream"
        : runs_as_axis_star(c)            ? "ss_temporal"
        : v == Variant::Temporal          ? "ss_points_temporal"
                                          : "ss_points";
    const std::string entry = kind + std::string(c.problem.dims == 3 ? "_3d" : "_2d");
    if (sim->resources().kernel.entry != entry) return "ran " + sim->resources().kernel.entry;
    return "";
}

// The field after `steps` steps from the random field.
std::vector<double> run_steps(const StencilConfig& c, int steps) {
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    EXPECT_TRUE(sim) << describe(c) << ": " << why;
    if (!sim) return {};
    sim->upload(test::rounded(make_initial_field(c, InitialCondition::Random, 7), c.problem.precision));
    sim->step(steps);
    return sim->download();
}

} // namespace

TEST(PointKernels, MatchTheCpuReference) {
    SKIP_WITHOUT_GPU();
    const auto configs = point_matrix();
    test::warm_kernel_cache(configs);
    for (const StencilConfig& c : configs) {
        const Status s = can_implement(c, test::catalogue());
        ASSERT_TRUE(s) << describe(c) << ": " << s.reason;
        // One launch into the poisoned output: a fused one (depth steps) for temporal.
        EXPECT_EQ(check_against_reference(c, true, c.policy.depth), "") << describe(c) << " (poisoned)";
        EXPECT_EQ(check_against_reference(c, false, 3), "") << describe(c);
    }
}

TEST(PointKernels, SmemStreamAndTemporalAgreeWithBaseBitwise) {
    SKIP_WITHOUT_GPU();
    for (const StencilConfig& base : point_matrix()) {
        if (base.policy.variant != Variant::Base || !base.policy.heuristic_block) continue;
        const std::vector<double> a = run_steps(base, 3);
        for (Variant v : { Variant::Smem, Variant::Stream, Variant::Temporal }) {
            StencilConfig other = base;
            other.policy.variant = v;
            other.policy.depth = v == Variant::Temporal ? 2 : 1; // 3 steps: a fused launch and a single step
            // The star's kernel adds a mirrored axis' pair before weighing it: the reference's tolerance, not base's
            // bits (MatchTheCpuReference).
            if (runs_as_axis_star(other)) continue;
            const std::vector<double> b = run_steps(other, 3);
            ASSERT_EQ(a.size(), b.size()) << describe(other);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < a.size(); ++i) differ += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
            EXPECT_EQ(differ, 0u) << describe(other);
        }
    }
}
