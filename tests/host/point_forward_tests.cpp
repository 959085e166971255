// SPDX-License-Identifier: MIT
// The forward point stream and temporal kernels' generated step (STENCILSCOPE_POINT_FORWARD, gpu/kernels/points.cuh):
// every in-plane operand loaded once, every point added to the sum of the output plane it belongs to, each sum in the
// shape's order, so the result keeps base's bits. Text only: the NVRTC test compiles it, the GPU tests run it.
#include "gpu/backends/cuda/point_kernel_source.h"
#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/stencil_catalog.h"
#include "kernel_source_of.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

namespace ss {
namespace {

struct ForwardStep {
    int loads = 0; // "const T vN = tile[...]" lines
    int centres = 0; // "const T vN = centre;" lines: the cell's own operand, from the caller's register
    std::map<int, std::vector<std::string>> weights_per_sum; // acc index -> the weights added, in order
};

ForwardStep parse(const std::string& text) {
    ForwardStep f;
    std::istringstream lines(text);
    const std::regex load(R"(^\s*const T v\d+ = tile\[s.*\];$)");
    const std::regex centre(R"(^\s*const T v\d+ = centre;$)");
    const std::regex add(R"(^\s*acc\[(\d+)\] = fma_rn\(T\(([^)]*)\), v\d+, acc\[(\d+)\]\);$)");
    std::smatch m;
    for (std::string line; std::getline(lines, line);) {
        if (std::regex_match(line, load)) ++f.loads;
        if (std::regex_match(line, centre)) ++f.centres;
        if (std::regex_match(line, m, add)) {
            EXPECT_EQ(m[1], m[3]) << line;
            f.weights_per_sum[std::stoi(m[1])].push_back(m[2]);
        }
    }
    return f;
}

std::string hex(double w) {
    char text[64];
    std::snprintf(text, sizeof text, "%a", w);
    return text;
}

TEST(PointForward, EachOperandIsLoadedOnceAndEachSumKeepsTheShapesOrder) {
    for (const StencilShape& shape :
        { box_shape(2, 1), box_shape(2, 3), box_shape(3, 1), *ebisu_shape("2d5pt"), *ebisu_shape("poisson") }) {
        const std::string text = point_sum_source(shape, Variant::Stream, false, true);
        ASSERT_NE(text.find("void point_forward("), std::string::npos) << shape.name;
        EXPECT_EQ(text.find("point_sum_ring"), std::string::npos) << shape.name;
        const ForwardStep f = parse(text);
        // Operands: the distinct in-plane offsets (a box: (2R+1)^(dims-1) x (2R+1) cells of one plane), the
        // cell's own one from the caller's register.
        const int r = shape.radius(), side = 2 * r + 1;
        if (shape.name == "box") {
            EXPECT_EQ(f.loads, (shape.dims == 3 ? side * side : side) - 1) << shape.name;
        }
        EXPECT_EQ(f.centres, 1) << shape.name; // every shape here has points on the marching axis
        // Sum m takes the points 'R - m' planes along the marching axis, in the shape's order.
        std::map<int, std::vector<std::string>> expected;
        for (const StencilPoint& p : shape.points)
            expected[r - (shape.dims == 3 ? p.dz : p.dy)].push_back(hex(p.weight));
        EXPECT_EQ(f.weights_per_sum, expected) << shape.name;
    }
}

TEST(PointForward, OnlyTheStreamAndTemporalKernelsSumForward) {
    const StencilShape box = box_shape(2, 2);
    EXPECT_NE(point_sum_source(box, Variant::Stream, false, false).find("point_sum_ring"), std::string::npos);
    EXPECT_NE(point_sum_source(box, Variant::Temporal, false, false).find("point_sum_ring"), std::string::npos);
    EXPECT_NE(point_sum_source(box, Variant::Temporal, false, true).find("point_forward"), std::string::npos);
    EXPECT_EQ(point_sum_source(box, Variant::Base, false, true).find("point_forward"), std::string::npos);
    EXPECT_EQ(point_sum_source(box, Variant::Smem, false, true).find("point_forward"), std::string::npos);
}

// STENCILSCOPE_POINT_FORWARD unset (2): forward sums except for 2D radius 1, where the H100 measured the ring faster.
TEST(PointForward, ByDefaultEveryPointStreamKernelButTheTwoDimensionalRadiusOneSumsForward) {
    if (knob_integer(Knob::PointForward) != 2) GTEST_SKIP() << "STENCILSCOPE_POINT_FORWARD is set to another mode";
    const auto config = [](int dims, int radius, Variant variant) {
        StencilConfig c;
        use_shape(c.problem, box_shape(dims, radius));
        c.policy.variant = variant;
        return c;
    };
    EXPECT_FALSE(point_stream_forward(config(2, 1, Variant::Stream)));
    EXPECT_TRUE(point_stream_forward(config(2, 2, Variant::Stream)));
    EXPECT_TRUE(point_stream_forward(config(2, 3, Variant::Stream)));
    EXPECT_TRUE(point_stream_forward(config(3, 1, Variant::Stream)));
    EXPECT_FALSE(point_stream_forward(config(3, 1, Variant::Temporal)));
    StencilConfig star;
    star.policy.variant = Variant::Stream;
    EXPECT_FALSE(point_stream_forward(star));
}

// The temporal kernel sums forward for every point stencil (2D radius 1 too) unless the knob is 0; its stages then
// share two planes, and each cell keeps 2R+1 sums per stage in registers.
TEST(PointForward, ThePointTemporalKernelSumsForwardInTwoPlanes) {
    if (knob_integer(Knob::PointForward) == 0) GTEST_SKIP() << "STENCILSCOPE_POINT_FORWARD=0 keeps the ring";
    StencilConfig c;
    use_shape(c.problem, box_shape(2, 1));
    c.policy.variant = Variant::Temporal;
    c.policy.depth = 6;
    EXPECT_TRUE(point_temporal_forward(c));
    const BlockDims block { 256, 1, 1 };
    EXPECT_EQ(point_temporal_smem_bytes(c, block), 2 * temporal_sync_rows(c) * (256 + 2) * 4) << "two slots of rows";
    EXPECT_EQ(temporal_pending_registers(c), 3 * 6);
    if (knob_integer(Knob::TemporalSyncRows) == 0) {
        EXPECT_EQ(temporal_sync_rows(c), 4) << "2D R1 at CF 1: four rows per barrier";
        c.policy.cf = 2;
        EXPECT_EQ(temporal_sync_rows(c), 2) << "2D R1 at CF 2: two";
    }
    c.policy.variant = Variant::Stream;
    EXPECT_FALSE(point_temporal_forward(c));
    StencilConfig star;
    star.policy.variant = Variant::Temporal;
    EXPECT_FALSE(point_temporal_forward(star));
}

// Forward sums live in registers: a depth whose (2R+1) x CF x depth sums pass the budget is refused in one line.
TEST(PointForward, TooManyForwardSumsAreRefused) {
    if (knob_integer(Knob::PointForward) == 0) GTEST_SKIP() << "STENCILSCOPE_POINT_FORWARD=0 keeps the ring";
    StencilConfig c;
    use_shape(c.problem, box_shape(2, 3));
    c.policy.variant = Variant::Temporal;
    c.policy.depth = 12;
    EXPECT_TRUE(check_temporal_policy(c).ok); // 7 x 1 x 12 = 84 registers
    c.policy.cf = 2; // 7 x 2 x 12 = 168, past the 160 of kTemporalRegisterBudget
    const Status refused = check_temporal_policy(c);
    EXPECT_FALSE(refused.ok);
    EXPECT_NE(refused.reason.find("(2 x R + 1) x CF x depth"), std::string::npos) << refused.reason;
}

// A point stencil with every point on an axis runs the star's kernel (axis_star_plan.h): its budget is the star's 2R
// sums, so 3d7pt fp64 at CF 4 and depth 8 (2 x 4 x 8 x 2 = 128 registers) runs where 3d27pt's 3 sums (192) do not.
TEST(PointForward, AnAxisStarIsBudgetedAsTheStarsKernel) {
    if (knob_integer(Knob::PointForward) == 0) GTEST_SKIP() << "STENCILSCOPE_POINT_FORWARD=0 keeps the ring";
    const auto config = [](const char* name) {
        StencilConfig c;
        use_shape(c.problem, *ebisu_shape(name));
        c.problem.precision = Precision::FP64;
        c.policy.variant = Variant::Temporal;
        c.policy.cf = 4, c.policy.depth = 8;
        return c;
    };
    if (knob_flag(Knob::PointAxisStar)) {
        const Status star = check_temporal_policy(config("3d7pt"));
        EXPECT_TRUE(star.ok) << star.reason;
    }
    const Status box = check_temporal_policy(config("3d27pt"));
    EXPECT_FALSE(box.ok);
    EXPECT_NE(box.reason.find("needs 192 registers"), std::string::npos) << box.reason;
}

} // namespace
} // namespace ss
