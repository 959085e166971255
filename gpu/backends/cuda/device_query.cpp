// SPDX-License-Identifier: MIT
#include "gpu/problem/device.h"

#include "gpu/problem/cuda_support.h"

#include <cuda_runtime.h>

#include <algorithm>

namespace ss {

namespace {
std::int64_t device_free_memory(int device);
} // namespace

std::string cuda_unavailable_reason() {
    return gpu_unusable_reason(); // the driver, a device and NVRTC (kernels are built by it) in plain words
}

namespace {

std::vector<DeviceInfo> query_devices() {
    std::vector<DeviceInfo> out;
    if (!nvrtc_unavailable_reason().empty()) return out; // no kernel can be built: cuda_unavailable_reason says so
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return out;
    }
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp p {};
        if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
        DeviceInfo info;
        info.index = d;
        info.name = p.name;
        info.cc_major = p.major;
        info.cc_minor = p.minor;
        info.sm_count = p.multiProcessorCount;
        info.max_threads_per_block = p.maxThreadsPerBlock;
        info.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
        info.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
        info.regs_per_sm = p.regsPerMultiprocessor;
        info.warp_size = p.warpSize;
        info.smem_per_block_optin = std::int64_t(p.sharedMemPerBlockOptin);
        info.smem_per_sm = std::int64_t(p.sharedMemPerMultiprocessor);
        info.total_memory = std::int64_t(p.totalGlobalMem);
        info.memory_bus_bits = p.memoryBusWidth;
        info.l2_bytes = std::int64_t(p.l2CacheSize);
        int clock = 0;
        cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, d);
        info.memory_clock_khz = clock;
        if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d) == cudaSuccess) info.sm_clock_khz = clock;
        char bus[32] = {};
        if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess) info.pci_bus_id = bus;
        info.free_memory = device_free_memory(d);
        for (int other = 0; other < count; ++other) {
            int can = 0;
            if (other != d && cudaDeviceCanAccessPeer(&can, d, other) == cudaSuccess && can)
                info.peers.push_back(other);
        }
        out.push_back(info);
    }
    return out;
}

std::int64_t device_free_memory(int device) {
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess) return 0;
    std::size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) free_bytes = 0;
    cudaSetDevice(previous);
    return std::int64_t(free_bytes);
}

} // namespace

DeviceCatalogue query_device_catalogue() {
    DeviceCatalogue c;
    c.devices = query_devices();
    if (c.devices.empty()) {
        c.unavailable = cuda_unavailable_reason();
        if (c.unavailable.empty()) c.unavailable = "no usable CUDA device found";
    }
    c.cuda_support = cuda_support_report();
    c.host_available = host_available_memory();
    return c;
}

void refresh_free_memory(DeviceCatalogue& c, int first, int count) {
    for (int d = std::max(first, 0); d < std::min(first + count, c.count()); ++d)
        c.devices[std::size_t(d)].free_memory = device_free_memory(d);
    c.host_available = host_available_memory();
}

} // namespace ss
