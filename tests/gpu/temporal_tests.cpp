// SPDX-License-Identifier: MIT
// The temporal variant (depth steps per launch) against the fp64 CPU reference on random data with the
// output poisoned: step counts that are and are not multiples of the depth, 2D and 3D, radius 1..4 (and
// what larger radii get), both rules it runs, CF, manual blocks, and domains tall enough for many chunks.
#include "gpu/plan/temporal_policy.h"
#include "gpu_test_util.h"

using namespace ss;

namespace {

StencilConfig temporal_config(int dims, int radius, Precision p, UpdateRule rule, int depth, int cf) {
    StencilConfig c;
    c.policy.variant = Variant::Temporal, c.policy.depth = depth, c.policy.cf = cf;
    c.problem.dims = dims, c.problem.radius = radius, c.problem.precision = p, c.problem.rule = rule;
    // odd sizes, multiples of no tile; several tiles across in 2D
    c.problem.size = dims == 2 ? Extent { 8 * radius * depth + 301, 2 * radius + 45, 1 }
                               : Extent { 2 * radius + 53, 2 * radius + 47, 2 * radius + 21 };
    return c;
}

// "" or what went wrong: `steps` steps from random data. Poisoned: the output buffer is NaN first (its
// Dirichlet border too, so only one launch may run: `steps` is the depth or 1) and the updated cells are
// compared; otherwise every cell.
std::string check(const StencilConfig& c, int steps, bool poison) {
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    if (!sim) return "create failed: " + why;
    const auto initial = test::rounded(make_initial_field(c, InitialCondition::Random, 7), c.problem.precision);
    sim->upload(initial);
    if (poison) sim->poison_output();
    sim->step(steps);
    if (sim->iteration() != steps) return "iteration " + std::to_string(sim->iteration());
    const auto got = sim->download();
    const auto want = cpu_reference(c, initial, steps);
    const double err = poison ? relative_l2_error(test::updated_only(c, got), test::updated_only(c, want))
                              : relative_l2_error(got, want);
    if (!(err < test::tolerance(c.problem.precision)))
        return "relative L2 error " + std::to_string(err) + " after " + std::to_string(steps) + " steps (block "
            + format_block(sim->resources().block) + ")";
    return "";
}

} // namespace

TEST(TemporalKernel, MatchesTheCpuReferenceForAnyStepCount) {
    SKIP_WITHOUT_GPU();
    std::vector<StencilConfig> configs;
    for (int dims : { 2, 3 })
        for (int r : { 1, 2, 3, 4 })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Jacobi })
                    for (int depth : { 1, 2, 3, 5 })
                        for (int cf : { 1, 4 }) {
                            StencilConfig c = temporal_config(dims, r, p, rule, depth, cf);
                            if (can_implement(c, test::catalogue())) configs.push_back(c);
                        }
    test::warm_kernel_cache(configs);
    for (const StencilConfig& c : configs) {
        const int depth = c.policy.depth;
        EXPECT_EQ(check(c, depth, true), "") << describe(c) << " (one fused launch, poisoned)";
        if (depth > 1) {
            EXPECT_EQ(check(c, 1, true), "") << describe(c) << " (the one-step kernel, poisoned)";
        }
        EXPECT_EQ(check(c, 2 * depth + 1, false), "") << describe(c) << " (two fused launches and a single step)";
    }
    // Refusals (the register budget, 3D tiles no wider than their halo) must leave most of the matrix.
    std::printf("checked %zu temporal configurations\n", configs.size());
    EXPECT_GE(configs.size(), std::size_t(2 * 4 * 2 * 2 * 4 * 2 * 6 / 10));
}

TEST(TemporalKernel, LargerRadiiRunWhereTheTileHoldsTheirHalo) {
    SKIP_WITHOUT_GPU();
    for (int dims : { 2, 3 })
        for (int r : { 8, 16 })
            for (int depth : { 1, 2 }) {
                StencilConfig c
                    = temporal_config(dims, r, Precision::FP32, UpdateRule::Jacobi, depth, dims == 3 ? 2 : 1);
                const Status s = can_implement(c, test::catalogue());
                // 3D tiles are 32 rows: R x depth >= 16 leaves no core (CF 2 keeps R16 within the register budget)
                const bool fits = dims == 2 || r * depth < 16;
                EXPECT_EQ(bool(s), fits) << describe(c) << ": " << s.reason;
                if (!s) {
                    EXPECT_NE(s.reason.find("must be wider than"), std::string::npos) << s.reason;
                    continue;
                }
                EXPECT_EQ(check(c, depth, true), "") << describe(c);
                EXPECT_EQ(check(c, 2 * depth + 1, false), "") << describe(c);
            }
}

TEST(TemporalKernel, ManualBlocksAndTallDomainsWithManyChunks) {
    SKIP_WITHOUT_GPU();
    struct Case {
        int dims, radius, depth, cf;
        BlockDims block;
        Extent size;
    };
    const Case cases[] = {
        { 2, 1, 9, 1, { 96, 1, 1 }, { 500, 1201, 1 } }, // odd block width; chunks of 16 R depth rows
        { 2, 2, 4, 2, { 64, 1, 1 }, { 1000, 777, 1 } },
        { 2, 1, 12, 4, { 32, 1, 1 }, { 333, 999, 1 } },
        { 3, 1, 3, 2, { 32, 16, 1 }, { 70, 61, 301 } },
        { 3, 2, 2, 1, { 16, 24, 1 }, { 45, 50, 130 } },
    };
    for (const Case& k : cases) {
        StencilConfig c = temporal_config(k.dims, k.radius, Precision::FP32, UpdateRule::Thesis, k.depth, k.cf);
        c.policy.heuristic_block = false, c.policy.block = k.block, c.problem.size = k.size;
        ASSERT_TRUE(can_implement(c, test::catalogue())) << describe(c);
        EXPECT_EQ(check(c, k.depth, true), "") << describe(c) << " block " << format_block(k.block);
        EXPECT_EQ(check(c, 2 * k.depth + 1, false), "") << describe(c) << " block " << format_block(k.block);
    }
}

TEST(TemporalKernel, TheGridIsOverlappedTilesAndTheResourcesAreReported) {
    SKIP_WITHOUT_GPU();
    StencilConfig c = temporal_config(2, 1, Precision::FP32, UpdateRule::Jacobi, 9, 1);
    c.problem.size = { 8352, 1000, 1 };
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    ASSERT_TRUE(sim) << why;
    const KernelResources& r = sim->resources();
    EXPECT_EQ(r.block.x, 256); // the heuristic keeps EBISU's 256-wide tile at CF 1
    EXPECT_EQ(r.dynamic_smem, int(temporal_smem_bytes(c, r.block)));
    EXPECT_EQ(r.grid_blocks % 36, 0) << "8352 cells need 36 tiles of 238 core cells: " << r.grid_blocks;
}
