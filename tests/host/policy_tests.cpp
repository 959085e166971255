// SPDX-License-Identifier: MIT
#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/studies/autotune.h"
#include "test_devices.h"

#include <gtest/gtest.h>

using namespace ss;

namespace {
StencilConfig star(int dims, int radius, Variant v, int cf = 1, Precision p = Precision::FP32) {
    return test::star_config(dims, radius, v, cf, p);
}
} // namespace

TEST(Heuristic, TwoDimensionsKeepsBx32) {
    EXPECT_EQ(distribute_threads(star(2, 4, Variant::Base), 1024), (BlockDims { 32, 32, 1 }));
    EXPECT_EQ(distribute_threads(star(2, 16, Variant::SmemPadded), 512), (BlockDims { 32, 16, 1 }));
}

TEST(Heuristic, ThreeDimensionsFollowsListing318) {
    // b0 = 32, b1 = min(max(2, R), 8) = 4, b2 = 1024 / (32 * 4) = 8, sorted descending
    EXPECT_EQ(distribute_threads(star(3, 4, Variant::Base), 1024), (BlockDims { 32, 8, 4 }));
    // R1: b1 = 2, b2 = 16
    EXPECT_EQ(distribute_threads(star(3, 1, Variant::Smem), 1024), (BlockDims { 32, 16, 2 }));
    // smem_padded R8 halves b0 until threads / (b0 R^2) > 0: b0 = 16, b1 = 8, b2 = 8
    EXPECT_EQ(distribute_threads(star(3, 8, Variant::SmemPadded), 1024), (BlockDims { 16, 8, 8 }));
}

TEST(Heuristic, ThreeDimensionalStreamTiles) {
    // 128x4 tiles (R1, the gathering kernel), the forward kernel at R2..R4: 64x8, or 64x4 at CF 8, and from R5 on
    // 16x16 (measured better); at R16 where two roles hold what one role's pending sums would spill, 128 threads
    // in rows of 128 bytes (fp32 16x8, fp64 8x16)
    EXPECT_EQ(distribute_threads(star(3, 4, Variant::Stream, 4), 512), (BlockDims { 64, 8, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 2, Variant::Stream, 2), 1024), (BlockDims { 64, 8, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 4, Variant::Stream, 8), 512), (BlockDims { 64, 4, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 8, Variant::Stream, 4), 512), (BlockDims { 16, 16, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 1, Variant::Stream, 4), 512), (BlockDims { 128, 4, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 1, Variant::Stream, 1, Precision::FP64), 64), (BlockDims { 64, 1, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 4, Variant::Stream, 4, Precision::FP64), 512), (BlockDims { 64, 8, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 16, Variant::Stream, 2), 512), (BlockDims { 16, 16, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 16, Variant::Stream, 4), 1024), (BlockDims { 16, 8, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 16, Variant::Stream, 2, Precision::FP64), 512), (BlockDims { 8, 16, 1 }));
    EXPECT_EQ(distribute_threads(star(3, 16, Variant::Stream, 1, Precision::FP64), 512), (BlockDims { 8, 32, 1 }));
    EXPECT_EQ(distribute_threads(star(2, 4, Variant::Stream, 4), 1024), (BlockDims { 128, 1, 1 })); // 2D: rows of 128
    EXPECT_EQ(distribute_threads(star(2, 1, Variant::Stream, 8), 1024), (BlockDims { 256, 1, 1 })); // ... 256 at CF 8
    // heuristic_block halves the threads when a block does not fit: 64x4 before 32x4
    EXPECT_EQ(distribute_threads(star(3, 4, Variant::Stream, 4), 256), (BlockDims { 64, 4, 1 }));
}

TEST(Heuristic, RefusesWhenNoBlockMeetsSmemPaddedRule) {
    const auto dev = test::h100();
    // R16 in 3D would need 16^3 threads; the thesis' heuristic has no valid answer
    EXPECT_FALSE(heuristic_block(star(3, 16, Variant::SmemPadded), 1024, &dev).has_value());
    const auto b = heuristic_block(star(3, 8, Variant::SmemPadded), 1024, &dev);
    ASSERT_TRUE(b.has_value());
    EXPECT_GE(b->z, 8);
}

