// SPDX-License-Identifier: MIT
// The MPI calls of stencilscope-cli, and only they (app/cli/mpi_run.cpp drives them): the job's ranks,
// agreement on a refusal (rank 0 says it once), the halo trade with its timeout, and the
// reductions of the report. No MPI type leaks out of mpi_world.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ss::cli {

class MpiWorld {
public:
    MpiWorld(); // MPI_Init; throws std::runtime_error when it fails
    ~MpiWorld(); // MPI_Finalize
    MpiWorld(const MpiWorld&) = delete;
    MpiWorld& operator=(const MpiWorld&) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    int local_rank() const { return m_local_rank; } // among the ranks of this node
    const std::string& host() const { return m_host; }

    // Collective. The worst code of all ranks (0 when every one passes 0); when it is not 0, rank 0 prints
    // the reason of the lowest rank that gave it, as "rank K: reason" (or the reason alone when every rank
    // gave the same code and reason would be the same, `same_everywhere`).
    int agree(int code, const std::string& reason, bool same_everywhere = false);
    // Collective: the lowest rank whose `value` differs from rank 0's, or -1.
    int first_differing_rank(std::uint64_t value);
    bool all(bool value); // collective: logical and
    double max(double value); // collective
    std::uint64_t sum_on_root(std::uint64_t value); // the sum on rank 0 (other ranks: their own)
    std::vector<double> gather_on_root(const std::vector<double>& values); // every rank passes as many
    std::vector<std::string> gather_on_root(const std::string& text);
    void barrier();
    // Whether the MPI library reads and writes device memory (MPIX_Query_cuda_support at run time, Open
    // MPI's extension); false where the library cannot say. Collective: true only when it is on every rank.
    bool cuda_aware();

    // Trades ghost rows with the neighbours rank - 1 (side 0) and rank + 1 (side 1): sends send[side],
    // receives into receive[side] (`bytes` each; pointers to device memory when cuda_aware()). It waits at
    // most `timeout_s` (polling) and otherwise ends the whole job (MPI_Abort) after one line naming the
    // silent neighbour and `exchange`, the exchange's number (1 = the first). `skip_sends` is a testing
    // hook: this rank sends nothing.
    void exchange(unsigned char* const send[2], unsigned char* const receive[2], std::size_t bytes, double timeout_s,
        long long exchange, bool skip_sends = false);
    // The same with the neighbours named: neighbour[side] is a rank, or -1 where that side has none (a process
    // grid's neighbours along one axis, gpu/plan/process_grid.h: the ranks MPI_Cart_shift would give).
    void exchange_with(const int neighbour[2], unsigned char* const send[2], unsigned char* const receive[2],
        std::size_t bytes, double timeout_s, long long exchange, bool skip_sends = false);
    // The trade of exchange() in `pieces` pieces of `bytes` (gpu/backends/rank_strip.h, RankStrip::piece_offset), for
    // a pipeline: every piece's receive is posted first; piece k goes to both neighbours once ready(k) says it is in
    // the send buffers (asked in order, never blocking), and arrived(side, k) is called as each received piece lands,
    // so that its copy up can start while later pieces travel. The same timeout and testing hook as exchange().
    void exchange_in_pieces(unsigned char* const send[2], unsigned char* const receive[2], std::size_t bytes,
        int pieces, const std::function<bool(int)>& ready, const std::function<void(int side, int piece)>& arrived,
        double timeout_s, long long exchange, bool skip_sends = false);
    // The peer-copy paths' word: this rank's exchange number to the neighbours named as in exchange_with, theirs
    // back, which says their rows or faces have landed; where a neighbour is at another exchange, the job ends with
    // one line (the ranks are out of step). The same timeout and testing hook as exchange().
    void trade_exchange_number(const int neighbour[2], long long exchange, double timeout_s, bool skip_sends = false);
    // One line on stderr from this rank, then the whole job ends with `code`.
    [[noreturn]] void abort(int code, const std::string& line);

private:
    // After a timed-out wait at `exchange`: `line` from the rank nearest the stall, then the job ends.
    [[noreturn]] void report_stall(long long exchange, double timeout_s, const std::string& line);

    int m_rank = 0, m_size = 1, m_local_rank = 0;
    std::string m_host;
};

} // namespace ss::cli
