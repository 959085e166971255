// SPDX-License-Identifier: MIT
// The multi-GPU strips under the profiler and in the statistics: the profiled step runs the strips one after
// another, and the sampled step's timers become each strip's compute and exchange times.
#include "gpu/backends/cuda/multi_gpu_simulation_class.h"

namespace ss {

// Strips one after another, each waited for, then the exchanges: nothing runs beside a replayed kernel. Kernel replay
// restores the profiled GPU's memory between passes, so whatever else is still in flight is drained first: a batch's
// last exchange (halo streams), a display copy.
void MultiGpuSimulation::step_for_profiling(int n) {
    synchronize();
    for (int done = 0, k = 0; done < n; done += k, m_iteration += k) {
        k = launch_steps(n - done);
        on_each_strip([&](StripState& s) {
            CudaSimulation& f = *s.field;
            if (temporal())
                f.launch_temporal(k, f.stream());
            else
                m_plan.ghost_depth == 0 ? f.launch_step() : f.launch_star_rows(rows_begin(s), rows_end(s), f.stream());
            f.finish_step(k);
            f.synchronize();
        });
        if (m_plan.ghost_depth == 0) continue;
        on_each_strip([&](StripState& s) { send(s, s.field->stream(), false); });
        on_each_strip([&](StripState& s) { receive(s, s.field->stream(), false); });
        synchronize();
    }
    set_device(0);
}

MultiGpuStats MultiGpuSimulation::multi_gpu_stats() const {
    harvest_timers();
    return strip_stats(m_config, m_strips, m_timers, halo_rows(), overlapped(), m_timed);
}

void MultiGpuSimulation::harvest_timers() const {
    for (std::size_t i = 0; i < m_strips.size(); ++i)
        if (harvest_strip_timer(m_strips[i], m_timers[i])) m_timed = true;
}

} // namespace ss