TEST(Heuristic, HalvesThreadsUntilSharedMemoryFits) {
    const auto dev = test::h100();
    // 1024 threads -> 16x8x8 needs 331 KiB at CF 8; 512 threads -> 8x8x8 needs 184 KiB and fits
    StencilConfig c = star(3, 8, Variant::SmemPadded, 8, Precision::FP32);
    const auto b = heuristic_block(c, 1024, &dev);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(*b, (BlockDims { 8, 8, 8 }));
    EXPECT_LE(dynamic_smem_bytes(c, *b), dev.smem_per_block_optin);
    EXPECT_TRUE(check_block(c, *b, &dev).ok);
}

// Where no GPU is known, blocks are described against the most capable one: the fp64 3D R16 stream kernel's
// heuristic block needs 94 KiB, past CUDA's common 48 KiB and within an H100's 227 KiB.
TEST(Heuristic, LargestGpuLimitsAreAnH100s) {
    const DeviceInfo largest = largest_gpu_limits();
    EXPECT_EQ(largest.smem_per_block_optin, 227 * 1024);
    EXPECT_EQ(largest.max_threads_per_block, 1024);
    const StencilConfig c = star(3, 16, Variant::Stream, 2, Precision::FP64);
    EXPECT_EQ(heuristic_block(c, 1024, &largest), (BlockDims { 8, 16, 1 }));
    EXPECT_EQ(heuristic_block(c, 1024, nullptr), std::nullopt);
    EXPECT_FALSE(check_block(c, { 32, 32, 1 }, &largest)); // 272 KiB of tiles
}

TEST(Heuristic, OccupancyBlockIgnoresRegistersButNotSharedMemory) {
    const auto dev = test::h100();
    // 2D smem CF 8: flat 128x2 blocks, 8 KiB of tile each; eight blocks fill the SM's 2048 threads
    const StencilConfig smem2d = star(2, 4, Variant::Smem, 8);
    EXPECT_EQ(occupancy_block(smem2d, dev), (BlockDims { 128, 2, 1 }));
    EXPECT_EQ(blocks_per_sm_without_registers(smem2d, { 128, 2, 1 }, dev), 8);
    // 2D base keeps 32-wide rows
    EXPECT_EQ(occupancy_block(star(2, 4, Variant::Base, 8), dev).value().x, 32);
    // 3D smem_padded R8 CF4: Bx halves to 16 (listing 3.18); the 180 KiB tile lets one block per SM
    const StencilConfig padded3d = star(3, 8, Variant::SmemPadded, 4);
    EXPECT_EQ(occupancy_block(padded3d, dev), (BlockDims { 16, 8, 8 }));
    EXPECT_EQ(blocks_per_sm_without_registers(padded3d, { 16, 8, 8 }, dev), 1);
    // ... and R16 has no block with every dim >= R within 1024 threads
    EXPECT_FALSE(occupancy_block(star(3, 16, Variant::SmemPadded), dev).has_value());
}

TEST(SharedMemory, FollowsListing319) {
    EXPECT_EQ(dynamic_smem_bytes(star(2, 4, Variant::Base), { 32, 8, 1 }), 0);
    EXPECT_EQ(dynamic_smem_bytes(star(3, 4, Variant::Smem, 2), { 32, 8, 4 }), 64 * 8 * 4 * 4);
    EXPECT_EQ(dynamic_smem_bytes(star(2, 4, Variant::SmemPadded), { 32, 16, 1 }), (32 + 8) * (16 + 8) * 4);
    EXPECT_EQ(dynamic_smem_bytes(star(3, 2, Variant::SmemPadded, 1, Precision::FP64), { 32, 4, 4 }), 36 * 8 * 8 * 8);
    // 3D stream, gathering kernel (R1): each thread owns CF rows, so 32x8 with CF 2 tiles 32 x 16 cells
    EXPECT_EQ(dynamic_smem_bytes(star(3, 1, Variant::Stream, 2), { 32, 8, 1 }), 5 * (32 + 2) * (16 + 2) * 4);
    EXPECT_EQ(
        dynamic_smem_bytes(star(3, 1, Variant::Stream, 2, Precision::FP64), { 32, 8, 1 }), 5 * (32 + 2) * (16 + 2) * 8);
    // forward kernel (from R2): 2 columns x CF rows per thread, 32x8 with CF 2 tiles 64 x 16 cells; the
    // left margin is R rounded up to 2 so that the threads' column pairs are 8-byte aligned
    EXPECT_EQ(dynamic_smem_bytes(star(3, 4, Variant::Stream, 2), { 32, 8, 1 }), 5 * (64 + 8) * (16 + 8) * 4);
    EXPECT_EQ(dynamic_smem_bytes(star(3, 5, Variant::Stream, 2), { 16, 16, 1 }), 5 * (32 + 12) * (32 + 10) * 4);
    EXPECT_EQ(dynamic_smem_bytes(star(2, 4, Variant::Stream, 2), { 64, 1, 1 }), 5 * (128 + 8) * 4);
}

