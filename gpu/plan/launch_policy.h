// SPDX-License-Identifier: MIT
// Launch policy: block dims (thesis listing 3.18), shared memory per block (listing 3.19) and every
// rule a launch must satisfy. Pure host code, so the GUI and the tests can ask without a GPU. Its tuning knobs
// (STENCILSCOPE_STREAM_*, STENCILSCOPE_FIX_BLOCK) are read once each, through gpu/plan/knobs.h.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ss {

inline constexpr int kCoarseningFactors[] = { 1, 2, 4, 8 };
inline constexpr int kMaxRadius = kMaxStencilRadius; // gpu/problem/config.h
// Planes the stream kernel fetches ahead (PIPE in gpu/kernels/stream.cuh): 4, measured on the H100
// (docs/PERFORMANCE.md). STENCILSCOPE_STREAM_PIPE=N (1..16) overrides it for tuning sweeps.
int stream_pipeline(const StencilConfig&);
// __launch_bounds__ minimum blocks per SM for the stream kernel (caps its registers); a tuning knob:
// STENCILSCOPE_STREAM_MIN_BLOCKS, default 1.
int stream_min_blocks_per_sm();
// Whether the 3D forward stream kernel computes its copy and store base addresses once per plane (LEAN_ADDR in
// stream_forward.cuh) instead of letting NVVM recompute them in each predicated copy and store: at fp64 R16 CF 2
// 18 % fewer instructions in the future role's loop, 10 % per cell (SASS for sm_90); measured on the H100 it gains
// 1-5 % in some configurations and loses 8 % at fp32 R16 CF 4 (docs/PERFORMANCE.md), so it stays off.
// A tuning knob: STENCILSCOPE_STREAM_LEAN_ADDR=1, default off; the tensor-core kernel (StreamLayout::tensor) always
// computes them once.
bool stream_lean_addresses();
// Layout of the 3D stream kernel (stream.cuh, stream_forward.cuh). forward: the forward-accumulating kernel
// (STREAM_FWD), whose threads own x_cells (XB) adjacent columns of CF rows each; otherwise the gathering kernel, one
// column of CF rows per thread. Forward with XB = 2 from R2 on, measured faster on the H100 at R2..R16 (fp32 and fp64)
// and slower at R1 (docs/PERFORMANCE.md); with two roles where one role's pending sums would spill, or crowd the
// registers at R16 (see roles).
// Tuning overrides: STENCILSCOPE_STREAM_FWD=0 (gathering) | 1 (forward, one role) | 2 (forward, two roles),
// STENCILSCOPE_STREAM_XB=1|2|4 (forward only). 2D: always { false, 1, 1 }.
inline constexpr int kStreamForwardRadius = 2;
struct StreamLayout {
    bool forward = false;
    int x_cells = 1;
    // 2: the forward kernel with two roles, by default where one role's 2R * CF * XB pending sums would take 256
    // registers or more (fp32 R16 CF 4, fp64 R8 CF 4, fp64 R16 CF 2), or 128 from R16 on (fp32 R16 CF 2, fp64 R16
    // CF 1): the block's lower and upper halves of
    // thread rows own the same cells, so the tile has By / 2 thread rows of CF cells.
    int roles = 1;
    // The fp64 tensor-core kernel (STREAM_TC, gpu/kernels/stream_tensor.cuh): the forward kernel with one role, XB 2,
    // CF 1, each warp's 8 x 8 cells' x and y parts as band matrix products on the fp64 tensor cores (DMMA). By
    // default for fp64 at an even radius from kStreamTensorRadius on, where the block (given or heuristic) has whole
    // 8 x 8 warp tiles (Bx a multiple of 4, By of 8). STENCILSCOPE_STREAM_TC=0 turns it off, =1 takes it from R2 on.
    bool tensor = false;
    // Every rule of the tensor-core kernel held but the given block's whole 8 x 8 warp tiles: the forward kernel runs
    // instead (what the kernel choice reports).
    bool tensor_refused_by_block = false;
    // Registers one thread of the one-role forward kernel would give its 2R pending sums (the roles rule's input).
    std::int64_t one_role_registers = 0;
    // STENCILSCOPE_STREAM_FWD as stream_layout read it: -1 unset, else 0 gathering, 1 one role, 2 two roles.
    int forward_knob = -1;
};
// At CF 1 on the H100 (1024^3): R10 86.4 against the forward kernel's 70.7 GCells/s, R8 102.2 against 114.1.
inline constexpr int kStreamTensorRadius = 10;
// Whether a 3D stream block gives each warp whole 8 x 8 cells of the tile (the tensor-core kernel's rule).
bool stream_tensor_block(const BlockDims&);
// Thread rows of a 3D stream block that own cells of the tile (the block's rows over its roles).
int stream_cell_rows(const StencilConfig&, const BlockDims&);
// Row pitch, in cells, of a 3D forward stream tile `interior_width` wide with `margin` columns either side: padded to
// 4 mod 16 for the tensor-core kernel (its DMMA operands then load without bank conflicts). stream_forward.cuh's px
// computes the same in the kernel (its generic build has no compile-time block): keep the two equal.
std::int64_t stream_row_pitch(std::int64_t interior_width, std::int64_t margin, bool tensor);
StreamLayout stream_layout(const StencilConfig&);
// How many chunks a stream launch splits the marching axis into, for `tiles_per_plane` tiles and `slots` resident
// blocks on the GPU: about two rounds of blocks. They all march equally far, so they run in whole rounds (2.08
// rounds of work take 3 rounds' time: 2D fp64 R4 at 16384^2 had 15 chunks x 128 tiles on 924 slots); of the
// counts either side of two rounds, the one whose last round is fuller.
int stream_chunk_count(std::int64_t tiles_per_plane, std::int64_t slots);

