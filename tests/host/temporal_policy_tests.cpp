// SPDX-License-Identifier: MIT
// The temporal variant's policy without a GPU: EBISU's tiles, the overlapped grid, shared memory, and
// every refusal with its reason (check_policy and check_block through can_implement).
#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "reports/run_options.h"
#include "reports/run_report.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ss;

namespace {

StencilConfig temporal(int dims, int radius, int depth, int cf = 1) {
    StencilConfig c;
    c.policy.variant = Variant::Temporal, c.policy.depth = depth, c.policy.cf = cf;
    c.problem.dims = dims, c.problem.radius = radius;
    c.problem.size = dims == 3 ? Extent { 384, 288, 256 } : Extent { 8352, 8352, 1 };
    return c;
}

Status check(const StencilConfig& c, int devices = 1) {
    return can_implement(c, described_catalogue(test::h100(), devices));
}

void expect_refused(const StencilConfig& c, const std::string& needle, int devices = 1) {
    const Status s = check(c, devices);
    EXPECT_FALSE(s.ok) << describe(c);
    EXPECT_NE(s.reason.find(needle), std::string::npos) << "reason was: " << s.reason;
    EXPECT_EQ(s.reason.find('\n'), std::string::npos) << "reason must be one line";
}

} // namespace

TEST(Temporal, HeuristicKeepsEbisusTilesWithCfCellsPerThread) {
    const DeviceInfo dev = test::h100();
    EXPECT_EQ(heuristic_block(temporal(2, 1, 9), 1024, &dev), (BlockDims { 256, 1, 1 }));
    EXPECT_EQ(heuristic_block(temporal(2, 1, 9, 4), 1024, &dev), (BlockDims { 64, 1, 1 }));
    EXPECT_EQ(heuristic_block(temporal(3, 1, 3, 4), 1024, &dev), (BlockDims { 32, 8, 1 }));
    EXPECT_EQ(heuristic_block(temporal(3, 1, 3, 1), 1024, &dev), (BlockDims { 32, 32, 1 }));
    // the occupancy API's thread count does not shrink the tile
    EXPECT_EQ(heuristic_block(temporal(3, 1, 3, 4), 128, &dev), (BlockDims { 32, 8, 1 }));
    const TemporalTile t = temporal_tile(temporal(3, 2, 3, 4), { 32, 8, 1 }, 3);
    EXPECT_EQ(t.x, 32);
    EXPECT_EQ(t.y, 32);
    EXPECT_EQ(t.core_x, 32 - 2 * 2 * 3);
    EXPECT_EQ(t.core_y, 32 - 2 * 2 * 3);
}

TEST(Temporal, ValidProportionFollowsEbisusModel) {
    // 2D: V = (tile - 2 R t) / tile; 3D: the product over x and y (EBISU sec. 4, both sides' halo)
    EXPECT_DOUBLE_EQ(temporal_valid_proportion(temporal(2, 1, 9), { 256, 1, 1 }), 238.0 / 256.0);
    EXPECT_DOUBLE_EQ(temporal_valid_proportion(temporal(3, 1, 3, 4), { 32, 8, 1 }), 26.0 * 26.0 / (32.0 * 32.0));
    EXPECT_DOUBLE_EQ(temporal_valid_proportion(temporal(3, 4, 4, 4), { 32, 8, 1 }), 0.0);
}

TEST(Temporal, GridIsOverlappedTilesTimesChunks) {
    const StencilConfig c = temporal(2, 1, 9);
    const GridDims g = grid_dims(c, { 256, 1, 1 }, 7);
    EXPECT_EQ(g.x, 36u); // ceil(8352 / 238)
    EXPECT_EQ(g.y, 7u);
    EXPECT_EQ(g.z, 1u);
    const GridDims g3 = grid_dims(temporal(3, 1, 3, 4), { 32, 8, 1 }, 5);
    EXPECT_EQ(g3.x, 15u); // ceil(384 / 26)
    EXPECT_EQ(g3.y, 12u); // ceil(288 / 26)
    EXPECT_EQ(g3.z, 5u);
}

// Two slots, each of as many padded planes (2D: rows) as a stage takes per barrier (temporal_sync_rows).
TEST(Temporal, SharedMemoryIsTwoSlotsOfPaddedPlanes) {
    const StencilConfig flat = temporal(2, 1, 9);
    EXPECT_EQ(dynamic_smem_bytes(flat, { 256, 1, 1 }), 2 * temporal_sync_rows(flat) * (256 + 2) * 4);
    StencilConfig c = temporal(3, 2, 3, 4);
    c.problem.precision = Precision::FP64;
    EXPECT_EQ(dynamic_smem_bytes(c, { 32, 8, 1 }), 2 * temporal_sync_rows(c) * (32 + 4) * (32 + 4) * 8);
    if (knob_integer(Knob::TemporalSyncRows) != 0) GTEST_SKIP() << "STENCILSCOPE_TEMPORAL_SYNC_ROWS rules";
    EXPECT_EQ(temporal_sync_rows(flat), 8) << "the star's 2D R1 fp32 kernel at CF 1";
    EXPECT_EQ(temporal_sync_rows(c), 1) << "3D R2";
    EXPECT_EQ(temporal_sync_rows(temporal(3, 1, 4, 4)), 2) << "3D R1 at CF 4";
    EXPECT_EQ(temporal_sync_rows(temporal(3, 1, 4, 2)), 1) << "3D R1 at CF 2";
    StencilConfig fp64 = temporal(2, 1, 6, 2);
    fp64.problem.precision = Precision::FP64;
    EXPECT_EQ(temporal_sync_rows(fp64), 2) << "2D fp64: four cells per thread and barrier";
    StencilConfig stream = flat;
    stream.policy.variant = Variant::Stream;
    EXPECT_EQ(temporal_sync_rows(stream), 1) << "not temporal";
}