TEST(Grid, CoversOddDomainsWithCoarsening) {
    StencilConfig c = star(2, 1, Variant::Base, 2);
    c.problem.size = { 67, 45, 1 };
    const GridDims g = grid_dims(c, { 32, 8, 1 });
    EXPECT_EQ(g.x, 2u); // 67 cells / (32 threads * CF 2) rounded up
    EXPECT_EQ(g.y, 6u);
    EXPECT_EQ(g.z, 1u);
    c.policy.variant = Variant::Stream;
    const GridDims s = grid_dims(c, { 64, 1, 1 }, 3);
    EXPECT_EQ(s.y, 3u); // streaming: chunks along y
    c.problem.dims = 3, c.problem.size = { 67, 45, 30 }, c.policy.cf = 4;
    const GridDims t = grid_dims(c, { 32, 4, 1 }, 2);
    EXPECT_EQ(t.x, 3u); // 3D stream coarsens in y: 67 / 32 columns
    EXPECT_EQ(t.y, 3u); // 45 / (4 threads * CF 4 rows)
    EXPECT_EQ(t.z, 2u); // chunks along z
    c.problem.radius = 4; // the forward kernel: 2 columns per thread
    EXPECT_TRUE(stream_layout(c).forward);
    EXPECT_EQ(stream_layout(c).x_cells, 2);
    const GridDims f = grid_dims(c, { 32, 4, 1 }, 2);
    EXPECT_EQ(f.x, 2u); // 67 / (32 threads * 2 columns)
    EXPECT_EQ(f.y, 3u);
}

TEST(Grid, UncoalescedWalksTheSlowAxisWithThreadX) {
    StencilConfig c = star(3, 1, Variant::Uncoalesced);
    c.problem.size = { 67, 45, 30 };
    const GridDims g = grid_dims(c, { 32, 4, 2 });
    EXPECT_EQ(g.x, 1u); // 30 planes / 32
    EXPECT_EQ(g.y, 12u); // 45 rows / 4
    EXPECT_EQ(g.z, 34u); // 67 columns / 2
}

TEST(Stream, HaloLoadsPerThreadBoundTheBlock) {
    const auto dev = test::h100();
    // 2D R16: a row's 32 halo cells over the block's threads, at most R * CF / 2 + 2 = 10 per thread
    EXPECT_EQ(stream_halo_per_thread(star(2, 16, Variant::Stream), { 256, 1, 1 }), 1);
    EXPECT_TRUE(check_block(star(2, 16, Variant::Stream), { 4, 1, 1 }, &dev).ok);
    const Status s = check_block(star(2, 16, Variant::Stream), { 2, 1, 1 }, &dev);
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("halo loads per thread"), std::string::npos) << s.reason;
    // 3D R1, the gathering kernel keeps a halo map: tile 32x8 at CF 8 has 2*32 + 2*64 = 192 halo cells
    const StencilConfig gather = star(3, 1, Variant::Stream, 8);
    EXPECT_EQ(stream_halo_per_thread(gather, { 32, 8, 1 }), 1);
    EXPECT_FALSE(check_block(gather, { 1, 1, 1 }, &dev).ok); // 2 + 16 cells for one thread
    // the forward kernel copies its tile through bit masks, without a halo map in registers
    EXPECT_TRUE(check_block(star(3, 16, Variant::Stream), { 32, 1, 1 }, &dev).ok);
    StencilConfig given = star(3, 16, Variant::Stream, 1, Precision::FP64); // a block without 8 x 8 warp tiles:
    given.policy.heuristic_block = false, given.policy.block = { 32, 2, 1 }; // the forward kernel, two roles
    EXPECT_TRUE(check_block(given, given.policy.block, &dev).ok);
    given.policy.block = { 32, 1, 1 };
    EXPECT_FALSE(check_block(given, given.policy.block, &dev).ok); // one row for two roles
}

