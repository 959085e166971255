// SPDX-License-Identifier: MIT
// The full NVRTC source for a configuration: a generated preamble (types, radius, CF, weights as exact
// hex literals) followed by the kernel file from gpu/kernels/, embedded at build time.
#pragma once

#include "gpu/config.h"

#include <string>

namespace ss {

std::string kernel_source(const StencilConfig&);

} // namespace ss
