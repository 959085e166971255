// SPDX-License-Identifier: MIT
// The multi-GPU schedule. Each strip is a CudaSimulation on its own device with ghost rows of depth R;
// a step on strip s, run by its own host thread:
//   compute  on s's stream: the rows its neighbours need first (overlap on), then the interior;
//   send     overlap: on s's high-priority halo stream once the boundary rows are done; staged path:
//            copy those rows to pinned host memory; then record ready[parity];
//   -------- barrier: every strip's ready event of this step is recorded --------
//   receive  wait for the neighbours' ready events, then copy their rows into s's ghost rows (peer copy,
//            device copy, or from their pinned rows); overlap: the compute stream waits for it before
//            the next step. Overlap off, all of it is on the compute stream, after the kernels.
// Strips step in lockstep, so "parity" (which of the two buffers is current) is the same everywhere and
// double-buffers the ready events and pinned rows: a strip records ready[p] again only two steps later,
// after a barrier every reader of the old record has passed. The stream order and these events cover
// every read-after-write and write-after-read between strips (docs/ARCHITECTURE.md, "Multi-GPU").
// The temporal variant: ghost rows of depth G = R x depth; the strip is a domain of its own and each launch fuses
// `depth` steps (level k is right on rows at least R x k from the strip's ghost edge, so its own rows are right
// after `depth`), then the strips trade G rows. Step counts that are not multiples of the depth end with one-step
// launches, each followed by a trade. Overlap on, the launch is cut along the slow axis: the G rows each neighbour
// needs first (each row comes out as in the whole launch), then the rest while they travel; the ghost rows, which
// the trade overwrites, are not computed.
// Remote halo mode (GPU-SM) keeps this order with nothing to send or receive: a strip's kernel reads its
// neighbours' current buffers directly, records ready[parity] after it, and the neighbours wait for that
// event before their next step, which reads its new rows and overwrites the buffer it has just read.
#include "gpu/backends/cuda/multi_gpu_simulation.h"

#include "gpu/backends/cuda/multi_gpu_simulation_class.h"

#include <algorithm>