TEST(Stream, LayoutByRadiusAndPrecision) {
    EXPECT_FALSE(stream_layout(star(2, 16, Variant::Stream)).forward); // 2D: one kernel
    EXPECT_FALSE(stream_layout(star(3, 1, Variant::Stream)).forward); // R1: the gathering kernel measured faster
    EXPECT_TRUE(stream_layout(star(3, 2, Variant::Stream)).forward);
    EXPECT_TRUE(stream_layout(star(3, 16, Variant::Stream)).forward);
    EXPECT_TRUE(stream_layout(star(3, 16, Variant::Stream, 1, Precision::FP64)).forward);
    EXPECT_FALSE(stream_layout(star(3, 1, Variant::Stream, 1, Precision::FP64)).forward);
}

TEST(Stream, ChunksFillWholeRounds) {
    EXPECT_EQ(stream_chunk_count(128, 924), 14); // 1792 blocks in 2 rounds, not 1920 in 3
    EXPECT_EQ(stream_chunk_count(32, 528), 33); // exactly two rounds
    EXPECT_EQ(stream_chunk_count(1024, 132), 1); // more tiles than two rounds: one chunk
    EXPECT_EQ(stream_chunk_count(1000, 924), 2); // 1 chunk fills 1000 / 1848 slots, 2 fill 2000 / 2772
    EXPECT_EQ(stream_chunk_count(0, 0), 2); // degenerate input stays positive
}

TEST(Stream, TwoRolesWhereOneRolesPendingSumsWouldSpill) {
    // one role keeps 2R * CF * XB pending sums per thread (fp64: two registers each); from 256 registers on two,
    // and from 128 on at R16
    EXPECT_EQ(stream_layout(star(3, 16, Variant::Stream, 4)).roles, 2); // 2 * 16 * 4 * 2 = 256
    EXPECT_EQ(stream_layout(star(3, 16, Variant::Stream, 2)).roles, 2); // 128 from R16 on
    EXPECT_EQ(stream_layout(star(3, 16, Variant::Stream, 1)).roles, 1); // 64
    EXPECT_EQ(stream_layout(star(3, 8, Variant::Stream, 4)).roles, 1); // 128
    EXPECT_EQ(stream_layout(star(3, 8, Variant::Stream, 4, Precision::FP64)).roles, 2); // 256
    EXPECT_EQ(stream_layout(star(3, 16, Variant::Stream, 2, Precision::FP64)).roles, 2); // 256
    EXPECT_EQ(stream_layout(star(3, 16, Variant::Stream, 1, Precision::FP64)).roles, 1); // tensor cores: one role
    EXPECT_EQ(stream_layout(star(3, 8, Variant::Stream, 2, Precision::FP64)).roles, 1); // 128 below R16
    EXPECT_EQ(stream_layout(star(3, 1, Variant::Stream, 8, Precision::FP64)).roles, 1); // the gathering kernel
    EXPECT_EQ(stream_layout(star(2, 16, Variant::Stream, 8, Precision::FP64)).roles, 1); // 2D: one kernel
    // the tile has By / 2 thread rows of CF cells: 16x16 at CF 4 tiles 32 x 32 cells
    StencilConfig c = star(3, 16, Variant::Stream, 4);
    c.problem.size = { 100, 100, 40 };
    EXPECT_EQ(stream_cell_rows(c, { 16, 16, 1 }), 8);
    EXPECT_EQ(grid_dims(c, { 16, 16, 1 }, 1).y, 4u); // 100 / 32 rows
    EXPECT_EQ(dynamic_smem_bytes(c, { 16, 16, 1 }), (5 * (32 + 32) * (32 + 32) + 2 * 32 * 32) * 4);
    // each role's rows are whole warps
    const auto dev = test::h100();
    EXPECT_TRUE(check_block(c, { 16, 16, 1 }, &dev).ok);
    const Status odd = check_block(c, { 32, 3, 1 }, &dev);
    EXPECT_FALSE(odd.ok);
    EXPECT_NE(odd.reason.find("two-role"), std::string::npos) << odd.reason;
    EXPECT_FALSE(check_block(c, { 16, 2, 1 }, &dev).ok); // 16 threads per role
}

