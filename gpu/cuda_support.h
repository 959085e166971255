// SPDX-License-Identifier: MIT
// Which CUDA pieces this machine has, in plain words. The CUDA runtime is linked statically and loads the
// driver (libcuda.so.1) itself; NVRTC (kernels are built by it) and CUPTI (hardware counters) are loaded
// at run time by gpu/cuda/cuda_libraries.cpp, so both programs start and run the CPU backend without any
// of them. No CUDA headers here: the programs' --version, `devices` and the About box use it.
#pragma once

#include <string>

namespace ss {

// One piece: where it was found, or why it cannot be used.
struct CudaPieceStatus {
    std::string name; // "NVRTC 13"
    bool found = false; // present (it may still be unusable: too old, incomplete)
    std::string path; // the file it was loaded from; may be empty when usable (the driver when not known)
    std::string detail; // e.g. "NVRTC 13.0", "supports CUDA 13.0"
    std::string problem; // why it is unusable, in plain words; empty when usable
    bool usable() const { return problem.empty(); }
};

// A colon-separated list of folders; when set, the only places searched for NVRTC and CUPTI.
inline constexpr const char* kCudaLibsVariable = "STENCILSCOPE_CUDA_LIBS";

// Each looked up once per process (thread-safe), on the first call.
CudaPieceStatus cuda_driver_status(); // libcuda.so.1 as the CUDA runtime sees it: present and new enough
CudaPieceStatus nvrtc_status(); // libnvrtc.so.13
CudaPieceStatus cupti_status(); // libcupti.so.13, with the libnvperf_host.so it loads

// "" when kernels can be built, else why not and what to install.
std::string nvrtc_unavailable_reason();
// "" when CUPTI can be loaded, else why not and what to install.
std::string cupti_unavailable_reason();

// What the GPU can do here, as one line; see describe_cuda_support.
std::string cuda_support_summary();
// The summary, then one indented line per piece (driver, NVRTC, CUPTI) with its path or its problem.
std::string cuda_support_report();

// The summary from given states (driver_version: the CUDA version the driver supports as 1000 * major +
// 10 * minor, 0 without a driver; devices: CUDA devices the driver reports), e.g. "CUDA driver found,
// NVRTC 13 not found: install cuda-nvrtc-13-0 (or the CUDA toolkit) to run kernels on the GPU; the CPU
// backend runs". Pure, for the tests.
std::string describe_cuda_support(
    int driver_version, int devices, const CudaPieceStatus& nvrtc, const CudaPieceStatus& cupti);

} // namespace ss
