// SPDX-License-Identifier: MIT
#include "gpu/problem/arithmetic_intensity.h"
#include "gpu/problem/stencil_catalog.h"

#include <gtest/gtest.h>

namespace ss {
namespace {

StencilConfig star(int dims, int radius, Precision precision, UpdateRule rule = UpdateRule::Jacobi) {
    StencilConfig c;
    c.problem.dims = dims;
    c.problem.radius = radius;
    c.problem.precision = precision;
    c.problem.rule = rule;
    return c;
}

TEST(ArithmeticIntensity, StarCountsOneProductAndAMultiplyAddPerPoint) {
    EXPECT_EQ(flops_per_cell(star(2, 1, Precision::FP32)), 7); // jacobi: 4 points, the centre weighs nothing
    EXPECT_EQ(flops_per_cell(star(3, 4, Precision::FP32)), 47); // 24 points
    EXPECT_EQ(flops_per_cell(star(2, 1, Precision::FP32, UpdateRule::Thesis)), 9); // 5 points
    EXPECT_EQ(flops_per_cell(star(2, 1, Precision::FP32, UpdateRule::Wave)), 10);
}

TEST(ArithmeticIntensity, IdealIntensityIsFlopsOverTheBytesOfOneReadAndOneWrite) {
    EXPECT_DOUBLE_EQ(ideal_arithmetic_intensity(star(2, 1, Precision::FP32)), 7.0 / 8.0);
    EXPECT_DOUBLE_EQ(ideal_arithmetic_intensity(star(2, 1, Precision::FP64)), 7.0 / 16.0);
}

TEST(ArithmeticIntensity, PointStencilsCountTheirPoints) {
    StencilConfig c = star(2, 3, Precision::FP32);
    c.problem.stencil = StencilKind::Points;
    use_shape(c.problem, box_shape(2, 3));
    EXPECT_EQ(flops_per_cell(c), 2 * 49 - 1);
    const auto poisson = ebisu_shape("poisson");
    ASSERT_TRUE(poisson);
    use_shape(c.problem, *poisson);
    EXPECT_EQ(flops_per_cell(c), 2 * 19 - 1);
}

TEST(ArithmeticIntensity, DiffusionIsTwoLaplaciansAndTheUpdate) {
    StencilConfig c = star(2, 1, Precision::FP64);
    c.problem.stencil = StencilKind::Diffusion4;
    EXPECT_EQ(flops_per_cell(c), 2 * 9 + 2);
}

} // namespace
} // namespace ss
