// SPDX-License-Identifier: MIT
#include "gpu/problem/physics.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ss;

TEST(Weights, SecondDerivativeMatchesKnownStencils) {
    const auto r1 = second_derivative_weights(1);
    EXPECT_DOUBLE_EQ(r1[0], -2.0);
    EXPECT_DOUBLE_EQ(r1[1], 1.0);
    const auto r2 = second_derivative_weights(2);
    EXPECT_NEAR(r2[0], -5.0 / 2.0, 1e-15);
    EXPECT_NEAR(r2[1], 4.0 / 3.0, 1e-15);
    EXPECT_NEAR(r2[2], -1.0 / 12.0, 1e-15);
    const auto r4 = second_derivative_weights(4);
    EXPECT_NEAR(r4[0], -205.0 / 72.0, 1e-14);
    EXPECT_NEAR(r4[4], -1.0 / 560.0, 1e-15);
}

TEST(Weights, SecondDerivativeIsExactOnQuadratics) {
    for (int r = 1; r <= 16; ++r) {
        const auto a = second_derivative_weights(r);
        double constant = a[0], quadratic = 0.0;
        for (int k = 1; k <= r; ++k) constant += 2 * a[k], quadratic += 2 * a[k] * k * k;
        EXPECT_NEAR(constant, 0.0, 1e-12) << "R" << r; // d2/dx2 of 1 is 0
        EXPECT_NEAR(quadratic, 2.0, 1e-9) << "R" << r; // d2/dx2 of x^2 is 2
    }
}

TEST(Weights, ThesisRuleDividesByTwoDR) {
    const StarWeights w = star_weights(UpdateRule::Thesis, 3, 4);
    EXPECT_DOUBLE_EQ(w.neighbour[1], 1.0 / 24.0);
    EXPECT_DOUBLE_EQ(w.centre, -1.0);
    EXPECT_DOUBLE_EQ(star_weights(UpdateRule::Jacobi, 2, 3).centre, 0.0);
}

TEST(Weights, WaveCourantFactorIsStable) {
    for (int dims : { 2, 3 })
        for (int r = 1; r <= 16; ++r) {
            const StarWeights w = star_weights(UpdateRule::Wave, dims, r);
            const auto a = second_derivative_weights(r);
            double lambda = a[0];
            for (int k = 1; k <= r; ++k) lambda += 2 * a[k] * ((k % 2) ? -1 : 1);
            EXPECT_GT(w.wave_c2, 0.0);
            EXPECT_LE(w.wave_c2 * dims * std::fabs(lambda), 4.0); // leapfrog stability
        }
}

TEST(Cells, UpdatedCellsExcludeTheDirichletBorder) {
    StencilConfig c;
    c.problem.dims = 3;
    c.problem.size = { 10, 12, 14 };
    c.problem.radius = 2;
    EXPECT_EQ(updated_cells(c), 6 * 8 * 10);
    c.problem.stencil = StencilKind::Diffusion4;
    EXPECT_EQ(updated_cells(c), 10 * 12 * 14);
}

TEST(Cells, IdealBytes) {
    StencilConfig c;
    EXPECT_EQ(ideal_bytes_per_cell(c), 8);
    c.problem.rule = UpdateRule::Wave;
    EXPECT_EQ(ideal_bytes_per_cell(c), 12);
    c.problem.precision = Precision::FP64;
    EXPECT_EQ(ideal_bytes_per_cell(c), 24);
}

TEST(InitialConditions, ShapesAndDeterminism) {
    StencilConfig c;
    c.problem.size = { 32, 16, 1 };
    const auto a = make_initial_field(c, InitialCondition::Random, 7);
    const auto b = make_initial_field(c, InitialCondition::Random, 7);
    const auto d = make_initial_field(c, InitialCondition::Random, 8);
    ASSERT_EQ(a.size(), 512u);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, d);
    const auto sq = make_initial_field(c, InitialCondition::Square, 0);
    EXPECT_EQ(sq[8 * 32 + 16], 1.0);
    EXPECT_EQ(sq[0], 0.0);
    const auto hot = make_initial_field(c, InitialCondition::HotEdges, 0);
    EXPECT_EQ(hot[0], 1.0);
    EXPECT_EQ(hot[8 * 32 + 16], 0.0);
    const auto g = make_initial_field(c, InitialCondition::Gaussian, 0);
    EXPECT_GT(g[8 * 32 + 16], g[0]);
    EXPECT_EQ(parse_initial("hot-edges"), InitialCondition::HotEdges);
    EXPECT_FALSE(parse_initial("lava").has_value());
}
