// SPDX-License-Identifier: MIT
#include "gpu/rank_strip.h"

#include "gpu/cpu/cpu_backend.h"
#include "gpu/cuda/rank_strip_cuda.h"
#include "gpu/launch_policy.h"
#include "gpu/physics.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <utility>

namespace ss {

StencilConfig rank_split_config(const StencilConfig& whole, int ranks) {
    StencilConfig c = whole;
    c.placement.gpus = ranks;
    c.placement.strips_per_device = 1;
    return c;
}

Status check_rank_split(const StencilConfig& c, int ranks) {
    if (ranks < 1) return Status::failure("a run needs at least one rank");
    if (c.placement.gpus != 1)
        return Status::failure("under mpirun each rank drives one GPU: use --gpus 1 and more ranks (got --gpus "
            + std::to_string(c.placement.gpus) + ")");
    if (ranks == 1) return Status::success();
    const std::string over = " over " + std::to_string(ranks) + " ranks";
    if (!splits_slowest(c))
        return Status::failure(std::string("under mpirun ranks split the slowest axis only; --split ")
            + axis_name(split_axis(c)) + " is for --gpus N in one process");
    if (c.policy.variant == Variant::Temporal)
        return Status::failure("the temporal variant runs in one process: its fused steps would need ghost rows of "
                               "depth R x depth, which the rank exchange does not provide; use another variant or "
                               "one rank");
    if (c.problem.stencil == StencilKind::Diffusion4) {
        if (c.problem.dims == 2)
            return Status::failure(
                "a 2D diffusion field is a single periodic layer and cannot be split" + over + "; use --dims 3");
        if (c.problem.size.nz < ranks)
            return Status::failure("splitting " + std::to_string(c.problem.size.nz) + " diffusion layers" + over
                + " leaves a rank without a layer");
        return Status::success();
    }
    const int r = c.problem.radius, rows = slow_extent(c.problem) - 2 * r, thinnest = rows / ranks;
    if (thinnest < r) {
        const int fit = rows / r;
        return Status::failure("the domain is too small for " + std::to_string(ranks) + " ranks: splitting its "
            + std::to_string(rows) + " updated rows along " + (c.problem.dims == 3 ? "z" : "y") + " gives strips of "
            + std::to_string(thinnest) + " rows, thinner than the R" + std::to_string(r) + " ghost zone ("
            + (fit > 1 ? "at most " + std::to_string(fit) + " ranks fit" : "run one process") + ")");
    }
    return Status::success();
}

int rank_device(int first_device, int local_rank, int device_count) {
    if (device_count < 1 || first_device < 0 || first_device >= device_count) return first_device;
    return (first_device + local_rank) % device_count;
}

void RankStrip::begin_step(const bool neighbour[2], unsigned char* const stage_out[2]) {
    for (int side : { kRankBelow, kRankAbove })
        m_neighbour[side] = neighbour[side], m_stage_out[side] = stage_out ? stage_out[side] : nullptr;
    m_compute_ms += compute_step();
}

void RankStrip::rows_out() {
    for (int side : { kRankBelow, kRankAbove })
        if (m_neighbour[side] && m_stage_out[side]) copy_out(side, m_stage_out[side]);
}

void RankStrip::rows_in(const unsigned char* const stage_in[2]) {
    for (int side : { kRankBelow, kRankAbove })
        if (stage_in && m_neighbour[side]) copy_in(side, stage_in[side]);
}

double RankStrip::take_compute_ms() {
    return std::exchange(m_compute_ms, 0.0);
}

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

namespace {
// The strip of `rank` on `device` and the configuration of its buffers.
std::pair<Strip, StencilConfig> rank_strip_of(const StencilConfig& whole, int ranks, int rank, int device, int* ghost) {
    const StencilConfig split = rank_split_config(whole, ranks);
    const StripPlan plan = plan_strips(split);
    Strip strip = plan.strips[std::size_t(rank)];
    strip.device = whole.placement.backend == Backend::Cuda ? device : 0;
    if (ghost) *ghost = plan.ghost_depth;
    return { strip, strip_config(split, strip) };
}
} // namespace

Status check_rank_strip(const StencilConfig& whole, int ranks, int rank, int device, const DeviceCatalogue& catalogue) {
    if (Status s = check_rank_split(whole, ranks); !s) return s;
    if (rank < 0 || rank >= ranks) return Status::failure("rank " + std::to_string(rank) + " has no strip");
    return can_implement(rank_strip_of(whole, ranks, rank, device, nullptr).second, catalogue);
}

std::unique_ptr<RankStrip> create_rank_strip(
    const StencilConfig& whole, int ranks, int rank, int device, const DeviceCatalogue& catalogue, std::string* why) {
    auto refuse = [why](const std::string& reason) -> std::unique_ptr<RankStrip> {
        if (why) *why = reason;
        return nullptr;
    };
    if (Status s = check_rank_strip(whole, ranks, rank, device, catalogue); !s) return refuse(s.reason);
    int ghost = 0;
    const auto [strip, local] = rank_strip_of(whole, ranks, rank, device, &ghost);
    try {
        if (whole.placement.backend == Backend::Cpu) return std::make_unique<CpuRankStrip>(local, strip, ghost);
        StencilConfig kernels = single_gpu_equivalent(whole);
        kernels.placement.device = device;
        return create_cuda_rank_strip(local, kernels, strip, ghost, *catalogue.find(device), why);
    } catch (const std::bad_alloc&) {
        return refuse("cannot allocate the strip's buffers (" + bytes_text(host_bytes_needed(local)) + ")");
    } catch (const std::exception& e) {
        return refuse(e.what());
    }
}

std::uint64_t field_checksum(const std::vector<double>& values, std::int64_t first_cell) {
    auto mix = [](std::uint64_t z) { // splitmix64's finaliser
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &values[i], sizeof bits);
        sum += mix(mix(std::uint64_t(first_cell) + i) ^ bits);
    }
    return sum;
}

} // namespace ss
