// SPDX-License-Identifier: MIT
// Min and max of a display slice (ahead-of-time compiled, like the copy kernel of bandwidth.cu).
#include "gpu/backends/cuda/display_range.h"

#include <cstring>

namespace ss {
namespace {

// Floats map to unsigned integers that sort in the same order, so atomicMin/atomicMax can compare them.
__host__ __device__ unsigned order_preserving(float v) {
    unsigned bits = 0;
    memcpy(&bits, &v, sizeof bits);
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

__host__ __device__ float from_order_preserving(unsigned u) {
    const unsigned bits = (u & 0x80000000u) ? u & 0x7fffffffu : ~u;
    float v = 0.0f;
    memcpy(&v, &bits, sizeof v);
    return v;
}

__global__ void display_range_kernel(const float* __restrict__ values, std::size_t count, unsigned* out) {
    unsigned lo = 0xffffffffu, hi = 0u;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const float v = values[i];
        if (!isfinite(v)) continue;
        const unsigned u = order_preserving(v);
        lo = min(lo, u);
        hi = max(hi, u);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, offset));
        hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, offset));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicMin(out, lo);
        atomicMax(out + 1, hi);
    }
}

template <typename T>
__global__ void max_projection_kernel(const T* __restrict__ field, long long origin, long long su, long long sv,
    long long sw, int nu, int nv, int nw, float* __restrict__ out) {
    const int u = blockIdx.x * blockDim.x + threadIdx.x, v = blockIdx.y * blockDim.y + threadIdx.y;
    if (u >= nu || v >= nv) return;
    const T* p = field + origin + u * su + v * sv;
    float best = -INFINITY;
    for (int w = 0; w < nw; ++w) best = fmaxf(best, float(p[w * sw]));
    out[u + std::size_t(v) * nu] = best;
}

} // namespace

cudaError_t queue_max_projection_on(const void* field, bool fp64, long long origin, long long su, long long sv,
    long long sw, int nu, int nv, int nw, float* out, cudaStream_t stream) {
    const dim3 block(32, 8), grid((nu + 31) / 32, (nv + 7) / 8);
    if (fp64)
        max_projection_kernel<<<grid, block, 0, stream>>>(
            static_cast<const double*>(field), origin, su, sv, sw, nu, nv, nw, out);
    else
        max_projection_kernel<<<grid, block, 0, stream>>>(
            static_cast<const float*>(field), origin, su, sv, sw, nu, nv, nw, out);
    return cudaGetLastError();
}

cudaError_t queue_display_range_on(
    const float* values, std::size_t count, unsigned* out, unsigned* host_out, cudaStream_t stream) {
    // start from an empty range: lo at the top of the encoding, hi at the bottom
    if (cudaError_t e = cudaMemsetAsync(out, 0xff, sizeof(unsigned), stream); e != cudaSuccess) return e;
    if (cudaError_t e = cudaMemsetAsync(out + 1, 0, sizeof(unsigned), stream); e != cudaSuccess) return e;
    const int threads = 256;
    const std::size_t wanted = (count + threads - 1) / threads;
    const int blocks = int(wanted < 256 ? (wanted > 0 ? wanted : 1) : 256); // ~2 per SM: the slice is ~1 M values
    display_range_kernel<<<blocks, threads, 0, stream>>>(values, count, out);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    return cudaMemcpyAsync(host_out, out, 2 * sizeof(unsigned), cudaMemcpyDeviceToHost, stream);
}

std::pair<float, float> decode_display_range(const unsigned encoded[2]) {
    if (encoded[0] > encoded[1]) return { 0.0f, 1.0f };
    return { from_order_preserving(encoded[0]), from_order_preserving(encoded[1]) };
}

} // namespace ss
