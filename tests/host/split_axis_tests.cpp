// SPDX-License-Identifier: MIT
// The split axis without a GPU (issue 21): the plan along x, y or z, the layers' sizes, every refusal with its one
// reason, and the CLI's --split.
#include "gpu/backends/rank_strip.h"
#include "gpu/backends/simulation.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/validation.h"
#include "reports/run_options.h"
#include "test_devices.h"

#include <gtest/gtest.h>

using namespace ss;

namespace {

StencilConfig star(int dims, Extent size, int radius, SplitAxis split, int strips) {
    StencilConfig c;
    c.problem.dims = dims, c.problem.size = size, c.problem.radius = radius;
    c.placement.split = split, c.placement.strips_per_device = strips, c.placement.overlap = false;
    return c;
}

void refused(const StencilConfig& c, const std::string& part) {
    const Status s = can_implement(c, described_catalogue(test::h100(), 1));
    EXPECT_FALSE(s.ok) << describe(c);
    EXPECT_NE(s.reason.find(part), std::string::npos) << s.reason;
}

Status parsed(std::vector<std::string> args, RunOptions& o) {
    return parse_run_options(args, o);
}

} // namespace

TEST(SplitAxis, ResolvesTheSlowestAxisAndNamesTheOthers) {
    StencilConfig c = star(2, { 100, 60, 1 }, 2, SplitAxis::Slowest, 2);
    EXPECT_EQ(split_axis(c), 1);
    EXPECT_TRUE(splits_slowest(c));
    c.problem.dims = 3, c.problem.size = { 100, 60, 40 };
    EXPECT_EQ(split_axis(c), 2);
    c.placement.split = SplitAxis::X;
    EXPECT_EQ(split_axis(c), 0);
    EXPECT_FALSE(splits_slowest(c));
    EXPECT_EQ(split_extent(c), 100);
    EXPECT_NE(describe(c).find("split x"), std::string::npos) << describe(c);
    c.placement.split = SplitAxis::Z; // named, but the slowest: described as the default
    EXPECT_TRUE(splits_slowest(c));
    EXPECT_EQ(describe(c).find("split"), std::string::npos) << describe(c);
    for (SplitAxis a : { SplitAxis::Slowest, SplitAxis::X, SplitAxis::Y, SplitAxis::Z })
        EXPECT_EQ(parse_split(to_string(a)), a);
    EXPECT_FALSE(parse_split("w"));
}

TEST(SplitAxis, PlansBoxesAlongXAndY) {
    StencilConfig c = star(3, { 101, 60, 40 }, 4, SplitAxis::X, 3);
    const StripPlan plan = plan_strips(c);
    ASSERT_EQ(plan.strips.size(), 3u);
    EXPECT_EQ(plan.strips.front().first_row, 0);
    EXPECT_EQ(plan.strips.back().end_row, 101);
    for (const Strip& s : plan.strips) {
        const StencilConfig local = strip_config(c, s);
        EXPECT_EQ(local.problem.size.nx, s.local_rows()); // a box: x cut, y and z whole
        EXPECT_EQ(local.problem.size.ny, 60);
        EXPECT_EQ(local.problem.size.nz, 40);
    }
    EXPECT_EQ(layer_cells(c), 60 * 40);
    EXPECT_EQ(updated_layer_cells(c), (60 - 8) * (40 - 8));
    c.placement.split = SplitAxis::Y;
    EXPECT_EQ(strip_config(c, plan_strips(c).strips[1]).problem.size.nx, 101);
    EXPECT_EQ(layer_cells(c), 101 * 40);
    std::int64_t cells = 0;
    for (const DeviceShare& d : device_shares(c)) cells += d.updated_cells;
    EXPECT_EQ(cells, updated_cells(c));
}

// The 3D stream kernel's sums depend on a cell's place among its thread's CF rows: cut along y only every CF
// rows from the first updated one (a plain cut after 7 of 19 rows made the result differ from one GPU's).
TEST(SplitAxis, CutsThe3dStreamKernelAlongYAtMultiplesOfCf) {
    StencilConfig c = star(3, { 19, 25, 15 }, 3, SplitAxis::Y, 3);
    c.policy.variant = Variant::Stream, c.policy.cf = 2;
    EXPECT_EQ(strip_cut_unit(c), 2);
    const StripPlan plan = plan_strips(c);
    ASSERT_EQ(plan.strips.size(), 3u);
    EXPECT_EQ(plan.strips.front().update_begin, 3);
    EXPECT_EQ(plan.strips.back().update_end, 22);
    for (std::size_t i = 0; i + 1 < plan.strips.size(); ++i) {
        EXPECT_EQ((plan.strips[i].update_end - 3) % 2, 0) << "cut " << i;
        EXPECT_EQ(plan.strips[i].update_end, plan.strips[i + 1].update_begin);
    }
    EXPECT_EQ(plan.strips[0].updated_rows(), 6); // 9 pairs and one row: 3, 3 and 3 pairs + the row
    EXPECT_EQ(plan.strips[2].updated_rows(), 7);
    c.placement.split = SplitAxis::X; // columns, and the other variants, cut anywhere
    EXPECT_EQ(strip_cut_unit(c), 1);
    c.placement.split = SplitAxis::Y, c.policy.variant = Variant::Base;
    EXPECT_EQ(strip_cut_unit(c), 1);
    c.policy.variant = Variant::Stream, c.placement.halo = HaloMode::Remote; // 19 rows: no equal widths of pairs
    refused(c, "multiple of 6 (strips are cut at multiples of CF 2)");
}

