// SPDX-License-Identifier: MIT
// CudaSimulation's star launches over a window of the field: a range of rows along the slow axis (the strips' and
// ranks' overlapped steps) and, in 3D, of rows along y too (a rank's box). The kernel sees the window through nx, ny
// and nz and steps by the field's strides; every cell comes out as a launch over the whole field computes it.
#include "gpu/backends/cuda/cuda_simulation.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/physics.h"

#include <cstdint>

namespace ss {
namespace {

// Address arithmetic: a neighbour's pointer in this field's row numbering may point outside its buffer.
const void* shifted(const void* p, std::size_t bytes) {
    return reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + bytes);
}

} // namespace

void CudaSimulation::launch_star_window(std::size_t offset, const StencilConfig& window, int rows, const void* below,
    const void* above, cudaStream_t stream) {
    void* in = static_cast<unsigned char*>(m_in) + offset;
    void* out = static_cast<unsigned char*>(m_out) + offset;
    int nx = window.problem.size.nx, ny = window.problem.size.ny, nz = window.problem.size.nz,
        wlo = window.problem.radius, whi = wlo + rows, chunk = 1;
    const GridDims g = star_grid(window, rows, &chunk);
    const void* low = below ? below : in;
    const void* high = above ? above : in;
    void* args[] = { &in, &out, &nx, &ny, &nz, &wlo, &whi, &chunk, &low, &high };
    launch(m_main, dim3(g.x, g.y, g.z), args, m_smem, stream); // the last two are parameters only under REMOTE 1
}

void CudaSimulation::launch_star_rows(int lo, int hi, cudaStream_t stream) {
    // The kernel sees a window of the buffers: rows [lo - R, hi + R), of which it updates the middle
    // hi - lo. Every cell computes the same expression from the same operands wherever the window
    // starts, so any cut of the rows gives bitwise the same field as one launch over all of them.
    const int r = m_config.problem.radius;
    const std::size_t offset = std::size_t(lo - r) * row_bytes();
    StencilConfig window = m_config;
    (m_config.problem.dims == 3 ? window.problem.size.nz : window.problem.size.ny) = hi - lo + 2 * r;
    // Remote mode: a window's first (last) R rows are the neighbour's only when it starts (ends) at the edge.
    const int p = current_buffer(), rows = slow_extent(m_config.problem);
    const void* below = lo == r && m_neighbour_rows[0][p] ? shifted(m_neighbour_rows[0][p], offset) : nullptr;
    const void* above = hi == rows - r && m_neighbour_rows[1][p] ? shifted(m_neighbour_rows[1][p], offset) : nullptr;
    launch_star_window(offset, window, hi - lo, below, above, stream);
}

void CudaSimulation::launch_star_box(int y_lo, int y_hi, int z_lo, int z_hi, cudaStream_t stream) {
    // As launch_star_rows, the window narrowed along y too: the kernel sees rows [y_lo - R, y_hi + R) of planes
    // [z_lo - R, z_hi + R) through nx, ny and nz, and steps by the field's strides (star.cuh: PLANE_STRIDE).
    if (m_config.problem.dims != 3 || !has_dirichlet_border(m_config.problem.stencil) || m_neighbour_rows[0][0]
        || m_neighbour_rows[1][0])
        throw CudaError("a window along y needs a 3D field of its own (no diffusion, no remote neighbours)");
    const int r = m_config.problem.radius;
    const Extent& e = m_config.problem.size;
    const std::size_t offset
        = ((std::size_t(z_lo - r) * std::size_t(e.ny) + std::size_t(y_lo - r)) * std::size_t(e.nx)) * m_es;
    StencilConfig window = m_config;
    window.problem.size.ny = y_hi - y_lo + 2 * r;
    window.problem.size.nz = z_hi - z_lo + 2 * r;
    launch_star_window(offset, window, z_hi - z_lo, nullptr, nullptr, stream);
}

} // namespace ss
