// SPDX-License-Identifier: MIT
// CudaSimulation's launch shape: which module is loaded, which block it runs with and how many blocks a
// step launches. The constructor (cuda_simulation.cpp) calls these once; steps only read the result.
#include "gpu/backends/cuda/cuda_simulation.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/kernel_compiler.h"
#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"

#include <algorithm>

namespace ss {

// Compiles (or finds) a star source, takes its kernels (the entry point by the name kernel_choice.h gives it) and opts
// the entry in to the device's maximum dynamic shared memory (thesis listing 3.17, per device).
void CudaSimulation::load_star_module(const std::string& source, cudaFuncAttributes& attr) {
    bool cached = false;
    m_module = compile_module(source, m_device.cc_major, m_device.cc_minor, &cached);
    m_res.compile_ms += cached ? 0.0 : m_module->compile_ms();
    m_res.from_cache = m_res.from_cache && cached;
    m_main = m_module->kernel(m_res.kernel.entry.c_str());
    m_inject = m_module->kernel("ss_inject");
    m_slice = m_module->kernel("ss_slice_to_float");
    cuda_check(cudaFuncGetAttributes(&attr, m_main), "cudaFuncGetAttributes");
    cuda_check(cudaFuncSetAttribute(m_main, cudaFuncAttributeMaxDynamicSharedMemorySize,
                   int(m_device.smem_per_block_optin - attr.sharedSizeBytes)),
        "cudaFuncSetAttribute");
}

int CudaSimulation::blocks_per_sm_of(const BlockDims& b) const {
    int blocks = 0;
    cuda_check(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, m_main, b.threads(), dynamic_smem_bytes(m_config, b)),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return blocks;
}

// BlockRule::Occupancy: the plan's block (occupancy_block), compiled for it with launch bounds that reach its blocks
// per SM; no generic compile first. False (the heuristic follows) for another rule, or when the kernel spills or
// falls short of those blocks.
bool CudaSimulation::try_occupancy_block(cudaFuncAttributes& attr) {
    if (m_plan.block_rule != BlockRule::Occupancy) return false;
    const BlockDims* b = &*m_plan.occupancy_block;
    const int want = m_plan.occupancy_blocks_per_sm;
    load_star_module(kernel_source(m_plan, b, want), attr);
    if (attr.localSizeBytes > 0 || b->threads() > attr.maxThreadsPerBlock || blocks_per_sm_of(*b) < want) return false;
    m_block = *b;
    return true;
}

void CudaSimulation::choose_block(const cudaFuncAttributes& attr) {
    if (m_plan.block_rule == BlockRule::Given) {
        m_block = m_config.policy.block;
        return;
    }
    // Thesis listing 3.20: the occupancy API with shared memory as a function of the block size.
    const StencilConfig c = m_config;
    auto smem_of = [c](int threads) { return std::size_t(dynamic_smem_bytes(c, distribute_threads(c, threads))); };
    int min_grid = 0, threads = 0;
    cuda_check(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &threads, m_main, smem_of),
        "cudaOccupancyMaxPotentialBlockSizeVariableSMem");
    std::string why;
    const auto b = heuristic_block_for(m_plan, threads, attr.maxThreadsPerBlock, &why);
    if (!b) throw CudaError(why);
    m_block = *b;
}

void CudaSimulation::plan_grid(int blocks_per_sm) {
    m_blocks_per_sm = std::max(blocks_per_sm, 1);
    if (has_dirichlet_border(m_config.problem.stencil)) {
        int chunk = 1;
        m_grid = star_grid(m_config, slow_extent(m_config.problem) - 2 * m_config.problem.radius, &chunk);
    } else {
        m_grid = grid_dims(m_config, m_block, 1);
    }
}

GridDims CudaSimulation::star_grid(const StencilConfig& window, int updated, int* chunk) const {
    int chunks = 1;
    *chunk = 1;
    if (window.policy.variant == Variant::Stream) {
        // Enough marching blocks to fill the GPU about twice over; each chunk re-reads 2R planes to warm up.
        const GridDims tiles = grid_dims(window, m_block, 1);
        const std::int64_t per_plane = std::int64_t(tiles.x) * (window.problem.dims == 3 ? tiles.y : 1);
        chunks = stream_chunk_count(per_plane, std::int64_t(m_device.sm_count) * m_blocks_per_sm);
        *chunk = std::max((updated + chunks - 1) / chunks, std::min(updated, 8 * window.problem.radius));
        chunks = (updated + *chunk - 1) / *chunk;
    }
    return grid_dims(window, m_block, chunks);
}

} // namespace ss
