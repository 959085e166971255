// SPDX-License-Identifier: MIT
#include "app/cli/rank_grid_run.h"

#include "app/cli/cli_common.h"
#include "app/cli/rank_peers.h"
#include "gpu/backends/create_rank_strip.h"
#include "gpu/plan/knobs.h"
#include "gpu/problem/physics.h"

#include <chrono>

namespace ss::cli {
namespace {

int axes_of(const RankDomain& d) {
    return int(d.plan().box.extent.size());
}

std::size_t slot(int axis, int direction, int side) { // m_staging's index: [axis][send, receive][side]
    return 4 * std::size_t(axis) + 2 * std::size_t(direction) + std::size_t(side);
}

} // namespace

GridRun::GridRun(MpiWorld& world, RankDomain& domain, Backend backend, RankHalo halo)
    : m_world(world)
    , m_domain(domain)
    , m_halo(halo)
    , m_timeout_s(knob_seconds(Knob::MpiTimeout)) {
    // The testing hooks of RankRun: rank STENCILSCOPE_MPI_TEST_SILENT_RANK stops sending after
    // STENCILSCOPE_MPI_TEST_SILENT_AFTER exchanges.
    if (knob_integer(Knob::MpiTestSilentRank) == world.rank()) m_silent_after = knob_integer(Knob::MpiTestSilentAfter);
    for (int axis = 0; axis < axes_of(domain) && halo == RankHalo::Host; ++axis)
        for (int i = 0; i < 4; ++i) m_staging.push_back(allocate_staging(domain.face_bytes(axis), backend));
}

RankTimes GridRun::steps(int steps) {
    const RankDomainPlan& plan = m_domain.plan();
    RankTimes t;
    for (int i = 0; i < steps; ++i) {
        std::chrono::steady_clock::time_point start;
        if (plan.overlap) { // z's (and y's) faces travel while the rest of the box computes
            const std::size_t during = std::size_t(plan.traded_during_step);
            m_domain.begin_step();
            m_domain.boundary_final();
            start = std::chrono::steady_clock::now();
            ++m_exchanges;
            for (std::size_t k = 0; k < during; ++k) trade(plan.trade_order[k]);
            const auto waiting = std::chrono::steady_clock::now();
            t.compute_ms += m_domain.end_step();
            start += std::chrono::steady_clock::now() - waiting; // the wait for the interior is not the exchange's
            for (std::size_t k = during; k < plan.trade_order.size(); ++k) trade(plan.trade_order[k]);
        } else {
            t.compute_ms += m_domain.compute_step();
            start = std::chrono::steady_clock::now();
            exchange();
        }
        t.exchange_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    if (steps > 0) t.compute_ms /= steps, t.exchange_ms /= steps;
    return t;
}

std::size_t GridRun::received_bytes() const {
    std::size_t bytes = 0;
    const RankBox& box = m_domain.plan().box;
    for (int axis = 0; axis < axes_of(m_domain); ++axis)
        for (int side : { 0, 1 })
            if (box.neighbour_on(axis, side) != kNoNeighbour) bytes += m_domain.face_bytes(axis);
    return bytes;
}

void GridRun::exchange() {
    ++m_exchanges;
    for (int axis : m_domain.plan().trade_order) trade(axis); // in order: a face carries the earlier axes' ghosts
}

void GridRun::trade(int axis) {
    const bool silent = m_silent_after >= 0 && m_exchanges > m_silent_after;
    const RankBox& box = m_domain.plan().box;
    const int neighbour[2] = { box.neighbour_on(axis, 0), box.neighbour_on(axis, 1) };
    if (m_halo == RankHalo::Peer) {
        for (int side : { 0, 1 })
            if (neighbour[side] != kNoNeighbour) m_domain.push_face(axis, side);
        m_world.trade_exchange_number(neighbour, m_exchanges, m_timeout_s, silent);
        for (int side : { 0, 1 })
            if (neighbour[side] != kNoNeighbour) m_domain.land_pushed_face(axis, side);
        return;
    }
    if (m_halo == RankHalo::Device) {
        unsigned char* send[2] = { m_domain.device_face(axis, 0, 0), m_domain.device_face(axis, 0, 1) };
        unsigned char* receive[2] = { m_domain.device_face(axis, 1, 0), m_domain.device_face(axis, 1, 1) };
        for (int side : { 0, 1 })
            if (neighbour[side] != kNoNeighbour) m_domain.pack_device_face(axis, side);
        m_world.exchange_with(neighbour, send, receive, m_domain.face_bytes(axis), m_timeout_s, m_exchanges, silent);
        for (int side : { 0, 1 })
            if (neighbour[side] != kNoNeighbour) m_domain.unpack_device_face(axis, side);
        return;
    }
    unsigned char *send[2], *receive[2];
    for (int side : { 0, 1 }) {
        send[side] = m_staging[slot(axis, 0, side)].get();
        receive[side] = m_staging[slot(axis, 1, side)].get();
        if (neighbour[side] != kNoNeighbour) m_domain.copy_out(axis, side, send[side]);
    }
    m_world.exchange_with(neighbour, send, receive, m_domain.face_bytes(axis), m_timeout_s, m_exchanges, silent);
    for (int side : { 0, 1 })
        if (neighbour[side] != kNoNeighbour) m_domain.copy_in(axis, side, receive[side]);
}

int start_grid_job(
    RunOptions& o, MpiWorld& world, const DeviceCatalogue& catalogue, const CsvRow& csv_header, GridJob& job) {
    const auto check_grid = [&] {
        job.plan = plan_rank_grid(o.config, o.rank_grid);
        return job.plan.verdict;
    };
    if (int code = agree_on_rank_start(o, world, catalogue, false, check_grid, csv_header, job.cuda)) return code;
    job.device = job.cuda ? rank_device(o.config.placement.device, world.local_rank(), catalogue.count()) : 0;
    const RankDomainPlan mine = plan_rank_domain(job.plan, world.rank(), job.device, catalogue);
    if (int code = world.agree(mine.verdict ? 0 : 2, mine.verdict.reason)) return code; // refused before anything
    std::string why;
    try {
        job.domain = create_rank_domain(mine, &why);
    } catch (const std::exception& e) {
        why = e.what();
    }
    if (int code = world.agree(job.domain ? 0 : 1, "cannot create the box: " + why)) return code; // a failed run
    // As the strips (rank_run.cpp): peer copies where every pair of neighbours shares a node, else device buffers
    // where MPI reads them, else staged through host memory.
    const bool automatic = job.cuda && o.config.placement.halo == HaloMode::Auto;
    job.staged_by_request = job.cuda && o.config.placement.halo == HaloMode::Staged;
    if (automatic && knob_flag(Knob::MpiPeerCopies)
        && connect_grid_peers(world, *job.domain, job.plan, job.no_peer_copies))
        job.halo = RankHalo::Peer;
    else if (automatic && world.cuda_aware() && world.all(job.domain->hold_device_faces()))
        job.halo = RankHalo::Device;

    run_or_end_job(world, [&] {
        const std::vector<double> initial = initial_field(o.config); // every rank makes the same field
        job.domain->field().upload(region_values(initial, o.config.problem.size, local_region(mine)));
    });
    return 0;
}

} // namespace ss::cli
