// SPDX-License-Identifier: MIT
// Run-time kernel generation: NVRTC compiles a source for the device's architecture, the CUDA runtime
// loads it as a library. Compiled modules are cached per (source, architecture) for the process, and
// distinct sources may compile concurrently (the tests warm the cache from a thread pool, the window builds
// the next configuration's kernels on a thread of their own). Built images are also kept on disk between
// runs (gpu/io/kernel_disk_cache.h) unless --no-kernel-cache switched that off.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

namespace ss {

class KernelDiskCache;

class CompiledModule {
public:
    CompiledModule(cudaLibrary_t library, double compile_ms, bool from_disk)
        : m_library(library)
        , m_compile_ms(compile_ms)
        , m_from_disk(from_disk) { }
    ~CompiledModule();
    CompiledModule(const CompiledModule&) = delete;
    CompiledModule& operator=(const CompiledModule&) = delete;

    // The kernel handle, usable wherever the runtime takes a kernel function pointer.
    const void* kernel(const char* name) const;
    double compile_ms() const { return m_compile_ms; } // 0 when the image came from the disk cache
    bool from_disk() const { return m_from_disk; }

private:
    cudaLibrary_t m_library;
    double m_compile_ms;
    bool m_from_disk;
};

// Compiles (or finds in the caches) `source` for compute capability major.minor. `from_cache`: it was in the
// process's cache or on disk, so nothing was built. Throws CudaError with NVRTC's log on a compile error.
std::shared_ptr<const CompiledModule> compile_module(
    const std::string& source, int cc_major, int cc_minor, bool* from_cache = nullptr);

// Compiles without loading (works with no GPU present): "" on success, else NVRTC's log.
std::string nvrtc_compile_errors(const std::string& source, int cc_major, int cc_minor);
// Compiles without loading: the cubin (PTX for an architecture NVRTC cannot emit SASS for), as the runtime would
// load it. Throws CudaError with NVRTC's log. Tests read its entry-point names from it.
std::vector<char> nvrtc_compile_image(const std::string& source, int cc_major, int cc_minor);
// The same image through `cache` (null: none): a whole stored entry for this source, architecture, NVRTC,
// driver and options, else built and stored. `from_cache` says which.
std::vector<char> cached_nvrtc_image(
    const std::string& source, int cc_major, int cc_minor, const KernelDiskCache* cache, bool* from_cache = nullptr);

} // namespace ss
