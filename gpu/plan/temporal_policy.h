// SPDX-License-Identifier: MIT
// The temporal variant's launch policy: EBISU's temporal blocking (seed 002) with SM tiling. One launch
// fuses `depth` steps: a block owns an overlapped tile of the fast plane (2D: a row segment, 3D: an x-y
// tile), streams it along the slow axis and keeps one pipeline stage per fused step on chip, so each
// cell crosses DRAM once per `depth` steps. The tile carries a halo of R * depth cells on each side that
// is computed redundantly and never written: only the core is valid after `depth` steps.
// Pure host code, like launch_policy.h. Its tuning knobs (STENCILSCOPE_TEMPORAL_*) are read once each, through
// gpu/plan/knobs.h.
#pragma once

#include "gpu/problem/config.h"

#include <cstdint>
#include <vector>

namespace ss {

inline constexpr int kMaxTemporalDepth = 32;
// Pending sums a thread may hold in registers (2 * R * CF * depth values, twice as many 32-bit registers
// in fp64): past this the kernel would spill to local memory, which costs what temporal blocking saves.
inline constexpr int kTemporalRegisterBudget = 160;

// The depth the CLI and the GUI start from when temporal is chosen: 2D max(2, 6 / R), 3D max(1, 4 - R); on the star's
// kernel 4 at R1 in 3D (which starts from CF 4 there: default_temporal_cf) and at R2 in 2D, on the point kernel 2 at
// R1 in 3D and in 2D 4 at R1, 2 beyond: the fastest depths measured on the H100 (the 2D point kernel's on an H200,
// with its rows per barrier; docs/PERFORMANCE.md).
int default_temporal_depth(const StencilProblem&);
// The CF the CLI and the GUI start from when `c` turns temporal: on the star's kernel (the star, or a point stencil
// planned as it: axis_star_plan.h) CF 4 in 3D (a block of 32 x 8 threads owning a 32 x 32 tile, each thread 4
// adjacent rows), 1 in 2D (the rows a stage takes per barrier, temporal_sync_rows, give a thread its cells); on the
// point kernel (points off the axes) 2, and 4 in fp32 3D. On the H100 (2026-11-28, EBISU's sizes): 3d7pt fp32 577.1
// GCells/s at CF 4 against 319.6 at CF 1, fp64 299.6 against 239.2; on an H200 at 4 rows per barrier 2d5pt fp64 888.0
// at CF 1 against 810.0 at CF 2 (docs/PERFORMANCE.md "Rows per barrier").
int default_temporal_cf(const StencilConfig& c);

struct TemporalTile {
    int x = 1, y = 1; // the tile of the fast plane a block owns (y = 1 in 2D)
    int core_x = 0, core_y = 0; // the cells it writes: the tile less R * depth on each side
};
// 2D: a block of BX threads owns a row segment of BX * CF cells (thread x owns cells x, x + BX, ...).
// 3D: a block of BX x BY threads owns BX x (BY * CF) cells (thread (x, y) owns rows y * CF .. y * CF + CF - 1).
TemporalTile temporal_tile(const StencilConfig&, const BlockDims&, int depth);

// The valid proportion V (EBISU sec. 4): core cells / tile cells, 0..1.
double temporal_valid_proportion(const StencilConfig&, const BlockDims&);

// Pending sums per thread in 32-bit registers: 2 * R * CF * depth (a point stencil's: 2R + 1), doubled in fp64.
int temporal_pending_registers(const StencilConfig&);

// The rules that hold whatever the block: depth range, update rule, strips (along the streaming axis, copied
// halos: gpu/plan/strip_plan.h gives them ghost rows of depth R x depth), registers. Success for
// other variants when depth is 1.
Status check_temporal_policy(const StencilConfig&);
// The rules a concrete block must meet: 2D blocks are BX x 1 x 1, 3D blocks BX x BY x 1, and the tile
// must be wider than its halo (2 * R * depth) on every tiled axis.
Status check_temporal_block(const StencilConfig&, const BlockDims&);

// Input planes each thread loads ahead of the one entering the pipeline (registers: this x CF values): 1 (the
// registers decide the occupancy, and the occupancy the speed: 2 measured 30 % slower in 3D, 9 % in 2D on the
// H100, docs/PERFORMANCE.md) unless STENCILSCOPE_TEMPORAL_AHEAD=N (1..8) sets it, a tuning knob.
int temporal_loads_ahead();
// __launch_bounds__ minimum blocks per SM (caps the registers): 0 (not given: ptxas chooses, measured better
// than 1, which lets it take up to 255) unless STENCILSCOPE_TEMPORAL_MIN_BLOCKS=N (1..32) sets it.
int temporal_min_blocks_per_sm();
// Kernel layout knobs (tuning, docs/PERFORMANCE.md): STENCILSCOPE_TEMPORAL_FASTPATH=0|1 (default 1): tiles clear
// of the Dirichlet border skip its per-cell test (a block-uniform branch); STENCILSCOPE_TEMPORAL_ROWS=0|1
// (default 1): in 3D each thread owns CF adjacent rows (inner y neighbours from registers) instead of rows
// BY apart.
bool temporal_fast_path();
bool temporal_adjacent_rows();
// Blocks per resident block slot the grid aims at (chunks along the slow axis): 4 in 2D, 8 in 3D (measured
// best of 1, 2, 4, 8 on the H100, docs/PERFORMANCE.md), or STENCILSCOPE_TEMPORAL_WAVES=N (1..64).
int temporal_waves(int dims);
// Planes (2D: rows) each fused step of a temporal kernel that sums forward (the star's, a point stencil's) takes
// between two barriers, its two shared slots holding this many each: STENCILSCOPE_TEMPORAL_SYNC_ROWS=N (1..8), else by
// the configuration, as measured (temporal_policy.cpp); 1 for the point kernel's ring and other variants.
int temporal_sync_rows(const StencilConfig&);

// Chunks along the slow axis for a temporal grid: each block streams one chunk of `updated` planes plus
// 2 R depth planes of pipeline fill, so blocks are alike and run in waves of `resident` blocks (SMs x blocks per
// SM); a grid a little past a whole wave pays a whole wave more. The most waves up to `waves` whose grid is whole
// waves (chunks x tiles_per_plane <= waves x resident) and whose chunks are at least `min_chunk` planes long;
// where none is, as many chunks as fill `waves` and none shorter than `min_chunk`.
int temporal_chunks(int updated, std::int64_t tiles_per_plane, std::int64_t resident, int waves, int min_chunk);
inline constexpr int kTemporalMaxSearchDepth2D = 12, kTemporalMaxSearchDepth3D = 6;

// Two planes of the tile with an R-wide border of zeros: stage s reads stage s-1's plane from one while
// the next stage writes the other (gpu/kernels/temporal.cuh).
std::int64_t temporal_smem_bytes(const StencilConfig&, const BlockDims&);

// Point stencils' temporal kernel (points.cuh) sums forward, as the star's: each stage keeps 2R + 1 pending sums per
// cell and shares two planes of the tile, unless STENCILSCOPE_POINT_FORWARD=0 keeps the ring kernel, whose stages
// each keep 2R + 1 planes of the tile (with an R-wide border) in shared memory.
bool point_temporal_forward(const StencilConfig&);
std::int64_t point_temporal_smem_bytes(const StencilConfig&, const BlockDims&);
// The heuristic block keeps EBISU's tiles (Table 1): 256 cells wide in 2D, 32 x 32 in 3D, with CF cells per
// thread: 256 / CF threads in 2D, 32 x 32 / CF in 3D (CF 4 gives EBISU's 256 threads x 4; a 64 x 32 tile, V 0.66
// instead of 0.56 at depth 4, measured 539 against 571 GCells/s on the H100). It ignores the occupancy API's
// thread count: the tile decides how much of the work is redundant.
BlockDims temporal_block(const StencilConfig&);

} // namespace ss
