// SPDX-License-Identifier: MIT
// One rank of an MPI job (app/cli/mpi_run.cpp, mpi_profile.cpp): how every command starts its rank (the
// backend the ranks agree on, the split checked, its strip created with its rows of the initial field)
// and how it steps with the ghost-row trade. Only mpi_world.cpp calls MPI.
#pragma once

#include "app/cli/mpi_world.h"
#include "gpu/backends/create_rank_strip.h"
#include "gpu/plan/knobs.h"
#include "gpu/plan/rank_plan.h"
#include "gpu/problem/device.h"
#include "reports/csv.h"
#include "reports/run_options.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ss::cli {

// One rank's timings of a timed run: means per step.
struct RankTimes {
    double compute_ms = 0.0, exchange_ms = 0.0;
};
// The median of the timed runs' values (0 for none): what rank 0 reports of each rank.
double median(std::vector<double> values);

// How a rank's ghost rows travel. Host: MPI moves pinned host copies of them (or the CPU backend's rows). Device: MPI
// moves device memory (a CUDA-aware MPI). Peer: the rank copies its rows straight into its neighbours' ghost rows
// (CUDA IPC, every pair of neighbours on one node) and MPI carries a word per step, saying they have landed.
enum class RankHalo { Host, Device, Peer };
HaloPath halo_path(RankHalo); // its name in reports and CSVs
// The pieces staged rows of `halo_bytes` travel in with overlap on (STENCILSCOPE_MPI_STAGE_CHUNK_KIB; 1: whole).
int stage_pieces(std::size_t halo_bytes);

// The steps of one rank. Overlap off: the step, waited for, then the exchange (staged: copy out, trade,
// copy in). Overlap on: the rows the neighbours need first, then the interior, which runs while those rows
// travel (RankStrip's overlapped step); the CPU backend runs the same calls one after the other.
class RankRun {
public:
    RankRun(MpiWorld& world, RankStrip& strip, Backend backend, RankHalo halo, bool overlap)
        : m_world(world)
        , m_strip(strip)
        , m_halo(halo)
        , m_overlap(overlap)
        , m_timeout_s(knob_seconds(Knob::MpiTimeout)) {
        // Testing hooks (gpu/plan/knobs.h): rank STENCILSCOPE_MPI_TEST_SILENT_RANK stops sending after
        // STENCILSCOPE_MPI_TEST_SILENT_AFTER exchanges (0: at once).
        const bool silent = knob_integer(Knob::MpiTestSilentRank) == world.rank();
        m_silent_after = silent ? knob_integer(Knob::MpiTestSilentAfter) : -1;
        m_neighbour[kRankBelow] = world.rank() > 0, m_neighbour[kRankAbove] = world.rank() + 1 < world.size();
        if (staged())
            for (auto& buffers : m_staging)
                for (auto& b : buffers) b = allocate_staging(strip.halo_bytes(), backend);
        if (staged() && m_overlap) { // the staged rows in pieces of STENCILSCOPE_MPI_STAGE_CHUNK_KIB (0: whole)
            m_pieces = stage_pieces(strip.halo_bytes());
            if (m_pieces > 1) m_strip.set_stage_pieces(m_pieces);
        }
        for (int side : { kRankBelow, kRankAbove })
            m_host[0][side] = m_staging[0][side].get(), m_host[1][side] = m_staging[1][side].get();
    }

    // `steps` steps, each with its exchange; every exchange waits at most the timeout.
    RankTimes steps(int steps) {
        RankTimes t;
        for (int i = 0; i < steps; ++i) {
            if (m_overlap) {
                m_strip.begin_step(m_neighbour, staged() ? m_host[0] : nullptr);
                m_strip.rows_final();
                const auto start = std::chrono::steady_clock::now(); // the interior runs from here on
                if (m_pieces > 1) {
                    trade_in_pieces();
                } else {
                    m_strip.rows_out();
                    if (m_halo == RankHalo::Peer) m_strip.push_rows();
                    trade();
                    m_strip.rows_in(staged() ? m_host[1] : nullptr);
                }
                t.exchange_ms += milliseconds_since(start);
            } else {
                t.compute_ms += m_strip.compute_step();
                const auto start = std::chrono::steady_clock::now();
                exchange_after_step();
                t.exchange_ms += milliseconds_since(start);
            }
        }
        if (m_overlap) t.compute_ms = m_strip.take_compute_ms();
        if (steps > 0) t.compute_ms /= steps, t.exchange_ms /= steps;
        return t;
    }