TEST(SplitAxis, DisplayPlanesMeetTheSplitAxis) {
    StencilConfig c = star(3, { 64, 64, 64 }, 1, SplitAxis::X, 2);
    EXPECT_EQ(plane_split(c, SliceAxis::XY), PlaneSplit::AlongU);
    EXPECT_EQ(plane_split(c, SliceAxis::XZ), PlaneSplit::AlongU);
    EXPECT_EQ(plane_split(c, SliceAxis::YZ), PlaneSplit::Normal);
    c.placement.split = SplitAxis::Y;
    EXPECT_EQ(plane_split(c, SliceAxis::XY), PlaneSplit::AlongV);
    EXPECT_EQ(plane_split(c, SliceAxis::XZ), PlaneSplit::Normal);
    EXPECT_EQ(plane_split(c, SliceAxis::YZ), PlaneSplit::AlongU);
    c.placement.split = SplitAxis::Slowest;
    EXPECT_EQ(plane_split(c, SliceAxis::XY), PlaneSplit::Normal);
    EXPECT_EQ(plane_split(c, SliceAxis::YZ), PlaneSplit::AlongV);
    c = star(2, { 64, 64, 1 }, 1, SplitAxis::X, 2);
    EXPECT_EQ(plane_split(c, SliceAxis::XY), PlaneSplit::AlongU);
}

TEST(SplitAxis, RefusesWhatCannotWorkWithOneReason) {
    StencilConfig c = star(2, { 64, 64, 1 }, 1, SplitAxis::Z, 2);
    refused(c, "a 2D domain has no z axis");
    c.placement.split = SplitAxis::X, c.placement.overlap = true;
    refused(c, "--overlap on needs the boundary computed before the interior");
    c.placement.overlap = false;
    EXPECT_TRUE(can_implement(c, described_catalogue(test::h100(), 1)).ok);
    c.placement.halo = HaloMode::Remote, c.placement.overlap = true; // remote: overlap does not apply, as before
    EXPECT_TRUE(can_implement(c, described_catalogue(test::h100(), 1)).ok);
    c.problem.size.nx = 65; // 63 updated columns over 2 strips
    refused(c, "needs strips of equal width");
    c.placement.halo = HaloMode::Auto, c.placement.overlap = false;
    EXPECT_TRUE(can_implement(c, described_catalogue(test::h100(), 1)).ok); // copies handle unequal widths
    c.problem.size.nx = 4, c.placement.strips_per_device = 3;
    refused(c, "along x over 3 strips");
    StencilConfig d = star(3, { 64, 64, 8 }, 1, SplitAxis::X, 2);
    d.problem.stencil = StencilKind::Diffusion4, d.policy.variant = Variant::Smem;
    refused(d, "independent z layers");
    StencilConfig t = star(2, { 256, 256, 1 }, 1, SplitAxis::X, 2);
    t.policy.variant = Variant::Temporal, t.policy.depth = 2;
    refused(t, "temporal strips are cut along the axis it streams (y), not along x");
    const Status mpi = check_rank_split(star(2, { 64, 64, 1 }, 1, SplitAxis::X, 1), 2);
    EXPECT_NE(mpi.reason.find("ranks split the slowest axis only"), std::string::npos) << mpi.reason;
}

TEST(SplitAxis, CommandLineTakesTheAxisAndTurnsOverlapOffForIt) {
    RunOptions o;
    ASSERT_TRUE(parsed({ "--gpus", "2", "--split", "x" }, o).ok);
    EXPECT_EQ(o.config.placement.split, SplitAxis::X);
    EXPECT_FALSE(o.config.placement.overlap); // it cannot apply: off unless asked for
    RunOptions slow;
    ASSERT_TRUE(parsed({ "--dims", "3", "--split", "z" }, slow).ok);
    EXPECT_TRUE(slow.config.placement.overlap);
    RunOptions asked;
    ASSERT_TRUE(parsed({ "--split", "x", "--overlap", "on" }, asked).ok);
    EXPECT_TRUE(asked.config.placement.overlap); // kept, and refused with its reason by can_implement
    asked.config.placement.strips_per_device = 2;
    refused(asked.config, "--overlap on");
    RunOptions bad;
    const Status s = parsed({ "--split", "slowest" }, bad);
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("expected x, y or z"), std::string::npos) << s.reason;
}
