// SPDX-License-Identifier: MIT
// A turned knob on one GPU: the next configuration takes the running one's buffers on the device instead of saving
// the field to the host, freeing, allocating and uploading it again (issue 40: 4096² fp64 spent ~650 ms there).
#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"

#include <utility>

namespace ss {

bool CudaSimulation::take_field(CudaSimulation& donor, bool keep_previous) {
    const StencilConfig& mine = m_config;
    const StencilConfig& theirs = donor.m_config;
    const bool dense = has_dirichlet_border(mine.problem.stencil) && has_dirichlet_border(theirs.problem.stencil);
    if (m_buffers[0] || !donor.m_buffers[0] || m_tmp || donor.m_tmp || donor.m_tmp2 || !dense
        || mine.placement.device != theirs.placement.device || mine.problem.size != theirs.problem.size
        || mine.problem.dims != theirs.problem.dims || m_es != donor.m_es || m_elements != donor.m_elements)
        return false;
    cuda_check(cudaSetDevice(mine.placement.device), "cudaSetDevice");
    create_stream();
    cuda_check(cudaStreamSynchronize(donor.m_stream), "synchronize"); // its last steps and frame copies are done
    std::swap(m_buffers, donor.m_buffers);
    m_in = std::exchange(donor.m_in, nullptr);
    m_out = std::exchange(donor.m_out, nullptr);
    const bool wave = mine.problem.stencil == StencilKind::Star && mine.problem.rule == UpdateRule::Wave;
    if (!keep_previous || !wave) // Dirichlet border in both buffers; the wave starts at rest
        cuda_check(cudaMemcpyAsync(m_out, m_in, m_elements * m_es, cudaMemcpyDeviceToDevice, m_stream), "copy");
    m_iteration = keep_previous ? donor.m_iteration : 0;
    cuda_check(cudaStreamSynchronize(m_stream), "handover");
    return true;
}

std::unique_ptr<Simulation> create_cuda_simulation_on_field(
    const KernelPlan& plan, Simulation& running, bool keep_previous, std::string* why) {
    auto* donor = dynamic_cast<CudaSimulation*>(&running);
    if (!donor) return nullptr;
    std::unique_ptr<CudaSimulation> next;
    try {
        next = std::make_unique<CudaSimulation>(plan, false);
        if (!next->take_field(*donor, keep_previous)) return nullptr;
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        cudaGetLastError(); // as create_cuda_simulation: the running configuration goes on
        return nullptr;
    }
    return next;
}

} // namespace ss
