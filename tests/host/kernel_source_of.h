// SPDX-License-Identifier: MIT
// The NVRTC text of a configuration on one GPU, as the CUDA backend writes it: its kernel plan (on the largest GPU's
// limits, what a machine without one describes) through the source generator.
#pragma once

#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/launch_policy.h"

#include <string>

inline std::string kernel_source_of(
    const ss::StencilConfig& c, const ss::BlockDims* fixed_block = nullptr, int min_blocks_per_sm = 1) {
    return ss::kernel_source(ss::plan_single_gpu_kernels(c, ss::largest_gpu_limits()), fixed_block, min_blocks_per_sm);
}
