// SPDX-License-Identifier: MIT
// One process's strip of a run split over processes (stencilscope-cli under mpirun, app/cli/mpi_*): the
// domain is cut along its slowest axis as gpu/plan/strip_plan.h cuts it over GPUs, one strip per rank, and each
// rank runs its strip with the single-device machinery (CPU backend or one CudaSimulation). What a rank
// sends and where its ghost rows land is raw memory here; the transport (MPI) lives above the engine,
// which stays MPI-free and testable without it.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/rank_plan.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/device.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ss {

inline constexpr int kRankBelow = 0, kRankAbove = 1; // sides of a rank's strip: towards lower and higher rows

class RankStrip {
public:
    virtual ~RankStrip() = default;
    // The strip as a domain of its own (its rows plus R ghost rows on each side): upload the global
    // field's rows strip.local_begin .. local_end, download, iteration, resources.
    virtual Simulation& field() = 0;
    const Strip& strip() const { return m_strip; }
    // One step over the strip's updated rows, waited for: afterwards the rows to send are final and the
    // current buffer is the new one. Returns the host-measured milliseconds of the step's kernels.
    virtual double compute_step() = 0;
    // Where the rows sent towards `side` and the ghost rows on `side` lie in the current buffer (they
    // alternate between two buffers with every step): device memory when device_memory().
    virtual unsigned char* send_rows(int side) = 0;
    virtual unsigned char* ghost_rows(int side) = 0;
    virtual bool device_memory() const = 0;
    // Staging for a transport that cannot read device memory, synchronous: the rows sent towards `side`
    // into `host`, and `host` into the ghost rows on `side`. Plain copies on the CPU backend.
    virtual void copy_out(int side, void* host) = 0;
    virtual void copy_in(int side, const void* host) = 0;
    // Bytes of one side's exchange: R rows (0 for the diffusion layers, which exchange nothing).
    std::size_t halo_bytes() const { return m_halo_bytes; }

    // ---- The overlapped step (--overlap on), in this order each step:
    //   begin_step  queues the step: the rows the neighbours on `neighbour[side]` need first, then the
    //               interior; with `stage_out`, copies of the rows to send into stage_out[side] once they
    //               are final. Returns at once; the current buffer is the new one already.
    //   rows_final  blocks until the rows to send are final, the interior still running;
    //   rows_out    blocks until they are in stage_out (with staging; else the transport reads send_rows());
    //   (the transport trades the rows)
    //   rows_in     with `stage_in`, queues stage_in[side] into the ghost rows; the next step's kernels
    //               wait for them (without, the transport has written ghost_rows() in place);
    //   take_compute_ms  after the last step: waits for everything begun and returns the milliseconds of
    //               the kernels of the steps begun since the last call (GPU-timed on CUDA).
    // overlaps() says whether the exchange really runs while the interior computes: the CPU backend runs
    // the same calls one after the other (compute_step, copy_out, copy_in).
    virtual bool overlaps() const { return false; }
    virtual void begin_step(const bool neighbour[2], unsigned char* const stage_out[2]);
    virtual void rows_final() { }
    virtual void rows_out();
    virtual void rows_in(const unsigned char* const stage_in[2]);
    virtual double take_compute_ms();

    // ---- The staged rows in pieces (the overlapped step's pipeline, issue 37). With set_stage_pieces(n), n > 1,
    // begin_step copies the rows to send into stage_out in n pieces of the halo, in order:
    //   piece_out_ready  whether piece k of every side is in stage_out (does not block);
    //   piece_in         queues piece k of stage_in[side] into the ghost rows on `side`, as soon as it arrived;
    //   pieces_in        after the last piece_in: the next step's kernels wait for every piece queued.
    // The CPU backend never stages (its rows are host memory already): one piece, and plain copies.
    virtual void set_stage_pieces(int) { }
    virtual bool piece_out_ready(int) { return true; }
    virtual void piece_in(int side, int, const unsigned char* stage_in) { copy_in(side, stage_in); }
    virtual void pieces_in() { }
    // Piece k of n of `bytes` bytes: its offset and length (the first pieces one byte longer where n does not
    // divide it).
    static std::size_t piece_offset(std::size_t bytes, int pieces, int k) {
        return bytes / std::size_t(pieces) * std::size_t(k) + std::min(bytes % std::size_t(pieces), std::size_t(k));
    }
    static std::size_t piece_length(std::size_t bytes, int pieces, int k) {
        return piece_offset(bytes, pieces, k + 1) - piece_offset(bytes, pieces, k);
    }

    // ---- Peer copies between processes on one node (CUDA IPC; gpu/backends/cuda/ipc_ghost_rows.h), the
    // transport carrying only a description once and a word per step:
    //   peer_description  what a neighbour needs to write this strip's ghost rows (empty: this backend cannot);
    //   open_peer         maps the neighbour on `side`'s buffers from its description (refused with the reason);
    //   push_rows         once the rows to send are final (after compute_step, or rows_final), copies them
    //                     straight into every opened neighbour's ghost rows, in its buffer of this step's parity
    //                     (the ranks step in lockstep), and waits for the copies;
    //   close_peers       unmaps them (a job that cannot use them on every rank falls back to staging).
    virtual std::vector<unsigned char> peer_description() { return {}; }
    virtual Status open_peer(int, const std::vector<unsigned char>&) {
        return Status::failure("peer copies need the CUDA backend");
    }
    virtual void push_rows() { }
    virtual void close_peers() { }

protected:
    Strip m_strip;
    std::size_t m_halo_bytes = 0;
    bool m_neighbour[2] = {}; // of the step begun
    unsigned char* m_stage_out[2] = {}; // of the step begun (null: in place)
    double m_compute_ms = 0.0; // not yet taken
};

// An order-independent checksum of a field's values: the sum (mod 2^64) over cells of a mix of the
// cell's global index and its value's bits, so that ranks can add their rows' sums and any changed bit
// of any cell changes it (with overwhelming probability). `first_cell` is the global index of values[0].
std::uint64_t field_checksum(const std::vector<double>& values, std::int64_t first_cell = 0);

} // namespace ss