TEST(Autotune, SpaceFollowsTheThesisRules) {
    const auto dev = test::h100();
    // powers of two, Bx >= By >= Bz, 32..1024 threads: 27 pairs in 2D, 56 triples in 3D
    EXPECT_EQ(autotune_space(star(2, 1, Variant::Base), &dev).size(), 27u);
    EXPECT_EQ(autotune_space(star(3, 1, Variant::Base), &dev).size(), 56u);
    for (const BlockDims& b : autotune_space(star(3, 4, Variant::SmemPadded), &dev)) {
        EXPECT_GE(b.z, 4); // the variant's own rule removes Bz < R
        EXPECT_GE(b.x, b.y);
        EXPECT_GE(b.y, b.z);
    }
    for (const BlockDims& b : autotune_space(star(2, 4, Variant::Stream), &dev)) EXPECT_EQ(b.y, 1);
}

TEST(Stream, TensorCoresForFp64AtCf1FromR10) {
    const StencilConfig c = star(3, 16, Variant::Stream, 1, Precision::FP64);
    const StreamLayout l = stream_layout(c);
    EXPECT_TRUE(l.tensor);
    EXPECT_TRUE(l.forward);
    EXPECT_EQ(l.roles, 1);
    EXPECT_EQ(l.x_cells, 2);
    EXPECT_TRUE(stream_layout(star(3, 12, Variant::Stream, 1, Precision::FP64)).tensor);
    EXPECT_TRUE(stream_layout(star(3, 10, Variant::Stream, 1, Precision::FP64)).tensor);
    EXPECT_FALSE(stream_layout(star(3, 8, Variant::Stream, 1, Precision::FP64)).tensor); // below kStreamTensorRadius
    EXPECT_FALSE(stream_layout(star(3, 13, Variant::Stream, 1, Precision::FP64)).tensor); // odd R
    EXPECT_FALSE(stream_layout(star(3, 16, Variant::Stream, 2, Precision::FP64)).tensor); // CF 2
    EXPECT_FALSE(stream_layout(star(3, 16, Variant::Stream, 1)).tensor); // fp32
    EXPECT_FALSE(stream_layout(star(2, 16, Variant::Stream, 1, Precision::FP64)).tensor); // 2D
    // a given block decides: whole 8 x 8 warp tiles take tensor cores, others the forward kernel
    StencilConfig given = c;
    given.policy.heuristic_block = false, given.policy.block = { 64, 4, 1 };
    EXPECT_FALSE(stream_layout(given).tensor);
    given.policy.block = { 8, 32, 1 };
    EXPECT_TRUE(stream_layout(given).tensor);
    // the heuristic's blocks are whole warp tiles; others are refused with the rule
    EXPECT_EQ(distribute_threads(c, 1024), (BlockDims { 8, 32, 1 }));
    EXPECT_EQ(distribute_threads(c, 128), (BlockDims { 8, 16, 1 }));
    const auto dev = test::h100();
    EXPECT_TRUE(check_block(c, { 8, 32, 1 }, &dev).ok);
    const Status odd = check_block(c, { 64, 4, 1 }, &dev);
    EXPECT_FALSE(odd.ok);
    EXPECT_NE(odd.reason.find("8 x 8 cells"), std::string::npos) << odd.reason;
    // tiles of 2 Bx x By cells; rows of 16 + 2 x 16 + 4 cells (4 mod 16: no bank conflicts), the band table after
    EXPECT_EQ(grid_dims(c, { 8, 32, 1 }, 1).x, 4u); // 64 / 16
    EXPECT_EQ(grid_dims(c, { 8, 32, 1 }, 1).y, 2u); // 64 / 32
    EXPECT_EQ(dynamic_smem_bytes(c, { 8, 32, 1 }), (5 * 52 * (32 + 32) + 10 * 32) * 8);
    EXPECT_EQ(stream_row_pitch(16, 16, true), 52);
    EXPECT_EQ(stream_row_pitch(32, 16, true), 68); // 64 + 4
    EXPECT_EQ(stream_row_pitch(16, 16, false), 48);
    // box strips start at multiples of 4 along x and y, so that the groups of 4 neighbours are one GPU's
    StencilConfig split = c;
    split.placement.gpus = 2;
    for (SplitAxis axis : { SplitAxis::X, SplitAxis::Y }) {
        split.placement.split = axis;
        EXPECT_EQ(strip_cut_unit(split), 4);
    }
    split.placement.split = SplitAxis::Z;
    EXPECT_EQ(strip_cut_unit(split), 1);
}

