// SPDX-License-Identifier: MIT
// CudaSimulation's timed steps: CUDA events around the batch and after each of its first launches; a rank's waited
// step.
#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"
#include "gpu/backends/cuda/temporal_steps.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace ss {
namespace {
constexpr int kTimedLaunches = 64; // launches of one step() timed one by one (the rest only in the total)
} // namespace

double CudaSimulation::waited_step_ms() {
    const auto start = std::chrono::steady_clock::now();
    cuda_check(cudaSetDevice(device()), "cudaSetDevice");
    launch_step();
    finish_step();
    cuda_check(cudaStreamSynchronize(m_stream), "stencil step");
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

int CudaSimulation::queue_timed_launches(int n) {
    int launches = 0;
    auto end_of_launch = [&] {
        if (launches < kTimedLaunches) {
            if (std::size_t(launches) == m_launch_ends.size()) {
                cudaEvent_t e = nullptr;
                cuda_check(cudaEventCreate(&e), "cudaEventCreate");
                m_launch_ends.push_back(e);
            }
            cuda_check(cudaEventRecord(m_launch_ends[std::size_t(launches)], m_stream), "cudaEventRecord");
        }
        ++launches;
    };
    if (m_temporal) { // as TemporalSteps::queue: fused launches while depth steps remain, then single steps
        for (int done = 0; done < n;) {
            const bool fused = n - done >= m_temporal->depth();
            m_temporal->queue_launch(fused, m_in, m_out, m_stream);
            std::swap(m_in, m_out);
            done += fused ? m_temporal->depth() : 1;
            end_of_launch();
        }
        m_iteration += n;
        return launches;
    }
    for (int i = 0; i < n; ++i) {
        launch_step();
        finish_step();
        end_of_launch();
    }
    return launches;
}

StepTiming CudaSimulation::step(int n) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    // Several launches: held at a gate until all are queued, so the events time the kernels back to back.
    // One launch (what the profilers time: CUPTI replays it, and must not see the gate) goes straight in.
    const int depth = m_temporal ? std::max(m_temporal->depth(), 1) : 1;
    const bool gated = (n + depth - 1) / depth > 1 && m_gate.close(m_stream);
    cuda_check(cudaEventRecord(m_start, m_stream), "cudaEventRecord");
    const int launches = queue_timed_launches(n);
    cuda_check(cudaEventRecord(m_stop, m_stream), "cudaEventRecord");
    if (gated) m_gate.open();
    cuda_check(cudaEventSynchronize(m_stop), "stencil steps");
    StepTiming t;
    float ms = 0.0f;
    cuda_check(cudaEventElapsedTime(&ms, m_start, m_stop), "cudaEventElapsedTime");
    t.milliseconds = double(ms);
    t.steps = n;
    if (n % depth != 0) return t; // a mix of fused and single launches: the total only
    t.steps_per_launch = depth;
    cudaEvent_t previous = m_start;
    for (int i = 0; i < std::min(launches, kTimedLaunches); ++i) {
        cuda_check(cudaEventElapsedTime(&ms, previous, m_launch_ends[std::size_t(i)]), "cudaEventElapsedTime");
        t.launch_ms.push_back(ms);
        previous = m_launch_ends[std::size_t(i)];
    }
    return t;
}

} // namespace ss
