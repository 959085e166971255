// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/rank_domain_cuda.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"

namespace ss {
namespace {

// Each step is waited for, then every face goes through one cudaMemcpy3D between the dense device field and a
// contiguous host buffer (the copy engine gathers the strided rows; no pack kernel to compile). The CPU backend's
// pack_region is the same copy, and the host tests check it.
class CudaRankDomain final : public RankDomain {
public:
    CudaRankDomain(const RankDomainPlan& plan, std::unique_ptr<CudaSimulation> sim)
        : RankDomain(plan)
        , m_sim(std::move(sim))
        , m_element(std::size_t(element_size(plan.local.problem.precision))) { }
    Simulation& field() override { return *m_sim; }
    double compute_step() override { return m_sim->waited_step_ms(); }
    void copy_out(int axis, int side, void* host) override {
        copy(send_face(m_plan, axis, side), host, cudaMemcpyDeviceToHost);
    }
    void copy_in(int axis, int side, const void* host) override {
        copy(ghost_face(m_plan, axis, side), const_cast<void*>(host), cudaMemcpyHostToDevice);
    }

private:
    void copy(const CellRegion& face, void* host, cudaMemcpyKind kind) {
        const Extent& e = m_plan.local.problem.size;
        unsigned char* field = m_sim->buffer(m_sim->current_buffer());
        cudaPitchedPtr device
            = make_cudaPitchedPtr(field, std::size_t(e.nx) * m_element, std::size_t(e.nx), std::size_t(e.ny));
        cudaPitchedPtr packed = make_cudaPitchedPtr(
            host, std::size_t(face.size[0]) * m_element, std::size_t(face.size[0]), std::size_t(face.size[1]));
        const cudaPos at = make_cudaPos(
            std::size_t(face.begin[0]) * m_element, std::size_t(face.begin[1]), std::size_t(face.begin[2]));
        cudaMemcpy3DParms p {};
        if (kind == cudaMemcpyDeviceToHost)
            p.srcPtr = device, p.srcPos = at, p.dstPtr = packed;
        else
            p.srcPtr = packed, p.dstPtr = device, p.dstPos = at;
        p.extent = make_cudaExtent(
            std::size_t(face.size[0]) * m_element, std::size_t(face.size[1]), std::size_t(face.size[2]));
        p.kind = kind;
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(cudaMemcpy3DAsync(&p, m_sim->stream()), "face packing");
        cuda_check(cudaStreamSynchronize(m_sim->stream()), "face packing");
    }

    std::unique_ptr<CudaSimulation> m_sim;
    std::size_t m_element;
};

} // namespace

std::unique_ptr<RankDomain> create_cuda_rank_domain(const RankDomainPlan& plan, std::string* why) {
    try {
        return std::make_unique<CudaRankDomain>(plan, std::make_unique<CudaSimulation>(*plan.kernels));
    } catch (const CudaError& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

} // namespace ss
