// SPDX-License-Identifier: MIT
// The CPU backend is the reference for every kernel test, so its own properties are checked here.
#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/problem/physics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace ss;

namespace {
StencilConfig cpu_star(int dims, int radius, UpdateRule rule, Extent size) {
    StencilConfig c;
    c.placement.backend = Backend::Cpu;
    c.problem.dims = dims;
    c.problem.radius = radius;
    c.problem.rule = rule;
    c.problem.size = size;
    return c;
}
std::size_t at(const Extent& e, int x, int y, int z = 0) {
    return (std::size_t(z) * e.ny + y) * e.nx + x;
}
} // namespace

TEST(CpuBackend, ImpulseSpreadsAlongTheAxesOnly) {
    const StencilConfig c = cpu_star(2, 2, UpdateRule::Jacobi, { 11, 11, 1 });
    std::vector<double> f(121, 0.0);
    f[at(c.problem.size, 5, 5)] = 1.0;
    const auto out = cpu_reference(c, f, 1);
    const double w = 1.0 / (2 * 2 * 2);
    EXPECT_DOUBLE_EQ(out[at(c.problem.size, 6, 5)], w);
    EXPECT_DOUBLE_EQ(out[at(c.problem.size, 5, 3)], w);
    EXPECT_DOUBLE_EQ(out[at(c.problem.size, 6, 6)], 0.0); // no diagonal in a star
    EXPECT_DOUBLE_EQ(out[at(c.problem.size, 5, 5)], 0.0); // jacobi has no centre term
}

TEST(CpuBackend, ThesisRuleOfAConstantIsZeroInside) {
    const StencilConfig c = cpu_star(3, 1, UpdateRule::Thesis, { 6, 6, 6 });
    const auto out = cpu_reference(c, std::vector<double>(216, 3.0), 1);
    EXPECT_DOUBLE_EQ(out[at(c.problem.size, 2, 3, 3)], 0.0); // mean of neighbours - centre
    EXPECT_DOUBLE_EQ(out[at(c.problem.size, 0, 3, 3)], 3.0); // the border stays (Dirichlet)
}

TEST(CpuBackend, BorderStaysFixedOverManySteps) {
    StencilConfig c = cpu_star(2, 3, UpdateRule::Jacobi, { 20, 17, 1 });
    const auto f = make_initial_field(c, InitialCondition::Random, 3);
    const auto out = cpu_reference(c, f, 9);
    for (int y = 0; y < 17; ++y)
        for (int x = 0; x < 20; ++x)
            if (x < 3 || x >= 17 || y < 3 || y >= 14) {
                EXPECT_EQ(out[at(c.problem.size, x, y)], f[at(c.problem.size, x, y)]);
            }
}

TEST(CpuBackend, WaveAtRestStaysBoundedAndMoves) {
    StencilConfig c = cpu_star(2, 4, UpdateRule::Wave, { 64, 64, 1 });
    const auto f = make_initial_field(c, InitialCondition::Gaussian, 0);
    const auto out = cpu_reference(c, f, 300);
    double max_abs = 0.0;
    for (double v : out) max_abs = std::max(max_abs, std::fabs(v));
    EXPECT_LT(max_abs, 2.0); // a stable leapfrog scheme does not blow up
    EXPECT_GT(relative_l2_error(out, f), 0.1); // and the pulse has travelled
}

TEST(CpuBackend, DiffusionConservesMassOnPeriodicLayers) {
    StencilConfig c;
    c.placement.backend = Backend::Cpu;
    c.problem.stencil = StencilKind::Diffusion4;
    c.policy.variant = Variant::Smem;
    c.problem.dims = 3;
    c.problem.size = { 24, 20, 3 };
    const auto f = make_initial_field(c, InitialCondition::Random, 5);
    const auto out = cpu_reference(c, f, 20);
    for (int z = 0; z < 3; ++z) {
        const auto begin = f.begin() + z * 480, end = begin + 480;
        const double before = std::accumulate(begin, end, 0.0);
        const double after = std::accumulate(out.begin() + z * 480, out.begin() + (z + 1) * 480, 0.0);
        EXPECT_NEAR(after, before, 1e-9); // the periodic Laplacian sums to zero
    }
    EXPECT_GT(relative_l2_error(out, f), 1e-3);
}

TEST(CpuBackend, SinglePrecisionTracksTheReference) {
    StencilConfig c = cpu_star(3, 2, UpdateRule::Thesis, { 16, 15, 14 });
    c.problem.precision = Precision::FP32;
    auto sim = create_cpu_simulation(c);
    const auto f = make_initial_field(c, InitialCondition::Random, 11);
    sim->upload(f);
    sim->step(3);
    EXPECT_LT(relative_l2_error(sim->download(), cpu_reference(c, f, 3)), 1e-5);
    EXPECT_EQ(sim->iteration(), 3);
}

TEST(CpuBackend, SlicesMatchTheField) {
    StencilConfig c = cpu_star(3, 1, UpdateRule::Jacobi, { 5, 4, 3 });
    auto sim = create_cpu_simulation(c);
    const auto f = make_initial_field(c, InitialCondition::Random, 1);
    sim->upload(f);
    const auto xy = sim->download_slice(SliceAxis::XY, 2);
    const auto xz = sim->download_slice(SliceAxis::XZ, 1);
    const auto yz = sim->download_slice(SliceAxis::YZ, 4);
    ASSERT_EQ(xy.size(), 20u);
    ASSERT_EQ(xz.size(), 15u);
    ASSERT_EQ(yz.size(), 12u);
    EXPECT_EQ(xy[3 * 5 + 1], float(f[at(c.problem.size, 1, 3, 2)]));
    EXPECT_EQ(xz[2 * 5 + 3], float(f[at(c.problem.size, 3, 1, 2)]));
    EXPECT_EQ(yz[1 * 4 + 2], float(f[at(c.problem.size, 4, 2, 1)]));
}

TEST(CpuBackend, PoisonedOutputIsFullyOverwritten) {
    StencilConfig c = cpu_star(2, 2, UpdateRule::Jacobi, { 13, 11, 1 });
    auto sim = create_cpu_simulation(c);
    sim->upload(make_initial_field(c, InitialCondition::Random, 2));
    sim->poison_output();
    sim->step(1);
    const auto out = sim->download();
    for (int y = 2; y < 9; ++y)
        for (int x = 2; x < 11; ++x) EXPECT_TRUE(std::isfinite(out[at(c.problem.size, x, y)]));
    EXPECT_TRUE(std::isnan(out[0])); // the border was poisoned and no step writes it
}

TEST(CpuBackend, InjectKeepsTheBorder) {
    StencilConfig c = cpu_star(2, 2, UpdateRule::Jacobi, { 16, 16, 1 });
    auto sim = create_cpu_simulation(c);
    sim->upload(std::vector<double>(256, 0.0));
    sim->inject(1, 8, 0, 3, 5.0);
    const auto f = sim->download();
    EXPECT_EQ(f[at(c.problem.size, 3, 8)], 5.0);
    EXPECT_EQ(f[at(c.problem.size, 1, 8)], 0.0); // inside the Dirichlet border
}

TEST(RelativeError, Basics) {
    EXPECT_EQ(relative_l2_error({ 1, 2 }, { 1, 2 }), 0.0);
    EXPECT_NEAR(relative_l2_error({ 0, 2 }, { 0, 1 }), 1.0, 1e-15);
    EXPECT_TRUE(std::isinf(relative_l2_error({ 1 }, { 1, 2 })));
    EXPECT_FALSE(relative_l2_error({ std::nan("") }, { 1 }) < 1.0);
}
