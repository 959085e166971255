// SPDX-License-Identifier: MIT
// One field's kernels, decided before anything is compiled: the configuration the text is written for, the entry
// point and why, the stream layout, the tuning knobs in force and the rule that picks the block. The launch plan
// holds one per field the CUDA backend builds (one for a single GPU, one per strip of a split run, one per MPI rank);
// the NVRTC source generator (backends/cuda/kernel_source.cpp) writes its text from it and the CUDA backend builds
// and launches from it, and neither asks the policy again. Pure host code.
#pragma once

#include "gpu/plan/kernel_choice.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <optional>
#include <string>

namespace ss {

// How the CUDA backend arrives at the block.
enum class BlockRule {
    Given, // the configuration's block
    // occupancy_block: the kernel compiled for it with launch bounds that reach `occupancy_blocks_per_sm`
    // (STENCILSCOPE_FIX_BLOCK=2, the default, for base/smem/smem_padded); where that spills, Heuristic follows.
    Occupancy,
    // The thesis' listing 3.20: the occupancy API asked about the compiled generic kernel (its registers are
    // known only then), its thread count distributed by heuristic_block.
    Heuristic,
};

struct KernelPlan {
    StencilConfig field; // the buffers' configuration: a strip's own for a strip
    // What the text is compiled for: the field's with no neighbour for one GPU; the whole domain's single-GPU
    // text for strips along the slow axis (the same strides, so every strip runs one GPU's code); the strip's own
    // for box strips and temporal strips; the remote halo mode and split axis where kernels read the neighbours.
    StencilConfig kernels;
    DeviceInfo device; // the GPU it is built for

    KernelChoice choice; // choose_gpu_kernel(kernels): the entry point the text names
    StreamLayout stream; // stream_layout(kernels) for the stream variant, else the default
    int pipeline = 1; // planes fetched ahead (PIPE)
    int max_halo = 0; // the generic text's bound on a stream thread's halo loads (MAX_HALO)
    int stream_min_blocks_per_sm = 1; // the stream kernel's launch bounds (SMINB)
    bool lean_addresses = false; // LEAN_ADDR: the knob, or always for the tensor-core kernel

    // The temporal variant's tuning knobs (TEMPORAL_*, TMINB).
    int temporal_loads_ahead = 0;
    bool temporal_fast_path = false;
    bool temporal_adjacent_rows = false;
    int temporal_min_blocks_per_sm = 0;
    int temporal_sync_rows = 1; // the star's 2D kernel: rows per barrier (TEMPORAL_SYNC_ROWS)

    // Point stencils' stream kernel: forward sums (POINT_FORWARD, STENCILSCOPE_POINT_FORWARD).
    bool point_forward = false;

    BlockRule block_rule = BlockRule::Given;
    std::optional<BlockDims> occupancy_block; // BlockRule::Occupancy's block
    int occupancy_blocks_per_sm = 0; // ... and the blocks per SM its launch bounds ask for
    bool specialise = false; // the heuristic's kernel is compiled again for its block (specialise_for_block)
};

// The plan of one field's kernels on `device`: `field` sizes the buffers and picks the block, `kernels` is what the
// text is compiled for (see KernelPlan::kernels).
KernelPlan plan_kernels(const StencilConfig& field, const StencilConfig& kernels, const DeviceInfo& device);
// One GPU running `c` on its own.
KernelPlan plan_single_gpu_kernels(const StencilConfig& c, const DeviceInfo& device);
// Strip `strip` of the split run `c`.
KernelPlan plan_strip_kernels(const StencilConfig& c, const Strip& strip, const DeviceInfo& device);
// BlockRule::Heuristic's block once the occupancy API has answered `suggested_threads` for the compiled generic
// kernel, which allows at most `max_threads` per block (its registers decide): heuristic_block, checked. The reason
// where it finds none.
std::optional<BlockDims> heuristic_block_for(
    const KernelPlan&, int suggested_threads, int max_threads, std::string* why);
// The same kernels fusing `depth` steps per launch (the temporal variant's single steps): only the depth changes.
KernelPlan at_depth(KernelPlan, int depth);

} // namespace ss
