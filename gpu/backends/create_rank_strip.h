// SPDX-License-Identifier: MIT
// The ranks' factory: a RankStrip (gpu/backends/rank_strip.h) on the CPU backend or on a GPU (cuda/rank_strip_cuda.h),
// above both, which know only the RankStrip interface.
#pragma once

#include "gpu/backends/rank_strip.h"

#include <cstddef>
#include <memory>
#include <string>

namespace ss {

// Host memory for staging: pinned (cudaMallocHost) on the CUDA backend, so that the copies run at full
// speed; ordinary memory on the CPU backend. Throws std::bad_alloc when it cannot.
std::shared_ptr<unsigned char> allocate_staging(std::size_t bytes, Backend);

// Whether strip `rank` of the split can run on `device` (CUDA; ignored on the CPU): check_rank_split, then
// can_implement of the strip as a domain of its own (device present, block, memory). Bad input when not.
Status check_rank_strip(const StencilConfig& whole, int ranks, int rank, int device, const DeviceCatalogue&);
// Strip `rank` of rank_split_config(whole, ranks) on `device` (CUDA backend; ignored on the CPU): the
// strip's buffers and the kernels of the whole domain's single-GPU text, so that the split run is
// bitwise the single-process run. Checks the strip with can_implement first; nullptr with `why` set.
std::unique_ptr<RankStrip> create_rank_strip(
    const StencilConfig& whole, int ranks, int rank, int device, const DeviceCatalogue&, std::string* why);

} // namespace ss
