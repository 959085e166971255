// SPDX-License-Identifier: MIT
#include "gpu/backends/create_rank_strip.h"

#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/cuda/rank_strip_cuda.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <utility>

namespace ss {

namespace {

std::size_t row_bytes_of(const StencilConfig& c) {
    const Extent& e = c.problem.size;
    return std::size_t(e.nx) * (c.problem.dims == 3 ? std::size_t(e.ny) : 1)
        * std::size_t(element_size(c.problem.precision));
}

class CpuRankStrip final : public RankStrip {
public:
    CpuRankStrip(const StencilConfig& local, const Strip& strip, int ghost_depth)
        : m_sim(create_cpu_simulation(local))
        , m_row_bytes(row_bytes_of(local)) {
        m_strip = strip;
        m_ghost = ghost_depth;
        m_halo_bytes = std::size_t(ghost_depth) * m_row_bytes;
    }
    Simulation& field() override { return *m_sim; }
    double compute_step() override {
        const auto start = std::chrono::steady_clock::now();
        m_sim->step(1);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    unsigned char* send_rows(int side) override {
        return cpu_current_buffer(*m_sim)
            + std::size_t(side == kRankBelow ? m_ghost : m_strip.updated_rows()) * m_row_bytes;
    }
    unsigned char* ghost_rows(int side) override {
        return cpu_current_buffer(*m_sim)
            + std::size_t(side == kRankBelow ? 0 : m_ghost + m_strip.updated_rows()) * m_row_bytes;
    }
    bool device_memory() const override { return false; }
    void copy_out(int side, void* host) override { std::memcpy(host, send_rows(side), m_halo_bytes); }
    void copy_in(int side, const void* host) override { std::memcpy(ghost_rows(side), host, m_halo_bytes); }

private:
    std::unique_ptr<Simulation> m_sim;
    std::size_t m_row_bytes;
    int m_ghost = 0;
};

} // namespace

std::shared_ptr<unsigned char> allocate_staging(std::size_t bytes, Backend backend) {
    if (backend == Backend::Cuda) return allocate_pinned(bytes);
    return std::shared_ptr<unsigned char>(
        new unsigned char[std::max<std::size_t>(bytes, 1)], [](unsigned char* p) { delete[] p; });
}

std::unique_ptr<RankStrip> create_rank_strip(const RankStripPlan& plan, std::string* why) {
    auto refuse = [why](const std::string& reason) -> std::unique_ptr<RankStrip> {
        if (why) *why = reason;
        return nullptr;
    };
    if (!plan.verdict) return refuse(plan.verdict.reason);
    try {
        if (plan.local.placement.backend == Backend::Cpu)
            return std::make_unique<CpuRankStrip>(plan.local, plan.strip, plan.ghost_depth);
        if (!plan.kernels) return refuse("the rank's plan holds no kernel plan");
        return create_cuda_rank_strip(*plan.kernels, plan.strip, plan.ghost_depth, why);
    } catch (const std::bad_alloc&) {
        return refuse("cannot allocate the strip's buffers (" + bytes_text(host_bytes_needed(plan.local)) + ")");
    } catch (const std::exception& e) {
        return refuse(e.what());
    }
}

} // namespace ss
