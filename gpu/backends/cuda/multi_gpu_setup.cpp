// SPDX-License-Identifier: MIT
// Building and releasing the multi-GPU strips: each strip's CudaSimulation on its device, its high-priority
// halo stream, its events (ready, joined, the sampled step's timers) and the pinned rows it stages, and the
// worker threads that run the strips' steps.
#include "gpu/backends/cuda/multi_gpu_simulation_class.h"

namespace ss {

void MultiGpuSimulation::build(const std::vector<KernelPlan>& strip_kernels) {
    const int n = int(m_plan.strips.size());
    if (strip_kernels.size() != m_plan.strips.size())
        throw CudaError("the launch plan has " + std::to_string(strip_kernels.size()) + " kernel plans for "
            + std::to_string(n) + " strips");
    m_strips.resize(std::size_t(n));
    m_timers.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) {
        StripState& s = m_strips[i];
        s.strip = m_plan.strips[i];
        s.field = std::make_unique<CudaSimulation>(strip_kernels[std::size_t(i)]); // plan_strip_kernels
        if (m_plan.ghost_depth > 0) s.neighbour[kBelow] = i > 0 ? i - 1 : -1;
        if (m_plan.ghost_depth > 0) s.neighbour[kAbove] = i + 1 < n ? i + 1 : -1;
    }
    for (int i = 0; i < n; ++i) {
        StripState& s = m_strips[i];
        set_device(std::size_t(i));
        int least = 0, greatest = 0;
        cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
        cuda_check(cudaStreamCreateWithPriority(&s.halo, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
        for (cudaEvent_t* e : { &s.boundary_done, &s.received, &s.joined, &s.compute_ready, &s.ready[0], &s.ready[1] })
            cuda_check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
        StripTimer& t = m_timers[std::size_t(i)];
        for (cudaEvent_t* e :
            { &t.compute_begin, &t.compute_end, &t.send_begin, &t.send_end, &t.receive_begin, &t.receive_end })
            cuda_check(cudaEventCreate(e), "cudaEventCreate");
        for (int side : { kBelow, kAbove })
            if (s.neighbour[side] >= 0)
                s.path[side] = choose_halo_path(s, m_strips[s.neighbour[side]], m_config.placement.halo);
    }
    if (remote()) connect_neighbour_rows(m_strips, layer_stride());
    for (StripState& s : m_strips) // a strip stages what a neighbour receives staged
        for (int side : { kBelow, kAbove }) {
            if (s.neighbour[side] < 0 || m_strips[s.neighbour[side]].path[1 - side] != HaloPath::Staged) continue;
            s.sends_staged[side] = true;
            for (auto& parity : s.pinned)
                cuda_check(cudaHostAlloc(reinterpret_cast<void**>(&parity[side]), halo_bytes(), cudaHostAllocPortable),
                    "cudaHostAlloc");
        }
    set_device(0);
    cuda_check(cudaEventCreate(&m_start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&m_stop), "cudaEventCreate");
    m_workers = std::make_unique<StripWorkers>(n);
}

void MultiGpuSimulation::release() {
    m_workers.reset(); // joins the threads: nothing is queued any more
    for (std::size_t i = 0; i < m_strips.size(); ++i) {
        StripState& s = m_strips[i];
        if (!s.field) continue;
        set_device_nothrow(i);
        if (s.halo) {
            cudaStreamSynchronize(s.halo);
            cudaStreamDestroy(s.halo);
        }
        const StripTimer& t = m_timers[i];
        for (cudaEvent_t e : { s.boundary_done, s.received, s.joined, s.compute_ready, s.ready[0], s.ready[1],
                 t.compute_begin, t.compute_end, t.send_begin, t.send_end, t.receive_begin, t.receive_end })
            if (e) cudaEventDestroy(e);
        s.field->synchronize();
        for (auto& parity : s.pinned)
            for (unsigned char*& p : parity)
                if (p) cudaFreeHost(p);
        if (s.scratch) cudaFree(s.scratch);
    }
    if (!m_strips.empty() && m_strips.front().field) set_device_nothrow(0);
    for (cudaEvent_t e : { m_start, m_stop })
        if (e) cudaEventDestroy(e);
    for (cudaEvent_t e : m_markers)
        if (e) cudaEventDestroy(e);
    m_strips.clear();
    m_timers.clear();
}

} // namespace ss
