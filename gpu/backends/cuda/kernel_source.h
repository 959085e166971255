// SPDX-License-Identifier: MIT
// The full NVRTC source of a kernel plan (gpu/plan/kernel_plan.h): a generated preamble (types, radius, CF, weights as
// exact hex literals, the entry's name, the layout and knobs the plan holds) followed by the kernel file from
// gpu/kernels/, embedded at build time. It writes what the plan says and decides nothing.
#pragma once

#include "gpu/plan/kernel_plan.h"

#include <string>

namespace ss {

// `fixed_block` specialises the kernel for those block dims (for the stream variant the halo map, its
// register count and the launch bounds become compile-time; base/smem/smem_padded get launch bounds of
// `min_blocks_per_sm` blocks); null gives the generic kernel.
std::string kernel_source(const KernelPlan&, const BlockDims* fixed_block = nullptr, int min_blocks_per_sm = 1);

} // namespace ss
