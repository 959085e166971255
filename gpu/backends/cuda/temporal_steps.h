// SPDX-License-Identifier: MIT
// The temporal variant's launches (gpu/plan/temporal_policy.h): a run of n steps is n / depth launches that fuse
// `depth` steps each, then n % depth launches of the same kernel compiled for one step, so any step count
// gives the field that n single steps give.
#pragma once

#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <cuda_runtime.h>

#include <memory>

namespace ss {

class CompiledModule;

class TemporalSteps {
public:
    // `deep` is the kernel compiled for the plan's depth and `block` (CudaSimulation's main kernel, with
    // `blocks_per_sm` resident); the one-step kernel is compiled here from the plan at depth 1. Throws CudaError.
    TemporalSteps(const KernelPlan&, const BlockDims& block, const void* deep, int blocks_per_sm);
    ~TemporalSteps();
    TemporalSteps(const TemporalSteps&) = delete;
    TemporalSteps& operator=(const TemporalSteps&) = delete;

    double compile_ms() const { return m_compile_ms; }
    bool from_cache() const { return m_from_cache; } // true also when there was nothing to build
    GridDims grid() const { return m_deep.grid; } // of a fused launch
    // Queues n steps on `stream`; `in` and `out` swap after every launch, as after every single step.
    void queue(int n, void*& in, void*& out, cudaStream_t stream) const;
    // Queues one launch from `in` into `out`: the fused kernel (depth steps) or the one-step kernel. A strip of a
    // multi-GPU run takes its launches one by one and trades its R x depth ghost rows after each.
    void queue_launch(bool fused, void* in, void* out, cudaStream_t stream) const {
        launch(fused ? m_deep : m_single, in, out, stream);
    }
    // The same launch writing only the slow-axis planes [lo, hi) (R <= lo < hi <= rows - R): each plane comes out
    // as in the whole launch, so a strip computes the planes its neighbours need first and the rest after them.
    void queue_launch_rows(bool fused, int lo, int hi, void* in, void* out, cudaStream_t stream) const;
    int depth() const { return m_depth; }

private:
    struct Launch {
        const void* kernel = nullptr;
        GridDims grid;
        int chunk = 1; // planes of the update range each block streams
        std::size_t smem = 0;
    };
    Launch plan(const StencilConfig&, const void* kernel, int blocks_per_sm) const;
    void launch(const Launch&, void* in, void* out, cudaStream_t) const;
    void launch_rows(const Launch&, int lo, int hi, void* in, void* out, cudaStream_t) const;

    StencilConfig m_field;
    DeviceInfo m_device;
    BlockDims m_block;
    int m_depth = 1;
    std::shared_ptr<const CompiledModule> m_single_module;
    Launch m_deep, m_single;
    double m_compile_ms = 0.0;
    bool m_from_cache = true;
};

} // namespace ss
