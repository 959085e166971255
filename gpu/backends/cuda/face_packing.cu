// SPDX-License-Identifier: MIT
// Ahead-of-time compiled, like the copy kernel of bandwidth.cu: the element type is all it needs to know.
#include "gpu/backends/cuda/face_packing.h"

#include <cstdint>

namespace ss {
namespace {

// Where a box's cell i (x fastest within the box) lies in its field.
struct Placement {
    int nx, ny, bx, by, bz;
    __device__ std::size_t at(std::size_t x, std::size_t y, std::size_t z) const {
        return ((std::size_t(bz) + z) * std::size_t(ny) + std::size_t(by) + y) * std::size_t(nx) + std::size_t(bx) + x;
    }
};

// One thread per cell of a box of sx x sy x ... cells, from its place in `source` to its place in `target`.
template <typename T>
__global__ void copy_box_kernel(const T* __restrict__ source, Placement from, T* __restrict__ target, Placement to,
    int sx, int sy, std::size_t cells) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < cells;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t x = i % std::size_t(sx), rest = i / std::size_t(sx);
        const std::size_t y = rest % std::size_t(sy), z = rest / std::size_t(sy);
        target[to.at(x, y, z)] = source[from.at(x, y, z)];
    }
}

Placement placement_of(const FaceBox& box) {
    return { box.nx, box.ny, box.begin[0], box.begin[1], box.begin[2] };
}

// The box packed: its own extent, from the origin.
FaceBox dense(const FaceBox& box) {
    FaceBox d = box;
    d.nx = box.size[0], d.ny = box.size[1];
    d.begin[0] = d.begin[1] = d.begin[2] = 0;
    return d;
}

// Rows of a box at least this long go by the copy engine, which needs no SM: a face queued beside the interior's
// kernel (issue 37: the slowest axis' faces under overlap) moves at once instead of waiting for the interior's
// blocks to retire. Shorter rows (an x face's R cells) go by the kernel, which moves them far faster.
constexpr std::size_t kCopyEngineRowBytes = 512;

cudaPitchedPtr pitched(const void* field, const FaceBox& box) {
    const std::size_t row = std::size_t(box.nx) * box.element;
    return make_cudaPitchedPtr(const_cast<void*>(field), row, row, std::size_t(box.ny));
}

cudaPos position(const FaceBox& box) {
    return make_cudaPos(std::size_t(box.begin[0]) * box.element, std::size_t(box.begin[1]), std::size_t(box.begin[2]));
}

// The box as rows of size[0] cells, size[1] per layer, size[2] layers: one strided copy between any two device
// buffers of one address space (a neighbour's field mapped from another process included).
cudaError_t queue_copy_engine(
    const void* source, const FaceBox& from, void* target, const FaceBox& to, cudaStream_t stream) {
    cudaMemcpy3DParms copy = {};
    copy.srcPtr = pitched(source, from), copy.srcPos = position(from);
    copy.dstPtr = pitched(target, to), copy.dstPos = position(to);
    copy.extent = make_cudaExtent(
        std::size_t(from.size[0]) * from.element, std::size_t(from.size[1]), std::size_t(from.size[2]));
    copy.kind = cudaMemcpyDefault;
    return cudaMemcpy3DAsync(&copy, stream);
}

template <typename T>
cudaError_t queue(const void* source, const FaceBox& from, void* target, const FaceBox& to, cudaStream_t stream) {
    const std::size_t cells = from.cells();
    if (cells == 0) return cudaSuccess;
    if (!has_short_rows(from)) return queue_copy_engine(source, from, target, to, stream);
    const int threads = 256;
    const std::size_t wanted = (cells + threads - 1) / threads;
    const int blocks = int(wanted < 4096 ? wanted : 4096); // a few waves on any GPU; the loop covers the rest
    copy_box_kernel<T><<<blocks, threads, 0, stream>>>(static_cast<const T*>(source), placement_of(from),
        static_cast<T*>(target), placement_of(to), from.size[0], from.size[1], cells);
    return cudaGetLastError();
}

} // namespace

bool has_short_rows(const FaceBox& box) {
    return std::size_t(box.size[0]) * box.element < kCopyEngineRowBytes;
}

cudaError_t queue_copy_box(
    const void* source, const FaceBox& from, void* target, const FaceBox& to, cudaStream_t stream) {
    return from.element == 8 ? queue<std::uint64_t>(source, from, target, to, stream)
                             : queue<std::uint32_t>(source, from, target, to, stream);
}

cudaError_t queue_pack_face(const void* field, const FaceBox& box, void* packed, cudaStream_t stream) {
    return queue_copy_box(field, box, packed, dense(box), stream);
}

cudaError_t queue_unpack_face(void* field, const FaceBox& box, const void* packed, cudaStream_t stream) {
    return queue_copy_box(packed, dense(box), field, box, stream);
}

} // namespace ss
