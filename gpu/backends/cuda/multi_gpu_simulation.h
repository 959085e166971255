// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/strip_plan.h"

namespace ss {

// Strip partitioning over config.gpus devices (times the strips_per_device testing hook): one
// CudaSimulation per strip, one host thread and two streams per strip, ghost rows exchanged after every
// step (docs/ARCHITECTURE.md has the schedule). `strips` is the launch plan's partition (plan_strips of the
// configuration, gpu/plan/strip_plan.h) and `strip_kernels` its kernels, one per strip (plan_strip_kernels).
// nullptr with `why` set on failure.
std::unique_ptr<Simulation> create_multi_gpu_simulation(
    const StencilConfig&, const StripPlan& strips, const std::vector<KernelPlan>& strip_kernels, std::string* why);

} // namespace ss
