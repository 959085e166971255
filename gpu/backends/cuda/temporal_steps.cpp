// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/temporal_steps.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/kernel_compiler.h"
#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/plan/temporal_policy.h"

#include <algorithm>
#include <string>

namespace ss {

TemporalSteps::TemporalSteps(const KernelPlan& kernel_plan, const BlockDims& block, const void* deep, int blocks_per_sm)
    : m_field(kernel_plan.field)
    , m_device(kernel_plan.device)
    , m_block(block)
    , m_depth(kernel_plan.field.policy.depth) {
    m_deep = plan(m_field, deep, blocks_per_sm);
    const KernelPlan one_step = at_depth(kernel_plan, 1);
    const StencilConfig& one = one_step.field;
    const DeviceInfo& dev = m_device;
    const void* single = deep;
    if (m_depth > 1) {
        bool cached = false;
        m_single_module = compile_module(kernel_source(one_step, &m_block), dev.cc_major, dev.cc_minor, &cached);
        m_compile_ms = cached ? 0.0 : m_single_module->compile_ms();
        m_from_cache = cached;
        single = m_single_module->kernel(one_step.choice.entry.c_str());
        cudaFuncAttributes attr {};
        cuda_check(cudaFuncGetAttributes(&attr, single), "cudaFuncGetAttributes");
        cuda_check(cudaFuncSetAttribute(single, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       int(dev.smem_per_block_optin - attr.sharedSizeBytes)),
            "cudaFuncSetAttribute");
        int resident = 0;
        cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                       &resident, single, m_block.threads(), dynamic_smem_bytes(one, m_block)),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        blocks_per_sm = resident;
    }
    m_single = plan(one, single, blocks_per_sm);
}

TemporalSteps::~TemporalSteps() = default;

TemporalSteps::Launch TemporalSteps::plan(const StencilConfig& c, const void* kernel, int blocks_per_sm) const {
    Launch l;
    l.kernel = kernel;
    l.smem = std::size_t(dynamic_smem_bytes(c, m_block));
    const GridDims tiles = grid_dims(c, m_block, 1);
    const std::int64_t per_plane = std::int64_t(tiles.x) * tiles.y * tiles.z;
    const std::int64_t resident = std::int64_t(m_device.sm_count) * std::max(blocks_per_sm, 1);
    const int updated = std::max(slow_extent(c.problem) - 2 * c.problem.radius, 1);
    // Filling the pipeline (2 R depth planes) costs at most an eighth of a chunk's reads at 16 R depth planes.
    const int chunks = temporal_chunks(
        updated, per_plane, resident, temporal_waves(c.problem.dims), 16 * c.problem.radius * c.policy.depth);
    l.chunk = (updated + chunks - 1) / chunks;
    l.grid = grid_dims(c, m_block, (updated + l.chunk - 1) / l.chunk);
    return l;
}

void TemporalSteps::launch(const Launch& l, void* in, void* out, cudaStream_t stream) const {
    const int r = m_field.problem.radius;
    launch_rows(l, r, slow_extent(m_field.problem) - r, in, out, stream);
}

void TemporalSteps::launch_rows(const Launch& l, int lo, int hi, void* in, void* out, cudaStream_t stream) const {
    int nx = m_field.problem.size.nx, ny = m_field.problem.size.ny, nz = m_field.problem.size.nz, chunk = l.chunk;
    GridDims grid = l.grid; // as many chunks along the slow axis as the planes [lo, hi) need
    (m_field.problem.dims == 3 ? grid.z : grid.y) = (hi - lo + chunk - 1) / chunk;
    void* args[] = { &in, &out, &nx, &ny, &nz, &lo, &hi, &chunk };
    cuda_check(cudaLaunchKernel(
                   l.kernel, dim3(grid.x, grid.y, grid.z), dim3(m_block.x, m_block.y, m_block.z), args, l.smem, stream),
        "temporal kernel launch");
}

void TemporalSteps::queue_launch_rows(bool fused, int lo, int hi, void* in, void* out, cudaStream_t stream) const {
    const int r = m_field.problem.radius;
    if (lo < r || hi > slow_extent(m_field.problem) - r || lo >= hi)
        throw CudaError("temporal launch of planes " + std::to_string(lo) + ".." + std::to_string(hi));
    launch_rows(fused ? m_deep : m_single, lo, hi, in, out, stream);
}

void TemporalSteps::queue(int n, void*& in, void*& out, cudaStream_t stream) const {
    for (int done = 0; done < n;) {
        const bool fused = n - done >= m_depth;
        launch(fused ? m_deep : m_single, in, out, stream);
        std::swap(in, out);
        done += fused ? m_depth : 1;
    }
}

} // namespace ss