namespace ss {

void MultiGpuSimulation::step_async(int n) {
    if (n <= 0) return;
    m_workers->run([&](int i) {
        StripState& s = m_strips[i];
        cuda_check(cudaSetDevice(s.field->device()), "cudaSetDevice");
        for (int done = 0, k = 0; done < n; done += k) {
            k = launch_steps(n - done);
            step_strip(s, k, done + k == n);
        }
    });
    m_iteration += n;
}

StepTiming MultiGpuSimulation::step(int n) {
    // Fork from and join into the first strip's stream, so that one pair of events times all GPUs.
    set_device(0);
    cuda_check(cudaEventRecord(m_start, first_stream()), "cudaEventRecord");
    for (std::size_t i = 1; i < m_strips.size(); ++i) {
        set_device(i);
        cuda_check(cudaStreamWaitEvent(m_strips[i].field->stream(), m_start, 0), "cudaStreamWaitEvent");
    }
    step_async(n);
    join_into_first();
    cuda_check(cudaEventRecord(m_stop, first_stream()), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(m_stop), "stencil steps");
    float ms = 0.0f;
    cuda_check(cudaEventElapsedTime(&ms, m_start, m_stop), "cudaEventElapsedTime");
    harvest_timers();
    return { double(ms), n };
}

void MultiGpuSimulation::synchronize() {
    for (std::size_t i = 0; i < m_strips.size(); ++i) {
        set_device(i);
        cuda_check(cudaStreamSynchronize(m_strips[i].halo), "synchronize");
        m_strips[i].field->synchronize();
    }
}

std::uint64_t MultiGpuSimulation::enqueue_marker() {
    join_into_first();
    cudaEvent_t& e = m_markers[m_next_marker % kMarkers];
    if (!e) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    cuda_check(cudaEventRecord(e, first_stream()), "cudaEventRecord");
    return m_next_marker++;
}

void MultiGpuSimulation::wait_marker(std::uint64_t marker) {
    if (marker + kMarkers < m_next_marker) return; // long done: its event was reused
    cuda_check(cudaEventSynchronize(m_markers[marker % kMarkers]), "wait_marker");
}

// Steps the next launch takes: the temporal variant fuses its depth while as many remain, then single steps.
int MultiGpuSimulation::launch_steps(int remaining) const {
    const int depth = fused_steps(m_config.policy);
    return remaining >= depth ? depth : 1;
}

// ---- One launch (`steps` steps: one, or the temporal variant's fused depth) on one strip, on its worker thread.
void MultiGpuSimulation::step_strip(StripState& s, int steps, bool sample) {
    CudaSimulation& f = *s.field;
    StripTimer& timer = timer_of(s);
    cudaStream_t compute = f.stream();
    if (sample) timer.steps = steps, timer.steps_per_trade = fused_steps(m_config.policy);
    if (sample) cuda_check(cudaEventRecord(timer.compute_begin, compute), "cudaEventRecord");
    if (m_plan.ghost_depth == 0) { // diffusion layers: nothing to exchange
        f.launch_step();
        if (sample) record_sample_end(timer, timer.compute_end, compute);
        f.finish_step();
        return;
    }
    const int g = rows_begin(s), end = rows_end(s);
    const bool split = overlapped() && (s.neighbour[kBelow] >= 0 || s.neighbour[kAbove] >= 0);
    if (temporal() && split) { // the G rows each neighbour needs beside the strip's other rows, then they travel
        const int ghost = m_plan.ghost_depth; // G = R x depth: the rows each neighbour takes
        const int low = s.neighbour[kBelow] >= 0 ? std::min(g + ghost, end) : g;
        const int high = s.neighbour[kAbove] >= 0 ? std::max(low, end - ghost) : end;
        // A launch of G rows has a block per column of tiles, far too few to fill the GPU, and takes a fused launch's
        // whole pipeline: on the high-priority halo stream it runs beside the other rows instead of before them
        // (from where the previous launch ended: the compute stream waited for its trade). 2 GPUs, 2D R1 depth 6:
        // docs/PERFORMANCE.md "Two GPUs, temporal".
        cuda_check(cudaEventRecord(s.compute_ready, compute), "cudaEventRecord");
        cuda_check(cudaStreamWaitEvent(s.halo, s.compute_ready, 0), "cudaStreamWaitEvent");
        if (low > g) f.launch_temporal_rows(steps, g, low, s.halo);
        if (high < end) f.launch_temporal_rows(steps, high, end, s.halo);
        cuda_check(cudaEventRecord(s.boundary_done, s.halo), "cudaEventRecord");
        if (high > low) f.launch_temporal_rows(steps, low, high, compute);
    } else if (temporal()) { // the strip as a domain of its own: after `steps` steps its own rows are right
        f.launch_temporal(steps, compute);
    } else if (!split) {
        f.launch_star_rows(g, end, compute);
    } else { // the rows the neighbours need first, then the interior while they travel
        const int low = s.neighbour[kBelow] >= 0 ? std::min(2 * g, end) : g;
        const int high = s.neighbour[kAbove] >= 0 ? std::max(low, end - g) : end;
        if (low > g) f.launch_star_rows(g, low, compute);
        if (high < end) f.launch_star_rows(high, end, compute);
        cuda_check(cudaEventRecord(s.boundary_done, compute), "cudaEventRecord");
        if (high > low) f.launch_star_rows(low, high, compute);
    }
    if (sample) cuda_check(cudaEventRecord(timer.compute_end, compute), "cudaEventRecord");
    f.finish_step(steps);
    cudaStream_t exchange = overlapped() ? s.halo : compute;
    if (overlapped()) cuda_check(cudaStreamWaitEvent(exchange, s.boundary_done, 0), "cudaStreamWaitEvent");
    send(s, exchange, sample);
    m_workers->sync_point();
    receive(s, exchange, sample);
    if (overlapped()) {
        cuda_check(cudaEventRecord(s.received, exchange), "cudaEventRecord");
        cuda_check(cudaStreamWaitEvent(compute, s.received, 0), "cudaStreamWaitEvent");
    }
}

void MultiGpuSimulation::send(StripState& s, cudaStream_t stream, bool sample) {
    send_halo(s, timer_of(s), halo_rows(), stream, sample);
}

void MultiGpuSimulation::receive(StripState& s, cudaStream_t stream, bool sample) {
    receive_halo(s, m_strips, timer_of(s), halo_rows(), stream, sample);
}

// After inject: refresh every ghost copy of the current field, on the compute streams.
void MultiGpuSimulation::exchange_only() {
    if (m_plan.ghost_depth == 0) return;
    m_workers->run([&](int i) {
        StripState& s = m_strips[i];
        cuda_check(cudaSetDevice(s.field->device()), "cudaSetDevice");
        send(s, s.field->stream(), false);
        m_workers->sync_point();
        receive(s, s.field->stream(), false);
    });
}

void MultiGpuSimulation::join_into_first() {
    for (std::size_t i = 1; i < m_strips.size(); ++i) {
        set_device(i);
        cuda_check(cudaEventRecord(m_strips[i].joined, m_strips[i].field->stream()), "cudaEventRecord");
    }
    set_device(0);
    for (std::size_t i = 1; i < m_strips.size(); ++i)
        cuda_check(cudaStreamWaitEvent(first_stream(), m_strips[i].joined, 0), "cudaStreamWaitEvent");
}

std::unique_ptr<Simulation> create_multi_gpu_simulation(
    const StencilConfig& c, const StripPlan& strips, const std::vector<KernelPlan>& strip_kernels, std::string* why) {
    try {
        return std::make_unique<MultiGpuSimulation>(c, strips, strip_kernels);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        cudaGetLastError(); // clear a sticky-free error so the next configuration can start
        return nullptr;
    }
}

} // namespace ss