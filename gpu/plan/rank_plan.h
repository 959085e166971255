// SPDX-License-Identifier: MIT
// A run split over processes (stencilscope-cli under mpirun), resolved once: the check of the split, the strips (one
// per rank, cut along the slowest axis as gpu/plan/strip_plan.h cuts a run over GPUs), and each rank's strip with the
// plan of its kernels. Every rank builds its strip from it (gpu/backends/create_rank_strip.h) and rank 0 reports
// it; nothing else cuts the strips again. Pure host code.
#pragma once

#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <optional>

namespace ss {

// The whole run as the strip plan sees it: one strip per rank (`ranks` strips), on no particular device.
StencilConfig rank_split_config(const StencilConfig& whole, int ranks);
// Why `whole` cannot be split over `ranks` processes (one line, naming ranks), or success: the strips'
// rows (each at least R, a ghost zone comes from one neighbour), --gpus (a rank drives one GPU) and the
// variants that cannot be split (temporal, 2D diffusion).
Status check_rank_split(const StencilConfig& whole, int ranks);
// The CUDA device a rank uses: --device plus its rank among the ranks of its node, wrapping around the
// devices present (ranks beyond the GPU count share them).
int rank_device(int first_device, int local_rank, int device_count);

struct RankPlan {
    StencilConfig whole;
    int ranks = 1;
    Status verdict; // check_rank_split(whole, ranks)
    StencilConfig split; // rank_split_config(whole, ranks)
    StripPlan strips; // one strip per rank, where the verdict passes
};
RankPlan plan_ranks(const StencilConfig& whole, int ranks);

// One rank's part of the run on `device` (CUDA; 0 on the CPU backend).
struct RankStripPlan {
    Status verdict; // the split's, then can_implement of the strip as a domain of its own (device, block, memory)
    Strip strip;
    int ghost_depth = 0;
    StencilConfig local; // the strip as a domain of its own: its buffers
    // CUDA, where the verdict passes: the strip's buffers with the kernels of the whole domain's single-GPU text, so
    // that the split run is bitwise the single-process run.
    std::optional<KernelPlan> kernels;
};
RankStripPlan plan_rank_strip(const RankPlan&, int rank, int device, const DeviceCatalogue&);

// A rank's local domain (a strip's or a box's, gpu/plan/rank_grid_plan.h) checked by can_implement and, on CUDA, its
// kernels planned for `device` with the kernel text of `text`. The verdict; `kernels` is set where it passes on CUDA.
Status plan_rank_kernels(const StencilConfig& local, const StencilConfig& text, bool cuda, int device,
    const DeviceCatalogue&, std::optional<KernelPlan>& kernels);

} // namespace ss
