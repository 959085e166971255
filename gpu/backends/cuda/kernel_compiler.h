// SPDX-License-Identifier: MIT
// Run-time kernel generation: NVRTC compiles a source for the device's architecture, the CUDA runtime
// loads it as a library. Compiled modules are cached per (source, architecture) for the process, and
// distinct sources may compile concurrently (the tests warm the cache from a thread pool).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

namespace ss {

class CompiledModule {
public:
    CompiledModule(cudaLibrary_t library, double compile_ms)
        : m_library(library)
        , m_compile_ms(compile_ms) { }
    ~CompiledModule();
    CompiledModule(const CompiledModule&) = delete;
    CompiledModule& operator=(const CompiledModule&) = delete;

    // The kernel handle, usable wherever the runtime takes a kernel function pointer.
    const void* kernel(const char* name) const;
    double compile_ms() const { return m_compile_ms; }

private:
    cudaLibrary_t m_library;
    double m_compile_ms;
};

// Compiles (or finds in the cache) `source` for compute capability major.minor.
// Throws CudaError with NVRTC's log on a compile error.
std::shared_ptr<const CompiledModule> compile_module(
    const std::string& source, int cc_major, int cc_minor, bool* from_cache = nullptr);

// Compiles without loading (works with no GPU present): "" on success, else NVRTC's log.
std::string nvrtc_compile_errors(const std::string& source, int cc_major, int cc_minor);
// Compiles without loading: the cubin (PTX for an architecture NVRTC cannot emit SASS for), as the runtime would
// load it. Throws CudaError with NVRTC's log. Tests read its entry-point names from it.
std::vector<char> nvrtc_compile_image(const std::string& source, int cc_major, int cc_minor);

} // namespace ss
