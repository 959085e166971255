// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/simulation.h"

namespace ss {

// Compiles the configuration's kernels (NVRTC, cached), applies the launch policy and allocates.
// nullptr with `why` set when the device refuses (e.g. the compiled kernel leaves no valid block).
std::unique_ptr<Simulation> create_cuda_simulation(const StencilConfig&, const DeviceInfo&, std::string* why);

} // namespace ss
