// SPDX-License-Identifier: MIT
// Ahead-of-time compiled, like the copy kernel of bandwidth.cu: the element type is all it needs to know.
#include "gpu/backends/cuda/face_packing.h"

#include <cstdint>

namespace ss {
namespace {

// One thread per cell of the box; `gather` copies field -> packed, otherwise packed -> field.
template <typename T, bool gather>
__global__ void face_kernel(
    T* field, T* packed, int nx, int ny, int bx, int by, int bz, int sx, int sy, std::size_t cells) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < cells;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t x = i % std::size_t(sx), rest = i / std::size_t(sx);
        const std::size_t y = rest % std::size_t(sy), z = rest / std::size_t(sy);
        const std::size_t at
            = ((std::size_t(bz) + z) * std::size_t(ny) + std::size_t(by) + y) * std::size_t(nx) + std::size_t(bx) + x;
        if (gather)
            packed[i] = field[at];
        else
            field[at] = packed[i];
    }
}

template <typename T, bool gather> cudaError_t queue(T* field, T* packed, const FaceBox& box, cudaStream_t stream) {
    const std::size_t cells = box.cells();
    if (cells == 0) return cudaSuccess;
    const int threads = 256;
    const std::size_t wanted = (cells + threads - 1) / threads;
    const int blocks = int(wanted < 4096 ? wanted : 4096); // a few waves on any GPU; the loop covers the rest
    face_kernel<T, gather><<<blocks, threads, 0, stream>>>(
        field, packed, box.nx, box.ny, box.begin[0], box.begin[1], box.begin[2], box.size[0], box.size[1], cells);
    return cudaGetLastError();
}

} // namespace

cudaError_t queue_pack_face(const void* field, const FaceBox& box, void* packed, cudaStream_t stream) {
    auto* f = const_cast<void*>(field); // read only: the kernel's gather direction
    if (box.element == 8)
        return queue<std::uint64_t, true>(
            static_cast<std::uint64_t*>(f), static_cast<std::uint64_t*>(packed), box, stream);
    return queue<std::uint32_t, true>(static_cast<std::uint32_t*>(f), static_cast<std::uint32_t*>(packed), box, stream);
}

cudaError_t queue_unpack_face(void* field, const FaceBox& box, const void* packed, cudaStream_t stream) {
    auto* p = const_cast<void*>(packed); // read only: the kernel's scatter direction
    if (box.element == 8)
        return queue<std::uint64_t, false>(
            static_cast<std::uint64_t*>(field), static_cast<std::uint64_t*>(p), box, stream);
    return queue<std::uint32_t, false>(static_cast<std::uint32_t*>(field), static_cast<std::uint32_t*>(p), box, stream);
}

} // namespace ss
