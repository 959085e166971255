// SPDX-License-Identifier: MIT
// The one copy roofline per device and process (bandwidth.h): sized to the free memory, measured once.
#include "gpu/backends/bandwidth.h"

#include "gpu/backends/cuda/once_per_device.h"

#include <cuda_runtime.h>

namespace ss {
namespace {

std::int64_t free_bytes_on(int device, std::string* error) {
    cudaError_t e = cudaSetDevice(device);
    std::size_t free_bytes = 0, total = 0;
    if (e == cudaSuccess) e = cudaMemGetInfo(&free_bytes, &total);
    if (e != cudaSuccess) {
        *error = cudaGetErrorString(e);
        cudaGetLastError();
        return 0;
    }
    return std::int64_t(free_bytes);
}

std::string mib_text(std::int64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

CopyRoofline measure(int device) {
    CopyRoofline r;
    std::string error;
    const std::int64_t free_bytes = free_bytes_on(device, &error);
    if (!error.empty()) {
        r.measured.error = error;
        r.note = "copy roofline not measured: " + error;
        return r;
    }
    const std::int64_t bytes = roofline_copy_bytes(free_bytes);
    if (bytes == 0) {
        r.measured.error = "too little free GPU memory";
        r.note = "copy roofline not measured: two copies of " + mib_text(kRooflineMinCopyBytes) + " need "
            + mib_text(4 * kRooflineMinCopyBytes) + " free, " + mib_text(free_bytes) + " are";
        return r;
    }
    r.measured = measure_copy_bandwidth(device, bytes, kRooflineRepeats);
    r.reduced = bytes < kRooflineCopyBytes;
    if (!r.measured.error.empty())
        r.note = "copy roofline not measured: " + r.measured.error;
    else if (r.reduced)
        r.note = "copy roofline measured with " + mib_text(bytes) + " copies instead of " + mib_text(kRooflineCopyBytes)
            + ": only " + mib_text(free_bytes) + " of GPU memory free";
    return r;
}

} // namespace

const CopyRoofline& measure_copy_roofline(int device) {
    return once_per_device<CopyRoofline>(device, measure);
}

} // namespace ss
