// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/ipc_ghost_rows.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace ss {
namespace {

// The description's bytes: a tag (so that a mismatched build or garbage is refused, never mapped), both buffers'
// handles, the ghost rows' offsets on each side and their size.
struct Description {
    char tag[8] = { 'S', 'S', 'I', 'P', 'C', '0', '0', '1' };
    cudaIpcMemHandle_t buffers[2] = {};
    std::uint64_t ghost_offset[2] = {};
    std::uint64_t bytes = 0;
};

} // namespace

IpcGhostRows::~IpcGhostRows() {
    close();
}

std::vector<unsigned char> IpcGhostRows::describe(
    unsigned char* const buffers[2], const std::size_t ghost_offset[2], std::size_t bytes) {
    Description d;
    for (int b : { 0, 1 })
        if (cudaIpcGetMemHandle(&d.buffers[b], buffers[b]) != cudaSuccess) {
            cudaGetLastError(); // not sticky; clear it so that later calls do not report it
            return {}; // no IPC here (the neighbour then hears "nothing to map")
        }
    for (int s : { 0, 1 }) d.ghost_offset[s] = ghost_offset[s];
    d.bytes = bytes;
    std::vector<unsigned char> described(sizeof d);
    std::memcpy(described.data(), &d, sizeof d);
    return described;
}

Status IpcGhostRows::open(int side, const std::vector<unsigned char>& description, int device, std::size_t bytes) {
    Description d;
    if (description.size() != sizeof d)
        return Status::failure("the neighbour's buffers cannot be shared (no CUDA IPC)");
    std::memcpy(&d, description.data(), sizeof d);
    if (std::memcmp(d.tag, Description().tag, sizeof d.tag) != 0 || d.bytes != bytes)
        return Status::failure("the neighbour's description of its buffers does not match this rank's");
    if (cudaSetDevice(device) != cudaSuccess) return Status::failure("cudaSetDevice failed");
    m_device = device;
    const int facing = 1 - side; // rows sent towards `side` land in the neighbour's ghost rows on its other side
    for (int b : { 0, 1 }) {
        void* mapped = nullptr;
        const cudaError_t e = cudaIpcOpenMemHandle(&mapped, d.buffers[b], cudaIpcMemLazyEnablePeerAccess);
        if (e != cudaSuccess) {
            cudaGetLastError();
            if (b == 1) cudaIpcCloseMemHandle(m_buffer[side][0]);
            m_buffer[side][0] = nullptr;
            return Status::failure(std::string("cudaIpcOpenMemHandle: ") + cudaGetErrorString(e));
        }
        m_buffer[side][b] = static_cast<unsigned char*>(mapped);
    }
    m_ghost_offset[side] = std::size_t(d.ghost_offset[facing]);
    return Status::success();
}

unsigned char* IpcGhostRows::target(int side, int parity) const {
    return m_buffer[side][parity] + m_ghost_offset[side];
}

void IpcGhostRows::close() {
    if (m_device < 0) return;
    cudaSetDevice(m_device);
    for (auto& pair : m_buffer)
        for (unsigned char*& p : pair)
            if (p) cudaIpcCloseMemHandle(p), p = nullptr;
    m_device = -1;
}

} // namespace ss