    // The exchange of a step computed outside steps() (the profiled step): as after a step with overlap off.
    void exchange_after_step() {
        if (m_halo == RankHalo::Peer) m_strip.push_rows();
        for (int side : { kRankBelow, kRankAbove })
            if (staged() && m_neighbour[side]) m_strip.copy_out(side, m_host[0][side]);
        trade();
        for (int side : { kRankBelow, kRankAbove })
            if (staged() && m_neighbour[side]) m_strip.copy_in(side, m_host[1][side]);
    }

private:
    static double milliseconds_since(std::chrono::steady_clock::time_point start) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    bool staged() const { return m_halo == RankHalo::Host && m_strip.device_memory(); }

    // MPI between the rows to send and the ghost rows: the staging buffers, or the strip's rows in place; with peer
    // copies, the exchange's number, which says the rows have landed (and that the ranks are in step).
    void trade() {
        if (m_halo == RankHalo::Peer) return trade_word();
        unsigned char *send[2], *receive[2];
        for (int side : { kRankBelow, kRankAbove }) {
            send[side] = staged() ? m_host[0][side] : m_strip.send_rows(side);
            receive[side] = staged() ? m_host[1][side] : m_strip.ghost_rows(side);
        }
        ++m_exchanges;
        const bool silent = m_silent_after >= 0 && m_exchanges > m_silent_after;
        m_world.exchange(send, receive, m_strip.halo_bytes(), m_timeout_s, m_exchanges, silent);
    }

    void trade_word();
    // The staged trade pipelined: each piece leaves as soon as it is down in host memory and goes up as soon as it
    // has arrived (RankStrip's pieces, MpiWorld::exchange_in_pieces).
    void trade_in_pieces();

    MpiWorld& m_world;
    RankStrip& m_strip;
    RankHalo m_halo;
    bool m_overlap;
    double m_timeout_s;
    long long m_silent_after = -1, m_exchanges = 0;
    int m_pieces = 1; // of the staged rows, overlap on
    bool m_neighbour[2] = {};
    std::shared_ptr<unsigned char> m_staging[2][2]; // [send, receive][side]: pinned host rows
    unsigned char* m_host[2][2] = {}; // their pointers
};

// Runs `work` on this rank; where it throws, ends the whole job with one line (out of host memory, or "run failed:
// ..."): the neighbours are past every collective check and would wait for this rank in an exchange.
void run_or_end_job(MpiWorld& world, const std::function<void()>& work);

// What a command's rank runs on, once start_rank_job has agreed on it with every rank.
struct RankJob {
    bool cuda = false; // the backend of the whole job
    int device = 0; // this rank's CUDA device
    RankPlan plan; // the split, resolved once: every rank's strip (rank 0 reports them)
    std::unique_ptr<RankStrip> strip; // this rank's rows, holding its part of the initial field
    RankHalo halo = RankHalo::Host; // the same on every rank
    std::string no_peer_copies; // why the ranks stage through host memory where peer copies were tried
    bool staged_by_request = false; // --halo staged
    bool overlapped = false; // the exchange runs while the interior computes (the same on every rank)
};

// Collective, the start every rank's job shares: agrees on one backend (CUDA when asked, or when every rank has a
// GPU and none was asked; `need_cuda`: the CPU backend is refused), then `check_split` (the split's check, once the
// backend is known), this rank's CUDA device and rank 0's CSV under `csv_header`. 0 to go on; else the code every
// rank returns, rank 0 having said why in one line.
int agree_on_rank_start(RunOptions& o, MpiWorld& world, const DeviceCatalogue& catalogue, bool need_cuda,
    const std::function<Status()>& check_split, const CsvRow& csv_header, bool& cuda);

// Collective. Agrees on one backend (CUDA when asked, or when every rank has a GPU and none was asked;
// `need_cuda`: the CPU backend is refused), checks the split, this rank's strip and rank 0's CSV under
// `csv_header`, creates the strip and uploads its rows. 0 to go on; else the code every rank returns,
// rank 0 having said why in one line. A failure after the checks ends the job (MpiWorld::abort).
int start_rank_job(RunOptions& o, MpiWorld& world, const DeviceCatalogue& catalogue, bool need_cuda,
    const CsvRow& csv_header, RankJob& job);

} // namespace ss::cli
