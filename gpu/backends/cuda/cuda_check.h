// SPDX-License-Identifier: MIT
// CUDA runtime errors become exceptions carrying one readable line; the engine's callers catch them.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace ss {

struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(e));
}

} // namespace ss
