// SPDX-License-Identifier: MIT
// The full NVRTC source for a configuration: a generated preamble (types, radius, CF, weights as exact
// hex literals) followed by the kernel file from gpu/kernels/, embedded at build time.
#pragma once

#include "gpu/config.h"

#include <string>

namespace ss {

// `fixed_block`, for the stream variant, specialises the kernel for those block dims (the halo map,
// its register count and the launch bounds become compile-time); null gives the generic kernel.
std::string kernel_source(const StencilConfig&, const BlockDims* fixed_block = nullptr);

} // namespace ss
