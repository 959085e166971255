// SPDX-License-Identifier: MIT
#include "app/cli/mpi_world.h"

#include "app/cli/cli_common.h"
#include "gpu/backends/rank_strip.h"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> // Open MPI: MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace ss::cli {
namespace {

// The line of a timed-out exchange: the neighbour whose rows did not come, or that this rank's did not leave.
std::string stall_line(int silent, double timeout_s, long long exchange) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s);
    return (silent >= 0 ? "no ghost rows from rank " + std::to_string(silent) : std::string("ghost rows not sent"))
        + " within " + seconds + " s at exchange " + std::to_string(exchange)
        + " (STENCILSCOPE_MPI_TIMEOUT_S); ending the job";
}

} // namespace

MpiWorld::MpiWorld() {
    if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS) throw std::runtime_error("MPI_Init failed");
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &m_local_rank);
    MPI_Comm_free(&node);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    m_host.assign(name, std::size_t(std::max(length, 0)));
}

MpiWorld::~MpiWorld() {
    MPI_Finalize();
}

int MpiWorld::agree(int code, const std::string& reason, bool same_everywhere) {
    int worst = 0;
    MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst == 0) return 0;
    int mine = code == worst ? m_rank : m_size, first = 0;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    std::string text = reason;
    if (first != 0) { // its reason travels to rank 0
        if (m_rank == first) {
            const int length = int(std::min<std::size_t>(reason.size(), 4096));
            MPI_Send(reason.data(), length, MPI_CHAR, 0, 7, MPI_COMM_WORLD);
        } else if (m_rank == 0) {
            MPI_Status status;
            MPI_Probe(first, 7, MPI_COMM_WORLD, &status);
            int length = 0;
            MPI_Get_count(&status, MPI_CHAR, &length);
            text.assign(std::size_t(length), '\0');
            MPI_Recv(text.data(), length, MPI_CHAR, first, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    if (m_rank == 0) fail(worst, same_everywhere ? text : "rank " + std::to_string(first) + ": " + text);
    return worst;
}

int MpiWorld::first_differing_rank(std::uint64_t value) {
    unsigned long long root = value;
    MPI_Bcast(&root, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    int mine = root == value ? m_size : m_rank, first = 0;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return first == m_size ? -1 : first;
}

bool MpiWorld::all(bool value) {
    int mine = value ? 1 : 0, every = 0;
    MPI_Allreduce(&mine, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return every == 1;
}

double MpiWorld::max(double value) {
    double most = 0.0;
    MPI_Allreduce(&value, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return most;
}

std::uint64_t MpiWorld::sum_on_root(std::uint64_t value) {
    unsigned long long mine = value, total = 0; // unsigned addition wraps: the checksum is a sum mod 2^64
    MPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    return m_rank == 0 ? total : value;
}

std::vector<double> MpiWorld::gather_on_root(const std::vector<double>& values) {
    std::vector<double> all(m_rank == 0 ? values.size() * std::size_t(m_size) : 0);
    MPI_Gather(
        values.data(), int(values.size()), MPI_DOUBLE, all.data(), int(values.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return all;
}

std::vector<std::string> MpiWorld::gather_on_root(const std::string& text) {
    constexpr int kWidth = 256; // device and host names
    std::string mine = text.substr(0, kWidth);
    mine.resize(kWidth, '\0');
    std::vector<char> all(m_rank == 0 ? std::size_t(kWidth) * std::size_t(m_size) : 0);
    MPI_Gather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    for (int r = 0; m_rank == 0 && r < m_size; ++r) out.emplace_back(all.data() + std::size_t(r) * kWidth);
    return out;
}

void MpiWorld::barrier() {
    MPI_Barrier(MPI_COMM_WORLD);
}

bool MpiWorld::cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    const bool mine = MPIX_Query_cuda_support() == 1;
#else
    const bool mine = false;
#endif
    return all(mine);
}

void MpiWorld::exchange(unsigned char* const send[2], unsigned char* const receive[2], std::size_t bytes,
    double timeout_s, long long exchange, bool skip_sends) {
    const int neighbour[2] = { m_rank > 0 ? m_rank - 1 : -1, m_rank + 1 < m_size ? m_rank + 1 : -1 };
    exchange_with(neighbour, send, receive, bytes, timeout_s, exchange, skip_sends);
}

void MpiWorld::exchange_with(const int neighbours[2], unsigned char* const send[2], unsigned char* const receive[2],
    std::size_t bytes, double timeout_s, long long exchange, bool skip_sends) {
    // Messages of at most 1 GiB (MPI counts are int); a row block towards `side` is tagged with the
    // receiver's side, so that the two directions between one pair of ranks never match each other.
    constexpr std::size_t kChunk = std::size_t(1) << 30;
    std::vector<MPI_Request> requests;
    std::vector<int> request_side;
    for (int side : { 0, 1 }) {
        const int neighbour = neighbours[side];
        if (neighbour < 0 || neighbour >= m_size || bytes == 0) continue;
        for (std::size_t at = 0, part = 0; at < bytes; at += kChunk, ++part) {
            const int count = int(std::min(kChunk, bytes - at));
            requests.emplace_back();
            request_side.push_back(side);
            MPI_Irecv(
                receive[side] + at, count, MPI_BYTE, neighbour, int(2 * part + side), MPI_COMM_WORLD, &requests.back());
        }
    }
    const std::size_t receives = requests.size();
    for (int side : { 0, 1 }) {
        const int neighbour = neighbours[side];
        if (skip_sends || neighbour < 0 || neighbour >= m_size || bytes == 0) continue;
        for (std::size_t at = 0, part = 0; at < bytes; at += kChunk, ++part) {
            requests.emplace_back();
            MPI_Isend(send[side] + at, int(std::min(kChunk, bytes - at)), MPI_BYTE, neighbour, int(2 * part + 1 - side),
                MPI_COMM_WORLD, &requests.back());
        }
    }
    // Polling rather than MPI_Waitall, so that a neighbour gone silent at any step ends the job. It never
    // sleeps: Open MPI moves a large message between ranks of one node in fragments, each needing a call
    // into the library, and a 50 us sleep between tests made a 16 MiB exchange 5x slower (without the
    // single-copy path, as on the H100 machine). Yielding leaves the core to a rank still computing when
    // there are more ranks than cores.
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
    int done = 0;
    while (MPI_Testall(int(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE), !done) {
        if (Clock::now() > deadline) {
            int silent = -1;
            for (std::size_t i = 0; i < receives; ++i) {
                int finished = 0;
                MPI_Test(&requests[i], &finished, MPI_STATUS_IGNORE);
                if (!finished) silent = neighbours[request_side[i]];
            }
            report_stall(exchange, timeout_s, stall_line(silent, timeout_s, exchange));
        }
        std::this_thread::yield();
    }
}

void MpiWorld::trade_exchange_number(const int neighbour[2], long long exchange, double timeout_s, bool skip_sends) {
    unsigned long long word[2][2] = { { (unsigned long long)exchange, (unsigned long long)exchange }, {} };
    unsigned char* send[2]
        = { reinterpret_cast<unsigned char*>(&word[0][0]), reinterpret_cast<unsigned char*>(&word[0][1]) };
    unsigned char* receive[2]
        = { reinterpret_cast<unsigned char*>(&word[1][0]), reinterpret_cast<unsigned char*>(&word[1][1]) };
    exchange_with(neighbour, send, receive, sizeof word[0][0], timeout_s, exchange, skip_sends);
    for (int side : { 0, 1 })
        if (neighbour[side] >= 0 && word[1][side] != (unsigned long long)exchange)
            abort(1,
                "rank " + std::to_string(neighbour[side]) + " is at exchange " + std::to_string(word[1][side])
                    + " where this rank is at " + std::to_string(exchange)
                    + ": the ranks are out of step; ending the job");
}

void MpiWorld::exchange_in_pieces(unsigned char* const send[2], unsigned char* const receive[2], std::size_t bytes,
    int pieces, const std::function<bool(int)>& ready, const std::function<void(int, int)>& arrived, double timeout_s,
    long long exchange, bool skip_sends) {
    const int neighbours[2] = { m_rank > 0 ? m_rank - 1 : -1, m_rank + 1 < m_size ? m_rank + 1 : -1 };
    // Every piece's receive first (tagged 2 * piece + the receiver's side, as in exchange_with), so that a piece
    // can land as soon as it is sent.
    std::vector<MPI_Request> receives;
    std::vector<std::pair<int, int>> received_piece; // side, piece of each receive
    for (int side : { 0, 1 })
        for (int k = 0; neighbours[side] >= 0 && k < pieces; ++k) {
            receives.emplace_back();
            received_piece.emplace_back(side, k);
            MPI_Irecv(receive[side] + RankStrip::piece_offset(bytes, pieces, k),
                int(RankStrip::piece_length(bytes, pieces, k)), MPI_BYTE, neighbours[side], 2 * k + side,
                MPI_COMM_WORLD, &receives.back());
        }
    std::vector<MPI_Request> sends;
    std::vector<int> indices(receives.size());
    std::size_t landed = 0;
    int next = 0; // the next piece to send
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
    for (;;) {
        // Send each piece once it is in the host buffers (in order), and hand over each piece that landed.
        while (next < pieces && ready(next)) {
            for (int side : { 0, 1 })
                if (neighbours[side] >= 0 && !skip_sends) {
                    sends.emplace_back();
                    MPI_Isend(send[side] + RankStrip::piece_offset(bytes, pieces, next),
                        int(RankStrip::piece_length(bytes, pieces, next)), MPI_BYTE, neighbours[side],
                        2 * next + 1 - side, MPI_COMM_WORLD, &sends.back());
                }
            ++next;
        }
        int count = 0;
        if (landed < receives.size()) {
            MPI_Testsome(int(receives.size()), receives.data(), &count, indices.data(), MPI_STATUSES_IGNORE);
            for (int i = 0; i < count && count != MPI_UNDEFINED; ++i, ++landed)
                arrived(received_piece[std::size_t(indices[std::size_t(i)])].first,
                    received_piece[std::size_t(indices[std::size_t(i)])].second);
        }
        int sent = 1;
        if (!sends.empty()) MPI_Testall(int(sends.size()), sends.data(), &sent, MPI_STATUSES_IGNORE);
        if (next == pieces && landed == receives.size() && sent) return;
        if (Clock::now() > deadline) {
            int silent = -1;
            for (std::size_t i = 0; i < receives.size(); ++i)
                if (receives[i] != MPI_REQUEST_NULL) silent = neighbours[received_piece[i].first];
            report_stall(exchange, timeout_s, stall_line(silent, timeout_s, exchange));
        }
        std::this_thread::yield();
    }
}

void MpiWorld::report_stall(long long exchange, double timeout_s, const std::string& line) {
    // A stall makes several ranks time out within microseconds of each other: the one that waits on the
    // silent rank, then those that wait on it one exchange later. One line says it: every rank that times
    // out tells the others (exchange, rank) and listens a moment; the lowest pair, the rank nearest the
    // stall, reports and ends the job, the others wait to be ended.
    constexpr int kStallTag = 32000; // the exchange's tags are small; MPI guarantees tags up to 32767
    const long long mine[2] = { exchange, m_rank };
    std::vector<MPI_Request> notices(std::size_t(m_size), MPI_REQUEST_NULL);
    for (int r = 0; r < m_size; ++r)
        if (r != m_rank) MPI_Isend(mine, 2, MPI_LONG_LONG, r, kStallTag, MPI_COMM_WORLD, &notices[std::size_t(r)]);
    using Clock = std::chrono::steady_clock;
    const auto listen_until = Clock::now() + std::chrono::duration<double>(std::min(0.25, timeout_s / 2));
    bool nearer_elsewhere = false;
    while (Clock::now() < listen_until) {
        int waiting = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kStallTag, MPI_COMM_WORLD, &waiting, &status);
        if (!waiting) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            continue;
        }
        long long theirs[2] = {};
        MPI_Recv(theirs, 2, MPI_LONG_LONG, status.MPI_SOURCE, kStallTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (theirs[0] < mine[0] || (theirs[0] == mine[0] && theirs[1] < mine[1])) nearer_elsewhere = true;
    }
    if (!nearer_elsewhere) abort(1, line);
    // The nearer rank ends the job; should it not (it died on its own), end it without a second line.
    std::this_thread::sleep_for(std::chrono::duration<double>(timeout_s));
    std::cerr.flush();
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::exit(1);
}

void MpiWorld::abort(int code, const std::string& line) {
    fail(code, "rank " + std::to_string(m_rank) + ": " + line);
    std::cerr.flush();
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code); // MPI_Abort does not return; this keeps [[noreturn]] honest
}

} // namespace ss::cli
