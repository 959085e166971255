// SPDX-License-Identifier: MIT
#include "gpu/cuda/rank_strip_cuda.h"

#include "gpu/cuda/cuda_check.h"
#include "gpu/cuda/cuda_simulation.h"

#include <algorithm>
#include <chrono>
#include <new>

namespace ss {
namespace {

class CudaRankStrip final : public RankStrip {
public:
    CudaRankStrip(std::unique_ptr<CudaSimulation> sim, const Strip& strip, int ghost_depth)
        : m_sim(std::move(sim))
        , m_ghost(ghost_depth) {
        m_strip = strip;
        m_halo_bytes = std::size_t(ghost_depth) * m_sim->row_bytes();
    }
    Simulation& field() override { return *m_sim; }
    // The rows to send must be final before a transport reads them: the step is waited for (no overlap).
    double compute_step() override {
        const auto start = std::chrono::steady_clock::now();
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        m_sim->launch_step();
        m_sim->finish_step();
        cuda_check(cudaStreamSynchronize(m_sim->stream()), "stencil step");
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    unsigned char* send_rows(int side) override {
        return current() + std::size_t(side == kRankBelow ? m_ghost : m_strip.updated_rows()) * m_sim->row_bytes();
    }
    unsigned char* ghost_rows(int side) override {
        return current() + std::size_t(side == kRankBelow ? 0 : m_ghost + m_strip.updated_rows()) * m_sim->row_bytes();
    }
    bool device_memory() const override { return true; }
    void copy_out(int side, void* host) override { copy(host, send_rows(side), cudaMemcpyDeviceToHost); }
    void copy_in(int side, const void* host) override { copy(ghost_rows(side), host, cudaMemcpyHostToDevice); }

private:
    unsigned char* current() const { return m_sim->buffer(m_sim->current_buffer()); }
    void copy(void* to, const void* from, cudaMemcpyKind kind) {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(cudaMemcpyAsync(to, from, m_halo_bytes, kind, m_sim->stream()), "ghost row staging");
        cuda_check(cudaStreamSynchronize(m_sim->stream()), "ghost row staging");
    }

    std::unique_ptr<CudaSimulation> m_sim;
    int m_ghost = 0;
};

} // namespace

std::unique_ptr<RankStrip> create_cuda_rank_strip(const StencilConfig& local, const StencilConfig& kernels,
    const Strip& strip, int ghost_depth, const DeviceInfo& device, std::string* why) {
    try {
        return std::make_unique<CudaRankStrip>(
            std::make_unique<CudaSimulation>(local, device, kernels), strip, ghost_depth);
    } catch (const CudaError& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

std::shared_ptr<unsigned char> allocate_pinned(std::size_t bytes) {
    void* p = nullptr;
    if (cudaMallocHost(&p, std::max<std::size_t>(bytes, 1)) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky-free error so later calls do not report it
        throw std::bad_alloc();
    }
    return std::shared_ptr<unsigned char>(static_cast<unsigned char*>(p), [](unsigned char* q) { cudaFreeHost(q); });
}

} // namespace ss
