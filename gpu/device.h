// SPDX-License-Identifier: MIT
// What the engine needs to know about a CUDA device, queried once. No CUDA headers here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ss {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int max_threads_per_block = 1024;
    int max_threads_per_sm = 2048;
    int max_blocks_per_sm = 32;
    int regs_per_sm = 65536;
    int warp_size = 32;
    std::int64_t smem_per_block_optin = 48 * 1024; // the most dynamic shared memory a block may opt into
    std::int64_t smem_per_sm = 0;
    std::int64_t total_memory = 0;
    std::int64_t free_memory = 0;
    int memory_bus_bits = 0;
    int memory_clock_khz = 0;
    std::string pci_bus_id;
};

// Every CUDA device present; empty (never throws) when there is no driver, no device, or no NVRTC to
// build kernels with (gpu/cuda_support.h).
std::vector<DeviceInfo> query_devices();
// A one-line reason why no device is usable ("no CUDA driver", ...), or "" when at least one is.
std::string cuda_unavailable_reason();
// Host memory available to this process now (MemAvailable), or -1 when unknown.
std::int64_t host_available_memory();
// Free memory now (the value in DeviceInfo is from query time).
std::int64_t device_free_memory(int device);

} // namespace ss