TEST(Temporal, AcceptsTheBenchmarkConfigurations) {
    for (const StencilConfig& c : { temporal(2, 1, 9), temporal(2, 1, 9, 4), temporal(2, 2, 4), temporal(2, 4, 2),
             temporal(3, 1, 3, 4), temporal(3, 2, 2, 4), temporal(3, 4, 1, 4) })
        EXPECT_TRUE(check(c)) << describe(c) << ": " << check(c).reason;
    StencilConfig fp64 = temporal(2, 1, 12, 2);
    fp64.problem.precision = Precision::FP64;
    EXPECT_TRUE(check(fp64)) << check(fp64).reason;
}

TEST(Temporal, RefusalsSayWhy) {
    expect_refused(temporal(2, 1, 0), "temporal depth must be 1..32");
    expect_refused(temporal(2, 1, 33), "temporal depth must be 1..32");
    StencilConfig base = temporal(2, 1, 4);
    base.policy.variant = Variant::Base;
    expect_refused(base, "applies to the temporal variant only");
    StencilConfig wave = temporal(2, 1, 4);
    wave.problem.rule = UpdateRule::Wave;
    expect_refused(wave, "temporal does not run the wave rule");
    StencilConfig split = temporal(2, 1, 4);
    split.placement.gpus = 2;
    EXPECT_TRUE(check(split, 2)) << check(split, 2).reason; // strips along y with R x depth ghost rows
    split.placement.halo = HaloMode::Remote;
    expect_refused(split, "halo mode remote does not apply to temporal: a fused launch reads R x depth (4)", 2);
    split.placement.halo = HaloMode::Auto, split.placement.split = SplitAxis::X;
    expect_refused(split, "temporal strips are cut along the axis it streams (y), not along x", 2);
    StencilConfig three = temporal(3, 1, 2, 4);
    three.placement.gpus = 2, three.placement.split = SplitAxis::Y;
    expect_refused(three, "temporal strips are cut along the axis it streams (z), not along y", 2);
    three.placement.split = SplitAxis::Z;
    EXPECT_TRUE(check(three, 2)) << check(three, 2).reason;
    split.placement.split = SplitAxis::Slowest, split.policy.depth = 32; // 32 ghost rows: thicker than a strip
    split.problem.size.ny = 40;
    expect_refused(split, "ghost zone", 2);
    StencilConfig regs = temporal(2, 4, 8, 4);
    regs.problem.precision = Precision::FP64;
    expect_refused(regs, "needs 512 registers (at most 160)");
    expect_refused(temporal(3, 4, 4, 4), "must be wider than 32"); // halo 16 on each side of a 32-row tile
    StencilConfig skinny = temporal(2, 1, 3);
    skinny.policy.heuristic_block = false, skinny.policy.block = { 32, 2, 1 };
    expect_refused(skinny, "the block must be BX x 1 x 1");
    StencilConfig narrow = temporal(2, 2, 8);
    narrow.policy.heuristic_block = false, narrow.policy.block = { 32, 1, 1 };
    expect_refused(narrow, "must be wider than 32");
}

// Issue 35: on the star's kernel temporal starts from CF 4 in 3D (depth 4 at R1) and CF 1 in 2D (its rows per barrier
// give a thread its cells); a given --cf is kept; the point kernel starts from CF 2, 4 in fp32 3D (depth 2 at R1), and
// in 2D from depth 4 at R1, 2 beyond.
TEST(Temporal, CliDefaultsTheCfOfTheStarsKernelIn3d) {
    const auto cf_of = [](std::vector<std::string> args) {
        RunOptions o;
        EXPECT_TRUE(parse_run_options(args, o));
        return o.config.policy.cf;
    };
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--dims", "3" }), 4);
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--dims", "3", "--precision", "fp64" }), 4);
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--precision", "fp64" }), 1) << "2D fp64: rows per barrier instead";
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--stencil", "2d9pt", "--precision", "fp64" }), 2) << "point kernel";
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--stencil", "3d7pt" }), 4) << "a star on the star's kernel";
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--stencil", "3d27pt" }), 4) << "the point kernel";
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--stencil", "3d27pt", "--precision", "fp64" }), 2);
    EXPECT_EQ(cf_of({ "--variant", "temporal" }), 1) << "2D fp32";
    EXPECT_EQ(cf_of({ "--variant", "temporal", "--dims", "3", "--cf", "2" }), 2) << "given";
    EXPECT_EQ(cf_of({ "--variant", "stream", "--dims", "3" }), 1) << "not temporal";
    const auto depth_of = [](std::vector<std::string> args) {
        RunOptions o;
        EXPECT_TRUE(parse_run_options(args, o));
        return o.config.policy.depth;
    };
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--dims", "3" }), 4) << "R1 at CF 4";
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--stencil", "3d7pt" }), 4);
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--dims", "3", "--precision", "fp64" }), 4);
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--dims", "3", "--radius", "2" }), 2);
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--stencil", "poisson" }), 2) << "the point kernel";
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--stencil", "2ds9pt" }), 4) << "2D R2 on the star's kernel";
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--stencil", "2d25pt" }), 2) << "2D R2 on the point kernel";
    EXPECT_EQ(depth_of({ "--variant", "temporal", "--stencil", "2d9pt" }), 4) << "2D R1 on the point kernel";
}

