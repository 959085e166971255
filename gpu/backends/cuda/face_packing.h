// SPDX-License-Identifier: MIT
// A box of cells of a dense field gathered into a contiguous buffer on the GPU, and scattered back: a process grid's
// faces (gpu/backends/cuda/rank_domain_cuda.cpp). A box of long rows (a y or z face) goes by the copy engine, which
// needs no SM and so moves beside a running kernel; a box of short rows (an x face, R cells a row) by a kernel, a
// cell per thread: the copy engine moves such rows at a few bytes each (1.27 ms per step at 3D 1024^3 whatever R,
// docs/PERFORMANCE.md "The split axis").
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace ss {

// The cells [begin, begin + size) per axis (x, y, z) of a field `nx` x `ny` x ... cells (x fastest), each `element`
// bytes (4 or 8).
struct FaceBox {
    int nx = 1, ny = 1;
    int begin[3] = { 0, 0, 0 };
    int size[3] = { 1, 1, 1 };
    std::size_t element = 4;
    std::size_t cells() const { return std::size_t(size[0]) * std::size_t(size[1]) * std::size_t(size[2]); }
};

// Whether the box's rows are short (an x face's R cells): such a box goes by a kernel, not the copy engine. Written
// across NVLink into a neighbour's mapped field, such rows move an order of magnitude slower than packed ones (issue
// 37: 0.39-0.46 ms for a 2x2 grid's x face of 256 KiB, 0.01-0.03 ms to pack it locally), so a peer push packs them.
bool has_short_rows(const FaceBox&);

// Queued on `stream`: the box's cells of `field` into `packed` (device memory, x fastest within the box).
cudaError_t queue_pack_face(const void* field, const FaceBox&, void* packed, cudaStream_t stream);
// Queued on `stream`: `packed` into the box's cells of `field`.
cudaError_t queue_unpack_face(void* field, const FaceBox&, const void* packed, cudaStream_t stream);
// Queued on `stream`: the cells of box `from` of `source` into box `to` of `target` (the same size per axis; `to`'s
// own size is not read): a face straight into a neighbour's ghost layers, its field mapped from another process.
cudaError_t queue_copy_box(
    const void* source, const FaceBox& from, void* target, const FaceBox& to, cudaStream_t stream);

} // namespace ss
