// SPDX-License-Identifier: MIT
// The CUDA backend of gpu/backends/rank_strip.h: one CudaSimulation of the rank's strip. No CUDA headers here, so
// that rank_strip.cpp can call it.
#pragma once

#include "gpu/backends/rank_strip.h"
#include "gpu/plan/kernel_plan.h"

namespace ss {

// The rank's kernel plan (RankStripPlan::kernels: the strip's buffers, the whole domain's single-GPU text, so the
// split run is bitwise the single run). nullptr with `why` set when the device refuses.
std::unique_ptr<RankStrip> create_cuda_rank_strip(
    const KernelPlan&, const Strip& strip, int ghost_depth, std::string* why);

// Page-locked host memory (cudaMallocHost); throws std::bad_alloc when it cannot be had.
std::shared_ptr<unsigned char> allocate_pinned(std::size_t bytes);

} // namespace ss
