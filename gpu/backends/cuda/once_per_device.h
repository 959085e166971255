// SPDX-License-Identifier: MIT
// A device figure measured once per process (the copy roofline, the compute peaks): the first caller for a device
// measures, later callers get the same result. The caller's current device is put back afterwards.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <mutex>

namespace ss {

template <typename Result, typename Measure> const Result& once_per_device(int device, Measure&& measure) {
    static std::mutex mutex;
    static std::map<int, Result> measured; // map nodes stay put: the references handed out stay valid
    const std::lock_guard lock(mutex);
    auto it = measured.find(device);
    if (it == measured.end()) {
        int previous = -1;
        const bool had_device = cudaGetDevice(&previous) == cudaSuccess;
        it = measured.emplace(device, measure(device)).first;
        if (had_device) cudaSetDevice(previous);
        cudaGetLastError(); // a failed measurement says so in its result, not as a sticky error
    }
    return it->second;
}

} // namespace ss
