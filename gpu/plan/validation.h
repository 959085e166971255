// SPDX-License-Identifier: MIT
// can_implement, in the CUTLASS manner: everything that can be known about a configuration before
// compiling or allocating, with a one-line reason meant for a user. It sits above the launch policy
// (blocks, shared memory) and the strip plan (strip_plan.h), which never call each other, and asks no
// driver: the devices come from a DeviceCatalogue queried once, so the GUI thread may call it.
#pragma once

#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ss {

// The star stencil's radius range, 1..kMaxRadius (gpu/plan/launch_policy.h): the one test of it that the engine, the
// command lines, sweeps and setups apply, and its text ("1..16") for their messages.
bool radius_in_range(int radius);
std::string radius_range_text();

// The problem alone: dims, radius, sizes (their product checked before it is formed).
Status check_problem(const StencilProblem&);
// The kernel policy for that problem: the variant applies, CF, a given block or the heuristic's, on
// `device` (null: CUDA's common limits, as the CPU backend describes what a GPU would run).
Status check_policy(const StencilConfig&, const DeviceInfo* device);
// The placement: the backend, the devices the strips need, the strip plan, memory per GPU or host.
Status check_placement(const StencilConfig&, const DeviceCatalogue&);

// can_implement's reason for Variant::Auto, which is no kernel but a request to time candidates
// (gpu/studies/auto_choice.h): it is resolved to a concrete variant before a configuration is planned.
inline constexpr const char* kResolveAutoFirst
    = "variant auto is resolved to the fastest kernel by timing candidates before a run is planned: resolve "
      "--variant auto first (stencilscope-cli run and bench do), or name a variant";
// What a request for auto is checked as before it is resolved: its fallback candidate, which every stencil of its
// kind runs (base; smem for diffusion4) at CF 1, depth 1 and the heuristic block. Any other configuration as is.
StencilConfig auto_stand_in(const StencilConfig&);

// All three, in that order: the first problem found. On the CPU backend the policy is also checked against the
// most capable GPU (largest_gpu_limits): what no GPU could run is refused on every backend, with the GPU's reason.
Status can_implement(const StencilConfig&, const DeviceCatalogue&);
// The memory the placement needs against what `catalogue` has free: each GPU's, or the CPU backend's host memory.
// can_implement's last rule, so a configuration it accepted runs on a catalogue whose free memory was re-read once
// this passes there (the engine thread re-reads it before allocating).
Status check_memory(const StencilConfig&, const DeviceCatalogue&);

// Device memory each of the `gpus` devices needs (index 0 is `device`).
std::vector<std::int64_t> device_bytes_per_gpu(const StencilConfig&);
// Host memory the CPU backend needs: its two buffers (and diffusion's temporary) plus the initial
// field in double precision that the caller builds.
std::int64_t host_bytes_needed(const StencilConfig&);

// The depths a sweep (`sweep --experiment depth`) and a search (autotune) try for `c`: every depth of 1..12 in
// 2D and 1..6 in 3D, odd and even, less those check_temporal_policy refuses, whose halo fills the heuristic
// tile (temporal_block) or whose ghost rows (R x depth) are thicker than a strip (check_strips). `c`'s variant and
// depth are ignored. Deeper ones are left out because they cannot win: past the depth where DRAM stops being the
// bottleneck (EBISU's model, gpu/studies/ebisu_model.h: t ~ 4..7 for R1 on the H100) more depth only adds redundant
// halo work, so the rate falls with the valid proportion V(t), as measured from depth 10 on in 2D and 5 on in 3D
// (docs/PERFORMANCE.md).
std::vector<int> temporal_depths(const StencilConfig& c);

} // namespace ss
