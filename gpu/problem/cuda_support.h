// SPDX-License-Identifier: MIT
// Which CUDA pieces this machine has, in plain words. The CUDA runtime is linked statically and loads the
// driver (libcuda.so.1) itself; NVRTC (kernels are built by it) and CUPTI (hardware counters) are loaded
// at run time by gpu/backends/cuda/cuda_libraries.cpp, so both programs start and run the CPU backend without any
// of them. No CUDA headers here: the programs' --version, `devices` and the About box use it.
#pragma once

#include <string>
#include <vector>

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

// For both programs' --help (and so their man pages).
inline constexpr const char* kCudaLibsHelp = R"(
CUDA: kernels run on an NVIDIA GPU when its driver (libcuda.so.1, driver 580 or newer) and NVRTC 13
(libnvrtc.so.13) are found; hardware counters also need CUPTI 13 (libcupti.so.13). Without them the
CPU backend runs. NVRTC and CUPTI are looked for in the library path, then in /usr/local/cuda and
/usr/local/cuda-13.*; STENCILSCOPE_CUDA_LIBS=DIR[:DIR...] searches only those folders instead.
--version (and stencilscope-cli devices) says what was found, or what to install.
)";

// Each looked up once per process (thread-safe), on the first call.
CudaPieceStatus cuda_driver_status(); // libcuda.so.1 as the CUDA runtime sees it: present and new enough
CudaPieceStatus nvrtc_status(); // libnvrtc.so.13
CudaPieceStatus cupti_status(); // libcupti.so.13, with the libnvperf_host.so it loads

// "" when kernels can be built, else why not and what to install.
std::string nvrtc_unavailable_reason();
// "" when CUPTI can be loaded, else why not and what to install.
std::string cupti_unavailable_reason();

// "" when kernels can run on a GPU here (driver, device and NVRTC), else why not, in plain words; see
// describe_gpu_unusable. CUDA calls: device_query.cpp's cuda_unavailable_reason is the way in.
std::string gpu_unusable_reason();
// What the GPU can do here, as one line; see describe_cuda_support.
std::string cuda_support_summary();
// The summary after "CUDA: ", then one indented line per piece (driver, NVRTC, CUPTI) with its path or
// its problem.
std::string cuda_support_report();

// Pure, for the tests. driver_version: the CUDA version the driver supports, 1000 * major + 10 * minor, 0
// without a driver; devices: CUDA devices the driver reports; device_error: why cudaGetDeviceCount failed
// ("" when it did not, or found no device). "" when the GPU can run kernels, else e.g. "CUDA driver
// found, NVRTC 13 not found: install cuda-nvrtc-13-0 or the CUDA toolkit to run kernels on the GPU".
std::string describe_gpu_unusable(
    int driver_version, int devices, const std::string& device_error, const CudaPieceStatus& nvrtc);
// describe_gpu_unusable + "; the CPU backend runs", or, the GPU usable, whether CUPTI gives counters.
std::string describe_cuda_support(int driver_version, int devices, const std::string& device_error,
    const CudaPieceStatus& nvrtc, const CudaPieceStatus& cupti);

// The toolkit's usual folders, searched after the system's library path: /usr/local/cuda and the newest
// /usr/local/cuda-13.* first (lib64, targets/x86_64-linux/lib, extras/CUPTI/lib64), then the multiarch
// folder of distribution packages.
std::vector<std::string> cuda_library_folders();
// A ':' list of folders (STENCILSCOPE_CUDA_LIBS, PATH) as its non-empty parts, in order.
std::vector<std::string> split_folder_list(const std::string& list);
// The folders STENCILSCOPE_CUDA_LIBS names (a ':' list, empty parts skipped); none when it is unset.
std::vector<std::string> named_cuda_library_folders();

// One library's lookup, not cached (the tests call it with folders of their own): `soname` in the
// system's library path unless `only_folders`, then in each of `folders`. Returns the dlopen handle, or
// nullptr with `status->problem` saying where it looked; `status->name` is set to `name`.
void* open_cuda_library(const std::string& name, const std::string& soname, const std::vector<std::string>& folders,
    bool only_folders, CudaPieceStatus* status);

} // namespace ss
