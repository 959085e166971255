// SPDX-License-Identifier: MIT
// The parts of device.h that ask no driver (the CUDA backend's cuda/device_query.cpp asks it), so that a
// CPU-only build has them too.
#include "gpu/problem/device.h"

#include <fstream>

namespace ss {

std::string DeviceCatalogue::name_of(int index) const {
    const DeviceInfo* d = find(index);
    return d ? d->name : "CUDA device " + std::to_string(index);
}

std::int64_t host_available_memory() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::int64_t kib = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    return -1;
}

DeviceCatalogue described_catalogue(const DeviceInfo& device, int count, std::int64_t host_available) {
    DeviceCatalogue c;
    for (int i = 0; i < count; ++i) {
        c.devices.push_back(device);
        c.devices.back().index = i;
    }
    if (count == 0) c.unavailable = "no CUDA device found";
    c.host_available = host_available;
    return c;
}

} // namespace ss
