// SPDX-License-Identifier: MIT
// The CUDA backend of gpu/backends/rank_domain.h: one CudaSimulation of the rank's local domain, its strided faces
// packed into and unpacked from host buffers by cudaMemcpy3D. No CUDA headers here, so that rank_domain.cpp can call
// it (cpu_only.cpp answers it in a build without CUDA).
#pragma once

#include "gpu/backends/rank_domain.h"

namespace ss {

// The plan's kernels (RankDomainPlan::kernels) over the local domain's buffers. nullptr with `why` set when the
// device refuses.
std::unique_ptr<RankDomain> create_cuda_rank_domain(const RankDomainPlan&, std::string* why);

} // namespace ss