// Whether the kernel is compiled for its block (SBX.. in the kernels): always for the star's stream and temporal;
// for base/smem/smem_padded and point stencils' stream and temporal unless STENCILSCOPE_FIX_BLOCK=0.
bool specialise_for_block(const StencilConfig&);
// Whether point stencils' stream kernel sums each arriving plane into its 2R+1 output planes
// (STENCILSCOPE_POINT_FORWARD: 0 never, 1 always, 2 by default: except for 2D stencils of radius 1, where the ring of
// planes measured faster).
bool point_stream_forward(const StencilConfig&);
// Whether the heuristic gives point stencils' 2D ring kernel (fp32, CF 2 and up) whole rows of 1024 threads rather
// than the occupancy API's suggestion: where blocks of 1024 x CF cells cover a row with at most 3 % of it idle (H100
// measurement, docs/PERFORMANCE.md "Box R1 2D: the block").
bool point_stream_full_rows(const StencilConfig&);
// STENCILSCOPE_FIX_BLOCK (a tuning knob, read once): 0 generic kernels, the thesis' occupancy search on them;
// 1 the same block, the kernel then compiled for it with launch bounds of the generic kernel's blocks per
// SM; 2 (default) heuristic blocks come from occupancy_block, the kernel compiled to reach its blocks per
// SM (falling back to 1 when that spills); given blocks as 1. Measured on the H100: docs/PERFORMANCE.md.
int fix_block_mode();

// Blocks per SM that threads, the block limit and shared memory allow, registers aside: what a kernel
// compiled for this block with launch bounds can reach (the runtime reserves 1 KiB per block).
int blocks_per_sm_without_registers(const StencilConfig&, const BlockDims&, const DeviceInfo&);
// The occupancy search of thesis listing 3.20 with registers no limit: thread counts 1024, 992, ...
// distributed by listing 3.18 (distribute_threads), only blocks that pass check_block; the most resident
// threads win, ties go to the larger block. nullopt when none passes.
std::optional<BlockDims> occupancy_block(const StencilConfig&, const DeviceInfo&);

// Thesis listing 3.18: distribute `threads` over the block dims. In 2D Bx = 32; in 3D keep Bx = 32
// (halved for smem_padded until threads/(Bx*R*R) > 0), By = min(max(2, R), 8), Bz = rest, sorted
// descending. Streaming tiles a plane (3D: Bz = 1) or a row (2D: By = Bz = 1).
BlockDims distribute_threads(const StencilConfig&, int threads);

// Dynamic shared memory per block in bytes (thesis listing 3.19, extended to stream and diffusion).
std::int64_t dynamic_smem_bytes(const StencilConfig&, const BlockDims&);

// The stream kernel's halo loads per thread are held in registers: at most this many.
int stream_max_halo(const StencilConfig&);
// Halo loads per thread the stream kernel needs with this block.
int stream_halo_per_thread(const StencilConfig&, const BlockDims&);

// Device memory one GPU needs for the configuration (buffers, halos, temporaries).
std::int64_t device_bytes_needed(const StencilConfig&);

// Rules a concrete block must satisfy on a device (null device: CUDA's common limits).
Status check_block(const StencilConfig&, const BlockDims&, const DeviceInfo* device);

// CUDA's limits on the most capable GPU, the H100 (sm_90: 227 KiB of shared memory a block may opt into, 1024
// threads): what a block is described against where no GPU is known (the CPU backend, a machine without one), so
// that no block an H100 launches is called unlaunchable there.
DeviceInfo largest_gpu_limits();

// The heuristic's block for a suggested thread count (the occupancy API's answer on a GPU): the
// thesis distribution, halving the count while the result breaks a rule. nullopt when none fits.
std::optional<BlockDims> heuristic_block(const StencilConfig&, int suggested_threads, const DeviceInfo* device);

// "512 KiB", "3 MiB", "4.0 GiB": memory sizes in refusals.
std::string bytes_text(std::int64_t bytes);

struct GridDims {
    unsigned x = 1, y = 1, z = 1;
};
// Streaming variants march along the slow axis in `chunks` pieces per tile column.
GridDims grid_dims(const StencilConfig&, const BlockDims&, int stream_chunks = 1);

} // namespace ss