// Point stencils' 2D stream kernel: rows of 128 threads, but the ring kernel (radius 1, fp32) takes rows of 128 x CF
// (box R1 16384^2 on the H100: 1024 x 1 at CF 8 90.5 % of the copy roofline against 83.6 % with 128 x 1).
TEST(Heuristic, TwoDimensionalPointStreamRows) {
    if (knob_integer(Knob::PointForward) != 2) GTEST_SKIP() << "STENCILSCOPE_POINT_FORWARD is set to another mode";
    const auto box = [](int radius, int cf, Precision p = Precision::FP32) {
        StencilConfig c = star(2, radius, Variant::Stream, cf, p);
        use_shape(c.problem, box_shape(2, radius));
        c.problem.size = { 8640, 8640, 1 }; // EBISU's 2d9pt: blocks of 1024 x CF cells would leave one mostly idle
        return c;
    };
    EXPECT_EQ(distribute_threads(box(1, 1), 1024), (BlockDims { 128, 1, 1 }));
    EXPECT_EQ(distribute_threads(box(1, 2), 1024), (BlockDims { 256, 1, 1 })); // a row of 256 cells
    EXPECT_EQ(distribute_threads(box(1, 8), 1024), (BlockDims { 1024, 1, 1 }));
    EXPECT_EQ(distribute_threads(box(1, 8), 512), (BlockDims { 512, 1, 1 })); // what the occupancy search allows
    EXPECT_EQ(distribute_threads(box(1, 8, Precision::FP64), 1024), (BlockDims { 128, 1, 1 }));
    EXPECT_EQ(distribute_threads(box(2, 8), 1024), (BlockDims { 128, 1, 1 })); // forward sums
    StencilConfig whole = box(1, 2);
    whole.problem.size = { 16384, 16384, 1 }; // blocks of 2048 cells tile a row
    EXPECT_EQ(distribute_threads(whole, 640), (BlockDims { 640, 1, 1 })) << "the thread count given still caps it";
    EXPECT_EQ(distribute_threads(whole, 1024), (BlockDims { 1024, 1, 1 }));
}

// The temporal grid is whole waves of resident blocks where chunks of at least 16 R depth planes allow it.
TEST(TemporalChunks, AWholeNumberOfWavesWithChunksNoShorterThanTheMinimum) {
    // 2D 8568^2, 244-cell cores (36 tiles a row), 132 SMs x 8 blocks: 4 waves would make chunks of 74 planes,
    // under the 96 minimum; filling 4 waves at 96 planes left 90 chunks, 3.07 waves. Three whole waves: 88.
    EXPECT_EQ(temporal_chunks(8566, 36, 1056, 4, 96), 88);
    EXPECT_LE(88 * 36, 3 * 1056);
    EXPECT_GE((8566 + 87) / 88, 96);
    // 12000 x 9000 (50 tiles a row): four whole waves of 108-plane chunks, as before.
    EXPECT_EQ(temporal_chunks(8998, 50, 1056, 4, 96), 84);
    // Its half on each of two GPUs: two whole waves of 108-plane chunks, not 2.2 waves of 96.
    EXPECT_EQ(temporal_chunks(4510, 50, 1056, 4, 96), 42);
    // 3D 640 x 480 x 1200 at depth 3 (25 x 19 tiles a plane), 264 resident: 4 chunks, 7.2 waves, as before.
    EXPECT_EQ(temporal_chunks(1198, 475, 264, 8, 48), 4);
}

TEST(TemporalChunks, ShortDomainsAndWidePlanesKeepOneLongChunk) {
    EXPECT_EQ(temporal_chunks(50, 36, 1056, 4, 96), 1) << "fewer planes than the minimum chunk: one chunk";
    EXPECT_EQ(temporal_chunks(5000, 10000, 1056, 4, 96), 1) << "a plane of more tiles than four waves hold";
    EXPECT_EQ(temporal_chunks(0, 0, 0, 0, 0), 1) << "degenerate figures still give a chunk";
    for (int updated : { 97, 500, 1201, 8566, 65536 }) // never more chunks than the grid allows
        for (int waves : { 1, 2, 4, 8 }) {
            const int chunks = temporal_chunks(updated, 7, 264, waves, 48);
            EXPECT_GE(chunks, 1);
            EXPECT_LE(chunks, 65535);
        }
}
