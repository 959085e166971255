// SPDX-License-Identifier: MIT
#include "gpu/plan/knob_neighbours.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ss {
namespace {

bool has(const std::vector<StencilConfig>& list, const StencilConfig& c) {
    return std::find(list.begin(), list.end(), c) != list.end();
}

TEST(KnobNeighbours, OneKnobAwayInEveryDirectionThatExists) {
    StencilConfig c;
    c.problem.radius = 1;
    c.policy.cf = 1;
    const std::vector<StencilConfig> n = knob_neighbours(c);
    StencilConfig r2 = c, cf2 = c, fp64 = c;
    r2.problem.radius = 2;
    cf2.policy.cf = 2;
    fp64.problem.precision = Precision::FP64;
    EXPECT_TRUE(has(n, r2));
    EXPECT_TRUE(has(n, cf2));
    EXPECT_TRUE(has(n, fp64));
    EXPECT_FALSE(has(n, c));
    for (const StencilConfig& x : n) EXPECT_GE(x.problem.radius, 1); // no radius 0, no CF 0
    EXPECT_EQ(n.size(), 3u); // radius +1, CF 2, the other precision
}

TEST(KnobNeighbours, TemporalDepthAndGivenBlocks) {
    StencilConfig c;
    c.problem.radius = 16; // the largest: no radius 17
    c.policy.variant = Variant::Temporal;
    c.policy.depth = 4;
    c.policy.cf = 8; // the largest CF: only 4 follows
    c.policy.heuristic_block = false;
    c.policy.block = { 32, 8, 1 };
    const std::vector<StencilConfig> n = knob_neighbours(c);
    int depths = 0, blocks = 0;
    for (const StencilConfig& x : n) {
        EXPECT_LE(x.problem.radius, 16);
        EXPECT_NE(x.policy.cf, 16);
        depths += x.policy.depth != 4 ? 1 : 0;
        blocks += !(x.policy.block == c.policy.block) ? 1 : 0;
    }
    EXPECT_EQ(depths, 2);
    EXPECT_EQ(blocks, 4); // 16x8, 64x8, 32x4, 32x16
}

} // namespace
} // namespace ss
