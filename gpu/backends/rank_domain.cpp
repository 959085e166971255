// SPDX-License-Identifier: MIT
#include "gpu/backends/rank_domain.h"

#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/cuda/rank_domain_cuda.h"
#include "gpu/backends/rank_strip.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"

#include <chrono>
#include <cstring>
#include <new>

namespace ss {
namespace {

// Calls row(field offset in cells, packed offset in cells) for every x-row of `region`, each region.size[0] cells.
template <class Row> void for_each_row(const Extent& extent, const CellRegion& region, Row&& row) {
    std::size_t packed = 0;
    for (int z = 0; z < region.size[2]; ++z)
        for (int y = 0; y < region.size[1]; ++y) {
            const std::size_t at
                = (std::size_t(region.begin[2] + z) * std::size_t(extent.ny) + std::size_t(region.begin[1] + y))
                    * std::size_t(extent.nx)
                + std::size_t(region.begin[0]);
            row(at, packed);
            packed += std::size_t(region.size[0]);
        }
}

class CpuRankDomain final : public RankDomain {
public:
    explicit CpuRankDomain(const RankDomainPlan& plan)
        : RankDomain(plan)
        , m_sim(create_cpu_simulation(plan.local))
        , m_element(std::size_t(element_size(plan.local.problem.precision))) { }
    Simulation& field() override { return *m_sim; }
    double compute_step() override {
        const auto start = std::chrono::steady_clock::now();
        m_sim->step(1);
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    void begin_step() override { m_step_ms = compute_step(); }
    void boundary_final() override { }
    double end_step() override { return m_step_ms; }
    void copy_out(int axis, int side, void* host) override {
        pack_region(
            cpu_current_buffer(*m_sim), m_plan.local.problem.size, m_element, send_face(m_plan, axis, side), host);
    }
    void copy_in(int axis, int side, const void* host) override {
        unpack_region(
            cpu_current_buffer(*m_sim), m_plan.local.problem.size, m_element, ghost_face(m_plan, axis, side), host);
    }

private:
    std::unique_ptr<Simulation> m_sim;
    std::size_t m_element;
    double m_step_ms = 0.0; // begin_step's, for end_step
};

} // namespace

std::size_t RankDomain::face_bytes(int axis) const {
    return std::size_t(send_face(m_plan, axis, 0).cells()) * std::size_t(element_size(m_plan.local.problem.precision));
}

void pack_region(
    const unsigned char* field, const Extent& extent, std::size_t element, const CellRegion& region, void* packed) {
    auto* out = static_cast<unsigned char*>(packed);
    const std::size_t row_bytes = std::size_t(region.size[0]) * element;
    for_each_row(extent, region,
        [&](std::size_t at, std::size_t to) { std::memcpy(out + to * element, field + at * element, row_bytes); });
}

void unpack_region(
    unsigned char* field, const Extent& extent, std::size_t element, const CellRegion& region, const void* packed) {
    const auto* in = static_cast<const unsigned char*>(packed);
    const std::size_t row_bytes = std::size_t(region.size[0]) * element;
    for_each_row(extent, region,
        [&](std::size_t at, std::size_t from) { std::memcpy(field + at * element, in + from * element, row_bytes); });
}

std::vector<double> region_values(const std::vector<double>& values, const Extent& extent, const CellRegion& region) {
    std::vector<double> out(std::size_t(region.cells()));
    pack_region(reinterpret_cast<const unsigned char*>(values.data()), extent, sizeof(double), region, out.data());
    return out;
}

std::uint64_t region_checksum(const std::vector<double>& local, const Extent& local_extent, const CellRegion& region,
    const int origin[3], const Extent& whole) {
    // field_checksum is a sum over cells of a mix of each cell's global index and bits: row by row it adds up.
    std::uint64_t sum = 0;
    std::vector<double> row;
    for (int z = 0; z < region.size[2]; ++z)
        for (int y = 0; y < region.size[1]; ++y) {
            const int lz = region.begin[2] + z, ly = region.begin[1] + y, lx = region.begin[0];
            const std::size_t at
                = (std::size_t(lz) * std::size_t(local_extent.ny) + std::size_t(ly)) * std::size_t(local_extent.nx)
                + std::size_t(lx);
            row.assign(
                local.begin() + std::ptrdiff_t(at), local.begin() + std::ptrdiff_t(at + std::size_t(region.size[0])));
            const std::int64_t first_cell
                = (std::int64_t(origin[2] + lz) * whole.ny + (origin[1] + ly)) * std::int64_t(whole.nx) + origin[0]
                + lx;
            sum += field_checksum(row, first_cell);
        }
    return sum;
}

std::unique_ptr<RankDomain> create_rank_domain(const RankDomainPlan& plan, std::string* why) {
    auto refuse = [why](const std::string& reason) -> std::unique_ptr<RankDomain> {
        if (why) *why = reason;
        return nullptr;
    };
    if (!plan.verdict) return refuse(plan.verdict.reason);
    try {
        if (plan.local.placement.backend == Backend::Cpu) return std::make_unique<CpuRankDomain>(plan);
        if (!plan.kernels) return refuse("the rank's plan holds no kernel plan");
        return create_cuda_rank_domain(plan, why);
    } catch (const std::bad_alloc&) {
        return refuse("cannot allocate the box's buffers (" + bytes_text(host_bytes_needed(plan.local)) + ")");
    } catch (const std::exception& e) {
        return refuse(e.what());
    }
}

} // namespace ss
