// SPDX-License-Identifier: MIT
// Which kernel a configuration runs, by name: every kernel the engine generates has its own entry point, so that
// Nsight Compute (`ncu -k regex:NAME`), the reports and the GUI tell base, smem, the four 3D stream kernels and
// temporal apart. The generated source names its entry from this choice (kernel_source.cpp defines SS_ENTRY) and
// the backend looks the kernel up by the same name, so the name shown is the name that ran. Pure host code, built
// from the launch policy (stream_layout) like everything in plan/.
#pragma once

#include "gpu/problem/config.h"

#include <string>
#include <vector>

namespace ss {

struct KernelChoice {
    // The entry point a step launches (the one whose resources KernelResources reports); empty on the CPU backend.
    // No entry name contains another, so a profiler's regular expression picks exactly one.
    std::string entry;
    std::string label; // short, for people: "stream forward, two roles"
    std::string why; // one line: why this kernel runs for this configuration
    // The other kernels each step launches, in launch order (the diffusion ladder's halo and second kernels).
    std::vector<std::string> other_kernels;
};

// What the configuration runs on its backend: the GPU kernel, or the CPU loop (no entry) on the CPU backend.
KernelChoice choose_kernel(const StencilConfig&);
// The GPU kernel whatever the backend: what kernel_source() compiles.
KernelChoice choose_gpu_kernel(const StencilConfig&);
// The CPU backend's choice: its loop, no entry point.
KernelChoice cpu_loop_choice();

// For reports and the GUI: "ss_stream_tensor_3d (stream, fp64 tensor cores)", or the label alone without an entry;
// and the reason with the step's other kernels ("...; each step also launches ss_diffusion_halo, ...").
std::string kernel_title(const KernelChoice&);
std::string kernel_reason(const KernelChoice&);

} // namespace ss
