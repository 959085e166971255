// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/backends/simulation.h"

namespace ss {

// Strip partitioning over config.gpus devices (times the strips_per_device testing hook): one
// CudaSimulation per strip, one host thread and two streams per strip, ghost rows exchanged after every
// step (gpu/plan/strip_plan.h has the partition; docs/ARCHITECTURE.md the schedule). nullptr with `why` set
// on failure.
std::unique_ptr<Simulation> create_multi_gpu_simulation(
    const StencilConfig&, const std::vector<DeviceInfo>& devices, std::string* why);

} // namespace ss