TEST(Temporal, CliDefaultsTheDepthAndRefusesBadValues) {
    RunOptions o;
    ASSERT_TRUE(parse_run_options({ "--variant", "temporal" }, o));
    EXPECT_EQ(o.config.policy.depth, default_temporal_depth(o.config.problem));
    EXPECT_EQ(o.config.policy.depth, 6);
    RunOptions three;
    ASSERT_TRUE(parse_run_options({ "--variant", "temporal", "--dims", "3", "--radius", "2" }, three));
    EXPECT_EQ(three.config.policy.depth, 2);
    RunOptions given;
    ASSERT_TRUE(parse_run_options({ "--variant", "temporal", "--depth", "12" }, given));
    EXPECT_EQ(given.config.policy.depth, 12);
    RunOptions bad;
    const Status s = parse_run_options({ "--variant", "temporal", "--depth", "0" }, bad);
    EXPECT_FALSE(s);
    EXPECT_NE(s.reason.find("expected an integer 1..32"), std::string::npos) << s.reason;
    EXPECT_EQ(describe(given.config), "star R1 jacobi 2D 1024x1024 fp32 temporal depth 12");
}

TEST(Temporal, ReportsCountBytesPerFusedStepAndStayBelowTheRoofline) {
    RunReport r;
    r.options.config = temporal(2, 1, 8);
    r.options.config.problem.size = { 1026, 1026, 1 }; // 1024 x 1024 updated cells
    r.ms_per_step = { 1.048576 }; // 1 GCells/s
    r.copy_gbytes_per_s = 2.0;
    ASSERT_EQ(r.options.steps, 8);
    EXPECT_DOUBLE_EQ(ideal_bytes_per_step(r.options.config, 8), 1.0); // 8 B per cell every 8 steps
    EXPECT_DOUBLE_EQ(r.gbytes_per_s(), 1.0);
    EXPECT_DOUBLE_EQ(r.pct_of_roofline(), 50.0);
    EXPECT_DOUBLE_EQ(r.single_step_roofline_gcells_per_s(), 0.25); // 2 GB/s at 8 B/cell
    const std::string text = format_report(r);
    EXPECT_NE(text.find("every 8 fused steps"), std::string::npos) << text;
    EXPECT_NE(text.find("4.00 x the single-step bound"), std::string::npos) << text;
    const CsvRow header = report_csv_header(), row = report_csv_row(r);
    ASSERT_EQ(header.size(), row.size());
    const std::size_t depth = std::size_t(std::find(header.begin(), header.end(), "depth") - header.begin());
    ASSERT_LT(depth, header.size());
    EXPECT_EQ(row[depth], "8");
}

// A run whose steps are no multiple of the depth ends in single steps, each moving 8 B per cell: the ideal bytes and
// the report say so (24 steps at depth 5: 4 fused launches and 4 single steps, 8 launches of 8 B in 24 steps).
TEST(Temporal, ARunEndingInSingleStepsCountsTheirBytesAndSaysSo) {
    RunReport r;
    r.options.config = temporal(2, 1, 5);
    r.options.config.problem.size = { 1026, 1026, 1 };
    r.options.steps = 24;
    r.ms_per_step = { 1.048576 };
    EXPECT_EQ(fused_launches(r.options.config, 24), 8);
    EXPECT_DOUBLE_EQ(ideal_bytes_per_step(r.options.config, 24), 8.0 * 8 / 24);
    EXPECT_DOUBLE_EQ(ideal_bytes_per_step(r.options.config, 25), 8.0 * 5 / 25) << "whole launches";
    EXPECT_DOUBLE_EQ(r.gbytes_per_s(), 8.0 * 8 / 24);
    const std::string text = format_report(r);
    EXPECT_NE(text.find("4 launches of 5 fused steps and 4 single steps"), std::string::npos) << text;
    const CsvRow header = report_csv_header(), row = report_csv_row(r);
    const std::size_t ideal // the bytes per updated cell and step
        = std::size_t(std::find(header.begin(), header.end(), "ideal_bytes_per_cell") - header.begin());
    ASSERT_LT(ideal, header.size());
    EXPECT_EQ(row[ideal], format_number(8.0 * 8 / 24));
}
