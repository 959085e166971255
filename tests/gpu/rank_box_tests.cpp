// SPDX-License-Identifier: MIT
// A process grid's boxes on one GPU (issue 37), run as MPI runs them but in one process (rank_grid_split_run.h):
// under --overlap a step computes the layers next to its z and y faces first, y's as ranges of rows
// (CudaSimulation::launch_star_box), and those faces travel before the rest of the box is computed. After K steps
// the field equals one GPU's bitwise, for the stream kernel (CF rows along y, fp64 tensor cores where chosen), the
// star's base and smem kernels and a point stencil, on grids cutting y, z, both, or all three axes.
#include "../host/rank_grid_split_run.h"
#include "gpu/problem/stencil_catalog.h"
#include "strip_test_util.h"

using namespace ss;

namespace {

constexpr int kSteps = 5;

struct GridCase {
    StencilConfig whole;
    std::vector<std::vector<int>> grids;
};

StencilConfig star(Extent size, int radius, Variant v, Precision p, int cf) {
    StencilConfig c;
    c.problem.dims = 3, c.problem.size = size, c.problem.radius = radius, c.problem.precision = p;
    c.problem.initial = InitialCondition::Random; // every cell differs: a cell computed twice or not at all shows
    c.policy.variant = v, c.policy.cf = cf;
    c.placement.backend = Backend::Cuda;
    return c;
}

std::vector<GridCase> cases() {
    StencilConfig points = star({ 30, 28, 33 }, 1, Variant::Stream, Precision::FP64, 1);
    use_shape(points.problem, *ebisu_shape("3d27pt"));
    return {
        { star({ 40, 36, 30 }, 1, Variant::Stream, Precision::FP64, 1), { { 1, 2, 2 }, { 2, 2, 1 }, { 2, 2, 2 } } },
        { star({ 40, 45, 30 }, 3, Variant::Stream, Precision::FP32, 4), { { 1, 2, 1 }, { 1, 3, 2 } } },
        { star({ 56, 52, 40 }, 2, Variant::Stream, Precision::FP64, 1), { { 1, 2, 2 } } },
        { star({ 36, 34, 30 }, 2, Variant::Smem, Precision::FP32, 1), { { 2, 2, 2 } } },
        { star({ 36, 31, 26 }, 1, Variant::Base, Precision::FP32, 2), { { 1, 2, 1 } } },
        { points, { { 1, 2, 3 }, { 2, 2, 1 } } },
    };
}

} // namespace

TEST(RankBoxes, OverlappedBoxesOnOneGpuEqualOneGpuBitwise) {
    SKIP_WITHOUT_GPU();
    for (const GridCase& g : cases()) {
        std::string why;
        const std::vector<double> one = test::run(g.whole, initial_field(g.whole), kSteps, &why);
        ASSERT_FALSE(one.empty()) << why;
        for (const std::vector<int>& grid : g.grids)
            for (bool overlap : { true, false }) {
                StencilConfig c = g.whole;
                c.placement.overlap = overlap;
                const std::vector<double> split = test::run_grid_split(c, grid, kSteps, true, test::catalogue());
                EXPECT_TRUE(test::bitwise_equal(split, one))
                    << describe(c) << " on " << rank_grid_text(grid) << (overlap ? " overlapped: " : ": ")
                    << test::first_difference(c, split, one);
            }
    }
}
