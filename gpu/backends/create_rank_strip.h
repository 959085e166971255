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

// A rank's strip as its plan says (plan_rank_strip, gpu/plan/rank_plan.h): its buffers, and on a GPU the plan's
// kernels. A refused plan gives nullptr with its reason in `why`, as does a failed allocation or build.
std::unique_ptr<RankStrip> create_rank_strip(const RankStripPlan&, std::string* why);

} // namespace ss
