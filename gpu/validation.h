// SPDX-License-Identifier: MIT
// can_implement, in the CUTLASS manner: everything that can be known about a configuration before
// compiling or allocating, with a one-line reason meant for a user. It sits above the launch policy
// (blocks, shared memory) and the strip plan (multi_gpu.h), which never call each other, and asks no
// driver: the devices come from a DeviceCatalogue queried once, so the GUI thread may call it.
#pragma once

#include "gpu/config.h"
#include "gpu/device.h"

#include <cstdint>
#include <vector>

namespace ss {

// The problem alone: dims, radius, sizes (their product checked before it is formed).
Status check_problem(const StencilProblem&);
// The kernel policy for that problem: the variant applies, CF, a given block or the heuristic's, on
// `device` (null: CUDA's common limits, as the CPU backend describes what a GPU would run).
Status check_policy(const StencilConfig&, const DeviceInfo* device);
// The placement: the backend, the devices the strips need, the strip plan, memory per GPU or host.
Status check_placement(const StencilConfig&, const DeviceCatalogue&);

// All three, in that order: the first problem found.
Status can_implement(const StencilConfig&, const DeviceCatalogue&);

// Device memory each of the `gpus` devices needs (index 0 is `device`).
std::vector<std::int64_t> device_bytes_per_gpu(const StencilConfig&);
// Host memory the CPU backend needs: its two buffers (and diffusion's temporary) plus the initial
// field in double precision that the caller builds.
std::int64_t host_bytes_needed(const StencilConfig&);

} // namespace ss
