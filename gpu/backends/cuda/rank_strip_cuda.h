// SPDX-License-Identifier: MIT
// The CUDA backend of gpu/backends/rank_strip.h: one CudaSimulation of the rank's strip. No CUDA headers here, so
// that rank_strip.cpp can call it.
#pragma once

#include "gpu/backends/rank_strip.h"

namespace ss {

// `local`: the strip's buffers; `kernels`: the whole domain's single-GPU configuration (identical kernel
// text, so the split run is bitwise the single run). Throws CudaError; nullptr with `why` set when refused.
std::unique_ptr<RankStrip> create_cuda_rank_strip(const StencilConfig& local, const StencilConfig& kernels,
    const Strip& strip, int ghost_depth, const DeviceInfo&, std::string* why);

// Page-locked host memory (cudaMallocHost); throws std::bad_alloc when it cannot be had.
std::shared_ptr<unsigned char> allocate_pinned(std::size_t bytes);

} // namespace ss
