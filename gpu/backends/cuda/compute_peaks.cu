// SPDX-License-Identifier: MIT
// An ahead-of-time compiled measurement (like bandwidth.cu): the L2's copy bandwidth and the FMA peaks of the
// roofline chart, timed with CUDA events, best of kRepeats.
#include "gpu/backends/compute_peaks.h"

#include "gpu/backends/cuda/once_per_device.h"

#include <cuda_runtime.h>

namespace ss {
namespace {

constexpr int kRepeats = 5; // timed launches of each kernel after one warm-up; the fastest counts
constexpr int kL2Passes = 1000; // copies of the L2 buffer per launch: one copy alone is shorter than a launch
constexpr int kFmaIterations = 16384; // per thread: ~1 ms of fp32 FMAs on an H100
constexpr int kChains = 8; // independent FMA chains per thread: enough to hide the FMA latency

// `passes` copies back and forth between a and b. Each pass shifts the indices by a block, so a thread reads what
// another thread wrote: the compiler cannot keep a value in registers from one pass to the next. The races between
// passes are harmless: only the bytes moved count, not their values. `n` is a power of two.
__global__ void l2_copy_kernel(float4* a, float4* b, std::int64_t n, int passes) {
    const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
    const std::int64_t first = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
    for (int p = 0; p < passes; ++p) {
        const float4* src = (p & 1) ? b : a;
        float4* dst = (p & 1) ? a : b;
        const std::int64_t shift = std::int64_t(p) * blockDim.x;
        for (std::int64_t i = first; i < n; i += stride) {
            const std::int64_t j = (i + shift) & (n - 1);
            dst[j] = src[j];
        }
    }
}

__device__ inline float fused(float a, float b, float c) {
    return __fmaf_rn(a, b, c);
}
__device__ inline double fused(double a, double b, double c) {
    return __fma_rn(a, b, c);
}

// kChains independent chains of `iterations` FMAs per thread; `m` and `c` come from the host so nothing folds, and
// the sum is written out so nothing is dropped.
template <typename T> __global__ void fma_kernel(T* out, T m, T c, int iterations) {
    T acc[kChains];
#pragma unroll
    for (int k = 0; k < kChains; ++k) acc[k] = T(threadIdx.x + k);
#pragma unroll 16
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int k = 0; k < kChains; ++k) acc[k] = fused(acc[k], m, c);
    }
    T sum = T(0);
#pragma unroll
    for (int k = 0; k < kChains; ++k) sum += acc[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

struct Timer {
    cudaEvent_t start = nullptr, stop = nullptr;
    Timer() {
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
    }
    ~Timer() {
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    // The fastest of kRepeats launches after one warm-up, in milliseconds.
    template <typename Launch> float best_ms(Launch launch) {
        float best = 0.0f;
        for (int i = 0; i < kRepeats + 1; ++i) {
            cudaEventRecord(start);
            launch();
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, start, stop);
            if (i > 0 && ms > 0.0f && (best == 0.0f || ms < best)) best = ms;
        }
        return best;
    }
};

// Two buffers of this many float4 together take a quarter of the L2 at most: the largest power of two that fits.
std::int64_t l2_buffer_elements(int l2_bytes) {
    std::int64_t n = 1;
    while (2 * (2 * n) * std::int64_t(sizeof(float4)) <= l2_bytes / 4) n *= 2;
    return n;
}

template <typename T> double fma_flops_per_s(Timer& timer, int blocks, int threads, std::string* error) {
    T* out = nullptr;
    if (cudaMalloc(&out, sizeof(T) * blocks * threads) != cudaSuccess) {
        *error = cudaGetErrorString(cudaGetLastError());
        return 0.0;
    }
    const float ms
        = timer.best_ms([&] { fma_kernel<T><<<blocks, threads>>>(out, T(0.999999), T(1e-6), kFmaIterations); });
    cudaFree(out);
    const double flops = 2.0 * kChains * double(kFmaIterations) * blocks * threads;
    return ms > 0.0f ? flops / (ms * 1e-3) : 0.0;
}

ComputePeaks measure(int device) {
    ComputePeaks r;
    r.repeats = kRepeats;
    cudaError_t e = cudaSetDevice(device);
    if (e == cudaSuccess) e = cudaDeviceSynchronize(); // the simulation's queued batches finish first
    int sms = 0, l2_bytes = 0;
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device);
    if (e != cudaSuccess) {
        r.error = cudaGetErrorString(e);
        cudaGetLastError();
        return r;
    }
    Timer timer;
    const int threads = 256, blocks = sms * 8; // 2048 threads per SM: every SM full
    if (l2_bytes > 0) {
        const std::int64_t n = l2_buffer_elements(l2_bytes);
        float4 *a = nullptr, *b = nullptr;
        if (cudaMalloc(&a, n * sizeof(float4)) == cudaSuccess && cudaMalloc(&b, n * sizeof(float4)) == cudaSuccess) {
            cudaMemset(a, 0, n * sizeof(float4));
            const float ms = timer.best_ms([&] { l2_copy_kernel<<<blocks, threads>>>(a, b, n, kL2Passes); });
            r.l2_buffer_bytes = n * std::int64_t(sizeof(float4));
            r.l2_passes = kL2Passes;
            if (ms > 0.0f) r.l2_bytes_per_s = 2.0 * double(r.l2_buffer_bytes) * kL2Passes / (ms * 1e-3);
        }
        cudaFree(a);
        cudaFree(b);
    }
    r.fp32_flops_per_s = fma_flops_per_s<float>(timer, blocks, threads, &r.error);
    r.fp64_flops_per_s = fma_flops_per_s<double>(timer, blocks, threads, &r.error);
    if ((e = cudaGetLastError()) != cudaSuccess) {
        r.error = cudaGetErrorString(e);
        r.l2_bytes_per_s = r.fp32_flops_per_s = r.fp64_flops_per_s = 0.0;
    }
    return r;
}

} // namespace

const ComputePeaks& measure_compute_peaks(int device) {
    return once_per_device<ComputePeaks>(device, measure);
}

} // namespace ss
