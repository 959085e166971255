// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/rank_strip_cuda.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"
#include "gpu/backends/cuda/ipc_ghost_rows.h"

#include <algorithm>
#include <new>
#include <utility>
#include <vector>

namespace ss {
namespace {

// The overlapped step mirrors the in-process strips (gpu/backends/cuda/multi_gpu_simulation.cpp): on the compute
// stream the boundary rows, the event boundary_done, then the interior; on the high-priority halo stream,
// once boundary_done, the rows to send go to pinned host memory (copied_out) while the interior runs; the
// received rows go up on the halo stream too (received), and the compute stream waits for them before the
// next step. Two buffers alternate, so nothing the interior reads or writes is touched by the exchange:
// it reads the old buffer and writes the new one's owned rows, the exchange reads the new one's boundary
// rows and writes its ghost rows. Compute times come from events recorded around each step's kernels,
// read two steps later (by then the host has waited for a later boundary on the same stream).
class CudaRankStrip final : public RankStrip {
public:
    CudaRankStrip(std::unique_ptr<CudaSimulation> sim, const Strip& strip, int ghost_depth)
        : m_sim(std::move(sim))
        , m_ghost(ghost_depth) {
        m_strip = strip;
        m_halo_bytes = std::size_t(ghost_depth) * m_sim->row_bytes();
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        int least = 0, greatest = 0;
        cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
        cuda_check(cudaStreamCreateWithPriority(&m_halo, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
        for (cudaEvent_t* e : { &m_boundary_done, &m_copied_out, &m_received })
            cuda_check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
        for (auto& pair : m_timing)
            for (cudaEvent_t& e : pair) cuda_check(cudaEventCreate(&e), "cudaEventCreate");
    }
    ~CudaRankStrip() override {
        cudaSetDevice(m_sim->device());
        if (m_halo) cudaStreamSynchronize(m_halo);
        cudaStreamSynchronize(m_sim->stream());
        for (cudaEvent_t e : { m_boundary_done, m_copied_out, m_received })
            if (e) cudaEventDestroy(e);
        for (auto& pair : m_timing)
            for (cudaEvent_t e : pair)
                if (e) cudaEventDestroy(e);
        destroy_piece_events();
        if (m_halo) cudaStreamDestroy(m_halo);
    }
    Simulation& field() override { return *m_sim; }
    // The rows to send must be final before a transport reads them: the step is waited for (no overlap).
    double compute_step() override { return m_sim->waited_step_ms(); }
    unsigned char* send_rows(int side) override {
        return current() + std::size_t(side == kRankBelow ? m_ghost : m_strip.updated_rows()) * m_sim->row_bytes();
    }
    unsigned char* ghost_rows(int side) override { return current() + ghost_offset(side); }
    bool device_memory() const override { return true; }
    void copy_out(int side, void* host) override { copy(host, send_rows(side), cudaMemcpyDeviceToHost); }
    void copy_in(int side, const void* host) override { copy(ghost_rows(side), host, cudaMemcpyHostToDevice); }

    bool overlaps() const override { return true; }
    void begin_step(const bool neighbour[2], unsigned char* const stage_out[2]) override {
        for (int side : { kRankBelow, kRankAbove })
            m_neighbour[side] = neighbour[side], m_stage_out[side] = stage_out ? stage_out[side] : nullptr;
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        const int slot = int(m_steps_begun % 2);
        if (m_steps_begun >= 2) harvest(slot);
        cudaStream_t compute = m_sim->stream();
        cuda_check(cudaEventRecord(m_timing[slot][0], compute), "cudaEventRecord");
        if (m_ghost == 0) { // diffusion layers: nothing to exchange
            m_sim->launch_step();
        } else { // the rows the neighbours need first, then the interior while they travel
            const int g = m_ghost, end = g + m_strip.updated_rows();
            const int low = m_neighbour[kRankBelow] ? std::min(2 * g, end) : g;
            const int high = m_neighbour[kRankAbove] ? std::max(low, end - g) : end;
            if (low > g) m_sim->launch_star_rows(g, low, compute);
            if (high < end) m_sim->launch_star_rows(high, end, compute);
            cuda_check(cudaEventRecord(m_boundary_done, compute), "cudaEventRecord");
            if (high > low) m_sim->launch_star_rows(low, high, compute);
        }
        cuda_check(cudaEventRecord(m_timing[slot][1], compute), "cudaEventRecord");
        m_sim->finish_step();
        ++m_steps_begun;
        if (m_ghost == 0) return;
        cuda_check(cudaStreamWaitEvent(m_halo, m_boundary_done, 0), "cudaStreamWaitEvent");
        const int pieces = int(m_piece_out.size()) > 1 ? int(m_piece_out.size()) : 1;
        for (int k = 0; k < pieces; ++k) {
            const std::size_t at = piece_offset(m_halo_bytes, pieces, k),
                              length = piece_length(m_halo_bytes, pieces, k);
            for (int side : { kRankBelow, kRankAbove }) // from the new buffer: current() after finish_step
                if (m_neighbour[side] && m_stage_out[side])
                    cuda_check(cudaMemcpyAsync(m_stage_out[side] + at, send_rows(side) + at, length,
                                   cudaMemcpyDeviceToHost, m_halo),
                        "ghost row staging");
            if (pieces > 1) cuda_check(cudaEventRecord(m_piece_out[std::size_t(k)], m_halo), "cudaEventRecord");
        }
        cuda_check(cudaEventRecord(m_copied_out, m_halo), "cudaEventRecord");
    }
    void rows_final() override {
        if (m_ghost > 0) cuda_check(cudaEventSynchronize(m_boundary_done), "boundary rows");
    }
    void rows_out() override {
        if (m_ghost > 0) cuda_check(cudaEventSynchronize(m_copied_out), "ghost row staging");
    }
    void rows_in(const unsigned char* const stage_in[2]) override {
        if (m_ghost == 0 || !stage_in) return; // in place: the transport has written the ghost rows already
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        for (int side : { kRankBelow, kRankAbove })
            if (m_neighbour[side])
                cuda_check(
                    cudaMemcpyAsync(ghost_rows(side), stage_in[side], m_halo_bytes, cudaMemcpyHostToDevice, m_halo),
                    "ghost row upload");
        next_step_waits_for_uploads();
    }
    void set_stage_pieces(int pieces) override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        destroy_piece_events();
        if (pieces <= 1) return;
        m_piece_out.assign(std::size_t(pieces), nullptr);
        for (cudaEvent_t& e : m_piece_out)
            cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    }
    bool piece_out_ready(int k) override {
        const cudaError_t e = cudaEventQuery(m_piece_out[std::size_t(k)]);
        if (e == cudaErrorNotReady) return false;
        cuda_check(e, "ghost row staging");
        return true;
    }
    void piece_in(int side, int k, const unsigned char* stage_in) override {
        const int pieces = int(m_piece_out.size());
        const std::size_t at = piece_offset(m_halo_bytes, pieces, k), length = piece_length(m_halo_bytes, pieces, k);
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(cudaMemcpyAsync(ghost_rows(side) + at, stage_in + at, length, cudaMemcpyHostToDevice, m_halo),
            "ghost row upload");
    }
    void pieces_in() override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        next_step_waits_for_uploads();
    }
    std::vector<unsigned char> peer_description() override {
        if (m_ghost == 0) return {};
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        unsigned char* const buffers[2] = { m_sim->buffer(0), m_sim->buffer(1) };
        const std::size_t offsets[2] = { ghost_offset(kRankBelow), ghost_offset(kRankAbove) };
        return IpcGhostRows::describe(buffers, offsets, m_halo_bytes);
    }
    Status open_peer(int side, const std::vector<unsigned char>& description) override {
        return m_peers.open(side, description, m_sim->device(), m_halo_bytes);
    }
    // On the halo stream, which follows the boundary rows (begin_step) or the waited step (compute_step).
    void push_rows() override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        const int parity = m_sim->current_buffer();
        for (int side : { kRankBelow, kRankAbove })
            if (m_peers.is_open(side))
                cuda_check(cudaMemcpyAsync(
                               m_peers.target(side, parity), send_rows(side), m_halo_bytes, cudaMemcpyDefault, m_halo),
                    "ghost rows to the neighbour (CUDA IPC)");
        cuda_check(cudaStreamSynchronize(m_halo), "ghost rows to the neighbour (CUDA IPC)");
    }
    void close_peers() override { m_peers.close(); }
    double take_compute_ms() override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(cudaStreamSynchronize(m_halo), "ghost row upload");
        cuda_check(cudaStreamSynchronize(m_sim->stream()), "stencil steps");
        for (long long s = std::max(0LL, m_steps_begun - 2); s < m_steps_begun; ++s) harvest(int(s % 2));
        m_steps_begun = 0;
        return std::exchange(m_compute_ms, 0.0);
    }

private:
    unsigned char* current() const { return m_sim->buffer(m_sim->current_buffer()); }
    std::size_t ghost_offset(int side) const {
        return std::size_t(side == kRankBelow ? 0 : m_ghost + m_strip.updated_rows()) * m_sim->row_bytes();
    }
    void copy(void* to, const void* from, cudaMemcpyKind kind) {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(cudaMemcpyAsync(to, from, m_halo_bytes, kind, m_sim->stream()), "ghost row staging");
        cuda_check(cudaStreamSynchronize(m_sim->stream()), "ghost row staging");
    }
    // The compute stream waits for every upload queued on the halo stream so far (whole rows or pieces).
    void next_step_waits_for_uploads() {
        cuda_check(cudaEventRecord(m_received, m_halo), "cudaEventRecord");
        cuda_check(cudaStreamWaitEvent(m_sim->stream(), m_received, 0), "cudaStreamWaitEvent");
    }
    void destroy_piece_events() {
        for (cudaEvent_t e : m_piece_out)
            if (e) cudaEventDestroy(e);
        m_piece_out.clear();
    }
    // The kernels' time of the step that recorded into `slot`; that step has ended (see the class comment).
    void harvest(int slot) {
        cuda_check(cudaEventSynchronize(m_timing[slot][1]), "stencil step");
        float ms = 0.0f;
        cuda_check(cudaEventElapsedTime(&ms, m_timing[slot][0], m_timing[slot][1]), "cudaEventElapsedTime");
        m_compute_ms += double(ms);
    }

    std::unique_ptr<CudaSimulation> m_sim;
    int m_ghost = 0;
    cudaStream_t m_halo = nullptr;
    cudaEvent_t m_boundary_done = nullptr, m_copied_out = nullptr, m_received = nullptr;
    cudaEvent_t m_timing[2][2] = {}; // [step parity][begin, end]
    long long m_steps_begun = 0; // since the last take_compute_ms
    std::vector<cudaEvent_t> m_piece_out; // one per piece of the staged rows (none: one piece, m_copied_out)
    IpcGhostRows m_peers; // unmapped after the destructor has waited for the halo stream
};

} // namespace

std::unique_ptr<RankStrip> create_cuda_rank_strip(
    const KernelPlan& plan, const Strip& strip, int ghost_depth, std::string* why) {
    try {
        return std::make_unique<CudaRankStrip>(std::make_unique<CudaSimulation>(plan), strip, ghost_depth);
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
