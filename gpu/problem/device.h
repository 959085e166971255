// SPDX-License-Identifier: MIT
// What the engine needs to know about a CUDA device, queried once. No CUDA headers here.
#pragma once

#include <algorithm>
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
    int sm_clock_khz = 0; // the SMs' peak clock (cudaDevAttrClockRate); 0: unknown
    std::int64_t l2_bytes = 0; // the L2 cache (50 MiB on the H100 SXM); 0: unknown
    std::string pci_bus_id;
    // Other devices whose memory this one's kernels can load (cudaDeviceCanAccessPeer): remote halo mode.
    std::vector<int> peers;
};

// What a program knows about the machine: queried once when it starts (query_device_catalogue, in each
// program's main) and passed down, so that validation, the GUI thread and reports never ask the driver
// again. Free memory is a snapshot; the engine re-reads it (refresh_free_memory) before it allocates.
struct DeviceCatalogue {
    std::vector<DeviceInfo> devices; // every CUDA device present, by index
    // Why no CUDA device can be used, in plain words with what to install ("CUDA driver found, NVRTC 13 not
    // found: install ..."); "" when one can.
    std::string unavailable;
    // The driver, NVRTC and CUPTI: a summary line, then one line per piece (gpu/problem/cuda_support.h).
    std::string cuda_support;
    std::int64_t host_available = -1; // host memory available when queried (MemAvailable), bytes; -1 unknown

    bool has_cuda() const { return !devices.empty(); }
    int count() const { return int(devices.size()); }
    // The device with this index, or null.
    const DeviceInfo* find(int index) const {
        return index >= 0 && index < count() ? &devices[std::size_t(index)] : nullptr;
    }
    // Whether kernels on `reader` can load `owner`'s memory: the same device, or peer access.
    bool can_read(int reader, int owner) const {
        const DeviceInfo* d = find(reader);
        return reader == owner || (d && std::find(d->peers.begin(), d->peers.end(), owner) != d->peers.end());
    }
    // Its name, or "CUDA device N" when it is not in the catalogue.
    std::string name_of(int index) const;
};

// A one-line reason why no CUDA device is usable (no driver, no device, no NVRTC), or "" when one is.
std::string cuda_unavailable_reason();
// Asks the driver (CUDA calls): call once per program, from main or the engine thread.
DeviceCatalogue query_device_catalogue();
// Re-reads the free memory of devices [first, first + count) (CUDA calls: the engine thread only) and
// the host's available memory.
void refresh_free_memory(DeviceCatalogue&, int first, int count);
// The host memory available now (MemAvailable in /proc/meminfo), bytes; -1 when unknown.
std::int64_t host_available_memory();
// A catalogue of described devices, for tests and what-if questions: `count` copies of `device`.
DeviceCatalogue described_catalogue(const DeviceInfo& device, int count, std::int64_t host_available = -1);

} // namespace ss
