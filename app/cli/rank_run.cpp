// SPDX-License-Identifier: MIT
#include "app/cli/rank_run.h"

#include "app/cli/address_space.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/rank_peers.h"
#include "gpu/problem/physics.h"

#include <algorithm>
#include <new>

namespace ss::cli {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void run_or_end_job(MpiWorld& world, const std::function<void()>& work) {
    std::string failure;
    try {
        work();
    } catch (const std::bad_alloc&) {
        failure = out_of_host_memory_reason();
    } catch (const std::exception& e) {
        failure = std::string("run failed: ") + e.what();
    }
    if (!failure.empty()) world.abort(1, failure);
}

HaloPath halo_path(RankHalo halo) {
    switch (halo) {
    case RankHalo::Device:
        return HaloPath::MpiDevice;
    case RankHalo::Peer:
        return HaloPath::MpiPeer;
    case RankHalo::Host:
        break;
    }
    return HaloPath::MpiHost;
}

int stage_pieces(std::size_t halo_bytes) {
    const std::size_t piece = std::size_t(knob_integer(Knob::MpiStageChunk)) * 1024;
    return piece > 0 ? int(std::max<std::size_t>(1, (halo_bytes + piece - 1) / piece)) : 1;
}

void RankRun::trade_in_pieces() {
    ++m_exchanges;
    const bool silent = m_silent_after >= 0 && m_exchanges > m_silent_after;
    m_world.exchange_in_pieces(
        m_host[0], m_host[1], m_strip.halo_bytes(), m_pieces, [this](int k) { return m_strip.piece_out_ready(k); },
        [this](int side, int k) { m_strip.piece_in(side, k, m_host[1][side]); }, m_timeout_s, m_exchanges, silent);
    m_strip.pieces_in();
}

void RankRun::trade_word() {
    ++m_exchanges;
    const bool silent = m_silent_after >= 0 && m_exchanges > m_silent_after;
    const int neighbour[2]
        = { m_neighbour[kRankBelow] ? m_world.rank() - 1 : -1, m_neighbour[kRankAbove] ? m_world.rank() + 1 : -1 };
    m_world.trade_exchange_number(neighbour, m_exchanges, m_timeout_s, silent);
}

int agree_on_rank_start(RunOptions& o, MpiWorld& world, const DeviceCatalogue& catalogue, bool need_cuda,
    const std::function<Status()>& check_split, const CsvRow& csv_header, bool& cuda) {
    const bool every_rank_has_cuda = world.all(catalogue.has_cuda());
    if (!o.backend_given && !every_rank_has_cuda) o.config.placement.backend = Backend::Cpu;
    cuda = o.config.placement.backend == Backend::Cuda;
    if (need_cuda && !cuda)
        return world.agree(2,
            o.backend_given ? "profile reads GPU counters: use --backend cuda"
                            : "profile reads GPU counters, and not every rank has a CUDA device",
            true);
    if (Status s = check_split(); !s) return world.agree(2, s.reason, true);
    Status local_input = Status::success();
    if (cuda && !catalogue.has_cuda())
        local_input = Status::failure("--backend cuda, but this rank has no CUDA device ("
            + (catalogue.unavailable.empty() ? std::string("none found") : catalogue.unavailable) + ")");
    if (world.rank() == 0 && local_input && !o.csv.empty())
        if (Status s = open_outputs(o, csv_header); !s) local_input = s;
    return world.agree(local_input ? 0 : 2, local_input.reason);
}

int start_rank_job(RunOptions& o, MpiWorld& world, const DeviceCatalogue& catalogue, bool need_cuda,
    const CsvRow& csv_header, RankJob& job) {
    const auto check_split = [&] {
        job.plan = plan_ranks(o.config, world.size());
        return job.plan.verdict;
    };
    if (int code = agree_on_rank_start(o, world, catalogue, need_cuda, check_split, csv_header, job.cuda)) return code;
    job.device = job.cuda ? rank_device(o.config.placement.device, world.local_rank(), catalogue.count()) : 0;
    const RankStripPlan mine = plan_rank_strip(job.plan, world.rank(), job.device, catalogue);
    const Status& fits = mine.verdict;
    if (int code = world.agree(fits ? 0 : 2, fits.reason)) return code; // bad input: refused before anything
    std::string why;
    try {
        job.strip = create_rank_strip(mine, &why);
    } catch (const std::exception& e) {
        why = e.what();
    }
    if (int code = world.agree(job.strip ? 0 : 1, "cannot create the strip: " + why)) return code; // a failed run
    // Peer copies where every pair of neighbours shares a node (one copy over the GPUs' link, no MPI message per
    // row block); else device buffers where MPI reads them; else staged through host memory.
    const bool automatic = job.cuda && o.config.placement.halo == HaloMode::Auto;
    job.staged_by_request = job.cuda && o.config.placement.halo == HaloMode::Staged;
    const bool try_peers = automatic && knob_flag(Knob::MpiPeerCopies) && job.strip->halo_bytes() > 0; // diffusion: 0
    if (try_peers && connect_peer_ranks(world, *job.strip, job.no_peer_copies))
        job.halo = RankHalo::Peer;
    else if (automatic && world.cuda_aware())
        job.halo = RankHalo::Device;
    job.overlapped = o.config.placement.overlap && job.strip->overlaps();

    run_or_end_job(world, [&] {
        const std::vector<double> initial = initial_field(o.config); // every rank makes the same field
        const std::size_t row = std::size_t(o.config.problem.size.nx)
            * (o.config.problem.stencil == StencilKind::Diffusion4 || o.config.problem.dims == 3
                    ? std::size_t(o.config.problem.size.ny)
                    : 1);
        const Strip& s = job.strip->strip();
        job.strip->field().upload({ initial.begin() + std::ptrdiff_t(s.local_begin * row),
            initial.begin() + std::ptrdiff_t(s.local_end * row) });
    });
    return 0;
}

} // namespace ss::cli
