// SPDX-License-Identifier: MIT
// Every variant x CF x radius x dims x precision x rule against the fp64 CPU reference, on random
// data and odd domain sizes, (a) one step into a NaN-poisoned output, (b) several steps.
#include "gpu_test_util.h"

using namespace ss;

namespace {

std::vector<StencilConfig> star_matrix() {
    std::vector<StencilConfig> out;
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced })
        for (int cf : { 1, 2, 4, 8 })
            for (int r : { 1, 2, 3, 4, 8, 16 })
                for (int dims : { 2, 3 })
                    for (Precision p : { Precision::FP32, Precision::FP64 })
                        for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Jacobi, UpdateRule::Wave }) {
                            if (v == Variant::Uncoalesced && cf != 1) continue; // a teaching variant, CF 1 only
                            StencilConfig c;
                            c.policy.variant = v, c.policy.cf = cf, c.problem.radius = r, c.problem.dims = dims,
                            c.problem.precision = p, c.problem.rule = rule;
                            // odd sizes, multiples of neither the block nor CF; >= 2R+1
                            c.problem.size = dims == 2 ? Extent { 2 * r + 67, 2 * r + 29, 1 }
                                                       : Extent { 2 * r + 13, 2 * r + 11, 2 * r + 9 };
                            out.push_back(c);
                        }
    return out;
}

// Returns "" or what went wrong.
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
    return "";
}

} // namespace

TEST(StarKernels, MatchTheCpuReference) {
    SKIP_WITHOUT_GPU();
    const auto configs = star_matrix();
    test::warm_kernel_cache(configs);
    int checked = 0, refused = 0;
    for (const StencilConfig& c : configs) {
        if (Status s = can_implement(c, test::catalogue()); !s) {
            // only the thesis' smem_padded rule (B >= R) or shared-memory capacity may refuse a config here
            const bool expected = s.reason.find("every block dim >= R") != std::string::npos
                || s.reason.find("of shared memory per block") != std::string::npos;
            EXPECT_TRUE(expected) << describe(c) << ": " << s.reason;
            ++refused;
            continue;
        }
        // The wave reads u(t-1) from the output buffer, so it cannot start poisoned.
        if (c.problem.rule != UpdateRule::Wave) {
            EXPECT_EQ(check_against_reference(c, true, 1), "") << describe(c) << " (poisoned)";
        }
        EXPECT_EQ(check_against_reference(c, false, 3), "") << describe(c);
        ++checked;
    }
    std::printf("checked %d configurations, %d refused by validation\n", checked, refused);
    EXPECT_GT(checked, int(configs.size()) * 9 / 10);
}

TEST(DiffusionKernels, EveryRungOfTheLadderMatches) {
    SKIP_WITHOUT_GPU();
    for (Variant v : { Variant::Naive, Variant::Merged, Variant::NoTemp, Variant::Smem })
        for (Precision p : { Precision::FP32, Precision::FP64 })
            for (int dims : { 2, 3 }) {
                StencilConfig c;
                c.problem.stencil = StencilKind::Diffusion4;
                c.policy.variant = v, c.problem.precision = p, c.problem.dims = dims;
                c.problem.size = dims == 2 ? Extent { 71, 37, 1 } : Extent { 45, 33, 5 };
                EXPECT_EQ(check_against_reference(c, true, 1), "") << describe(c) << " (poisoned)";
                EXPECT_EQ(check_against_reference(c, false, 4), "") << describe(c);
            }
}

TEST(StarKernels, ManualBlocksIncludingSmallAndSkinnyOnes) {
    SKIP_WITHOUT_GPU();
    const BlockDims blocks3d[] = { { 8, 8, 8 }, { 64, 2, 2 }, { 16, 16, 4 }, { 1, 32, 32 } };
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded })
        for (const BlockDims& b : blocks3d) {
            StencilConfig c;
            c.policy.variant = v, c.problem.dims = 3, c.problem.radius = 2, c.policy.cf = 2,
            c.problem.rule = UpdateRule::Thesis;
            c.problem.size = { 41, 27, 23 };
            c.policy.heuristic_block = false;
            c.policy.block = b;
            if (!can_implement(c, test::catalogue())) continue;
            EXPECT_EQ(check_against_reference(c, true, 1), "") << describe(c) << " block " << format_block(b);
        }
    for (int bx : { 32, 96, 1024 }) {
        StencilConfig c;
        c.policy.variant = Variant::Stream, c.problem.dims = 2, c.problem.radius = 5;
        c.problem.size = { 1500, 77, 1 };
        c.policy.heuristic_block = false;
        c.policy.block = { bx, 1, 1 };
        std::string why;
        if (!create_simulation(
                c, test::catalogue(), &why)) { // a big block may exceed the register file: refused, not crashed
            EXPECT_NE(why.find("registers/thread"), std::string::npos) << why;
            continue;
        }
        EXPECT_EQ(check_against_reference(c, true, 1), "") << describe(c) << " block " << format_block(c.policy.block);
    }
}
