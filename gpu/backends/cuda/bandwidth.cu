// SPDX-License-Identifier: MIT
// An ahead-of-time compiled kernel (CMAKE_CUDA_ARCHITECTURES; display_range.cu is the other): a plain
// streaming copy.
#include "gpu/backends/bandwidth.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace ss {
namespace {

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::int64_t n) {
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
         i += std::int64_t(gridDim.x) * blockDim.x)
        out[i] = in[i];
}

} // namespace

BandwidthResult measure_copy_bandwidth(int device, std::int64_t bytes, int repeats) {
    BandwidthResult r;
    auto fail = [&r](cudaError_t e) {
        r.error = cudaGetErrorString(e);
        cudaGetLastError();
        return r;
    };
    cudaError_t e = cudaSetDevice(device);
    if (e != cudaSuccess) return fail(e);
    const std::int64_t n = bytes / std::int64_t(sizeof(float4));
    float4 *in = nullptr, *out = nullptr;
    if ((e = cudaMalloc(&in, n * sizeof(float4))) != cudaSuccess) return fail(e);
    if ((e = cudaMalloc(&out, n * sizeof(float4))) != cudaSuccess) {
        cudaFree(in);
        return fail(e);
    }
    cudaMemset(in, 0, n * sizeof(float4));
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    // The roofline is the best copy we can make: a few launch shapes of the kernel and cudaMemcpy.
    struct Shape {
        int threads, blocks_per_sm; // 0 threads: cudaMemcpy
    };
    const Shape shapes[] = { { 256, 8 }, { 512, 4 }, { 1024, 2 }, { 256, 32 }, { 0, 0 } };
    double best_ms = 0.0;
    for (const Shape& shape : shapes) {
        std::vector<float> times;
        for (int i = 0; i < repeats + 2; ++i) { // two warm-up copies
            cudaEventRecord(start);
            if (shape.threads)
                copy_kernel<<<sms * shape.blocks_per_sm, shape.threads>>>(in, out, n);
            else
                cudaMemcpyAsync(out, in, n * sizeof(float4), cudaMemcpyDeviceToDevice);
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            float ms = 0;
            cudaEventElapsedTime(&ms, start, stop);
            if (i >= 2) times.push_back(ms);
        }
        std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
        const double median = times[times.size() / 2];
        if (best_ms == 0.0 || median < best_ms) best_ms = median;
    }
    e = cudaGetLastError();
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(in);
    cudaFree(out);
    if (e != cudaSuccess) return fail(e);
    r.milliseconds = best_ms;
    r.bytes_per_copy = n * std::int64_t(sizeof(float4));
    r.gbytes_per_s = 2.0 * double(r.bytes_per_copy) / (r.milliseconds * 1e-3) / 1e9;
    return r;
}

} // namespace ss
