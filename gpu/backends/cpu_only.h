// SPDX-License-Identifier: MIT
// A CPU-only build (configured without the CUDA toolkit: STENCILSCOPE_CUDA=OFF, or AUTO without nvcc):
// cpu_only.cpp stands in for the CUDA backend's entry points, each answering with kNoCudaBackend. The
// catalogue lists no device, so validation refuses --backend cuda before any of them is reached.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/kernel_plan.h"

#include <memory>
#include <string>

namespace ss {

inline constexpr const char* kNoCudaBackend = "this build has no CUDA backend: it was built without the CUDA toolkit";

// What cuda/cuda_simulation.h declares, without its CUDA headers (create_simulation.cpp calls it).
std::unique_ptr<Simulation> create_cuda_simulation(const KernelPlan&, std::string* why);
bool prepare_cuda_kernels(const KernelPlan&, std::string* why);
std::unique_ptr<Simulation> create_cuda_simulation_on_field(
    const KernelPlan&, Simulation& running, bool keep_previous, std::string* why);

} // namespace ss
