// SPDX-License-Identifier: MIT
// Ghost rows written across processes on one node (CUDA IPC): the MPI ranks' peer-copy path (issue 37). A strip
// describes its two buffers (IPC handles) and where its ghost rows lie in them; the neighbour opens that
// description and, every step, copies the rows it sends straight into those ghost rows over NVLink or PCIe (or
// within one GPU, where two ranks share it) instead of through pinned host memory and MPI. The transport carries
// the description once and a word per step; this file knows nothing of it.
#pragma once

#include "gpu/problem/config.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace ss {

class IpcGhostRows {
public:
    IpcGhostRows() = default;
    ~IpcGhostRows();
    IpcGhostRows(const IpcGhostRows&) = delete;
    IpcGhostRows& operator=(const IpcGhostRows&) = delete;

    // The description of a strip whose two field buffers are `buffers` (each a whole cudaMalloc allocation), whose
    // ghost rows on side s lie `ghost_offset[s]` bytes into either buffer, `bytes` long (a process grid's box: the
    // whole field, from offset 0, its faces placed by the writer).
    static std::vector<unsigned char> describe(
        unsigned char* const buffers[2], const std::size_t ghost_offset[2], std::size_t bytes);

    // Maps the neighbour on `side`'s buffers (its description) into this process on `device`. Refused, with the
    // reason, when the description is not one (or of another size than `bytes`), or the device cannot reach the
    // memory.
    Status open(int side, const std::vector<unsigned char>& description, int device, std::size_t bytes);
    bool is_open(int side) const { return m_buffer[side][0] != nullptr; }
    // Where the rows this strip sends towards `side` land while buffer `parity` is current: the neighbour's ghost
    // rows facing this strip (its own other side).
    unsigned char* target(int side, int parity) const;
    void close(); // unmaps both neighbours (on the device they were opened on)

private:
    int m_device = -1;
    unsigned char* m_buffer[2][2] = {}; // [side][parity]: the neighbour's buffers, mapped
    std::size_t m_ghost_offset[2] = {}; // [side]: of the neighbour's ghost rows facing this strip
};

} // namespace ss
