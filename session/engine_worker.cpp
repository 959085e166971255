// SPDX-License-Identifier: MIT
#include "session/engine_worker.h"
#include "gpu/backends/create_simulation.h"

#include "gpu/backends/gl_interop.h"
#include "gpu/problem/rates.h"
#include "gpu/studies/autotune_cache.h"

#include <QTimer>

#include <stdexcept>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace ss::gui {
namespace {

constexpr double kBatchTargetMs = 6.0; // short enough that knob changes are picked up promptly
constexpr qint64 kStatsWindowMs = 500;
// GPU time, per stats window, that the kernel's own rate averages at least: one short timed batch (a run's first
// batches are a step or two) is dominated by launch latency and clocks still ramping up.
constexpr double kMinTimedKernelMs = 2.0;

// Steps a batch runs: whole launches. The temporal variant fuses `depth` steps per launch, and a batch that is not
// a multiple of it ends in one-step launches, which are neither the kernel the user chose nor its speed (a lesson
// at depth 9 and 18 steps per frame ran mostly one-step launches and showed a third of bench's rate).
int whole_launches(int steps, const Simulation& sim) {
    const int unit = std::max(1, fused_steps(sim.config().policy));
    return unit == 1 ? steps : std::max(unit, steps - steps % unit);
}

double lower_quartile_of(std::vector<double> values) {
    const auto at = values.begin() + std::ptrdiff_t(values.size() / 4);
    std::nth_element(values.begin(), at, values.end());
    return *at;
}

} // namespace

EngineWorker::EngineWorker(DeviceCatalogue catalogue, std::shared_ptr<const std::atomic<std::uint64_t>> latest)
    : m_catalogue(std::move(catalogue))
    , m_latest(std::move(latest))
    , m_ahead(m_catalogue)
    , m_sampler(m_catalogue) {
    // Called on the sampler's decode thread: the signal is queued to the GUI thread.
    m_sampler.set_continuous_sink([this](ContinuousChunk&& c) { emit continuous(c); });
}

EngineWorker::~EngineWorker() = default;

void EngineWorker::set_pacing(const Pacing& pacing) {
    m_pacing = pacing;
    m_steps_left = std::min(m_steps_left, std::max(pacing.steps_per_frame, 0));
    schedule();
}

void EngineWorker::set_slice(const SliceSelection& slice) {
    if (slice == m_slice) return;
    m_slice = slice;
    m_dirty = true;
    schedule();
}

void EngineWorker::set_playing(bool playing) {
    m_playing = playing;
    if (!playing) {
        report_stats(true);
        m_dirty = true; // a paused view gets a full-resolution frame (exports are at field resolution)
    }
    start_stats_window();
    schedule();
}

// A new statistics window: no figure of the run before it is averaged into the next one.
void EngineWorker::start_stats_window() {
    m_window.start();
    m_window_steps = 0;
    m_window_busy_ms = 0.0;
    m_window_kernel_ms = 0.0;
    m_window_kernel_steps = 0;
    m_window_launch_ms_per_step.clear();
}

void EngineWorker::step_frame() {
    m_steps_left += std::max(m_pacing.steps_per_frame, 1);
    schedule();
}

void EngineWorker::reset_field() {
    if (!m_sim) return;
    try {
        m_sim->upload(initial_field(m_settings.config));
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    m_iteration_base = 0;
    m_steps_left = 0;
    m_dirty = true;
    schedule();
}

void EngineWorker::inject(std::uint64_t generation, int x, int y, int z, int radius_cells, double value) {
    if (!m_sim || generation != m_generation) return; // the click was on an older field
    try {
        m_sim->inject(x, y, z, radius_cells, value);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    m_dirty = true;
    schedule();
}

void EngineWorker::set_device_frames(bool on) {
    m_device_frames = on;
    if (!on) retire_staging();
    m_dirty = true;
    schedule();
}

void EngineWorker::frame_consumed() {
    m_frame_wanted = true;
    schedule();
}

void EngineWorker::set_metrics(bool on, int interval_ms) {
    m_metrics_interval_ms = interval_ms;
    m_sampler.set_enabled(on, interval_ms);
    m_sampler.update_continuous(on ? m_sim.get() : nullptr, m_generation);
    if (on) report_metrics_unavailable();
    schedule();
}

void EngineWorker::take_detailed_profile() {
    m_sampler.request_detail();
    schedule();
}

void EngineWorker::report_metrics_unavailable() {
    if (!m_sim || !m_sampler.enabled()) return;
    const std::string why = MetricsSampler::precheck(m_sim->config());
    if (why.empty()) return;
    MetricsSample s;
    s.generation = m_generation;
    s.settings = m_settings;
    s.unavailable = why;
    emit metrics(s);
}

// Drains the queue first, so that only this step's kernels are inside the profiled window: never a
// display copy or a batch still in flight.
void EngineWorker::profile_step() {
    if (m_previous_batch) m_sim->wait_marker(*m_previous_batch);
    m_previous_batch.reset();
    MetricsSample s;
    m_sampler.sample(*m_sim, m_generation, m_iteration_base, s);
    // A split run times each strip on the last step it ran, and the profiled step's time was its kernel
    // replays (~0.4 s on two H200s): one plain step takes that sample again for the per-GPU table.
    if (s.ok() && strip_count(m_sim->config().placement) > 1) m_sim->step(1);
    s.settings = m_settings;
    s.device_name = device_name(m_settings.config);
    m_have_batch_clock = false; // the replays are not part of the next batch period
    m_dirty = true;
    emit metrics(s);
}

void EngineWorker::shutdown() {
    m_pending.reset();
    m_sampler.stop_continuous();
    m_sim.reset();
    m_staging.reset();
    m_retired_staging.clear();
}

void EngineWorker::schedule() {
    if (m_tick_pending) return;
    m_tick_pending = true;
    QTimer::singleShot(0, this, [this] {
        m_tick_pending = false;
        tick();
    });
}

// One unit of work, then back to the event loop so queued knob changes run in between. A wanted frame
// is taken first (it waits for the batch in flight), then the next batch is queued, so the GPU only
// idles for the frame's own short copy.
void EngineWorker::tick() {
    // While the newest configuration's kernels build, the running one goes on stepping and drawing.
    free_released_staging();
    if (!m_sim || (superseded() && !m_pending)) return;
    const bool free = m_pacing.free_running();
    try {
        if (m_dirty && m_frame_wanted && (free || m_steps_left == 0))
            produce_frame(m_playing && free ? whole_launches(m_batch, *m_sim) : 0);
        if (m_playing && !free && m_steps_left == 0 && m_frame_wanted) m_steps_left = m_pacing.steps_per_frame;
        const bool compute = (m_playing && free) || m_steps_left > 0;
        if (compute && m_playing && m_sampler.due(*m_sim)) profile_step();
        if (compute) {
            const int n = whole_launches(free ? m_batch : std::min(m_steps_left, m_batch), *m_sim);
            run_batch(n);
            if (m_steps_left > 0) m_steps_left -= std::min(n, m_steps_left);
        } else if (m_previous_batch) {
            m_sim->wait_marker(*m_previous_batch); // paused or done: let the last batch finish
            m_previous_batch.reset();
            if (m_dirty && m_frame_wanted) produce_frame(0);
        }
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    report_stats(false);
    const bool more = m_steps_left > 0 || (m_playing && (free || m_frame_wanted)) || (m_dirty && m_frame_wanted)
        || m_previous_batch.has_value();
    if (more) schedule();
}

void EngineWorker::queue_batch(int steps) {
    m_sim->step_async(steps);
    m_previous_batch = m_sim->enqueue_marker();
    m_window_steps += steps;
    m_dirty = true;
}

void EngineWorker::run_batch(int steps) {
    // Keep one batch queued ahead: wait for the previous batch, not this one.
    const std::optional<std::uint64_t> previous = m_previous_batch;
    // The kernel's own rate: the first batches of each stats window, until they hold kMinTimedKernelMs of GPU time,
    // run through step(), timed with CUDA events around their launches (the CPU backend times every batch: its steps
    // run here anyway). Only those batches drain the queue; the others stay pipelined.
    if (m_window_kernel_ms < kMinTimedKernelMs || m_sim->config().placement.backend == Backend::Cpu) {
        const StepTiming timed = m_sim->step(steps);
        m_window_kernel_ms += timed.milliseconds;
        m_window_kernel_steps += timed.steps;
        for (const float ms : timed.launch_ms) m_window_launch_ms_per_step.push_back(ms / timed.steps_per_launch);
        m_previous_batch = m_sim->enqueue_marker();
        m_window_steps += steps;
        m_dirty = true;
    } else {
        queue_batch(steps);
    }
    if (previous) m_sim->wait_marker(*previous);
    // The batch period: time between successive returns here, about one batch of GPU work.
    const auto now = std::chrono::steady_clock::now();
    const double ms = m_have_batch_clock ? std::chrono::duration<double, std::milli>(now - m_batch_clock).count() : 0.0;
    m_batch_clock = now;
    m_have_batch_clock = true;
    m_window_busy_ms += ms;
    if (ms > 0 && ms < kBatchTargetMs / 2 && m_batch < (1 << 20))
        m_batch *= 2;
    else if (ms > kBatchTargetMs * 2 && m_batch > 1)
        m_batch /= 2;
}

void EngineWorker::report_stats(bool force) {
    if (!m_sim || (!force && m_window.elapsed() < kStatsWindowMs)) return;
    const double seconds = std::max(m_window.elapsed(), qint64(1)) / 1000.0;
    EngineStats s;
    s.generation = m_generation;
    s.iteration = m_iteration_base + m_sim->iteration();
    s.batch_steps = m_batch;
    s.kernels_building_ahead = m_ahead.pending();
    if (m_window_steps > 0 && m_window_busy_ms > 0.0) {
        const StencilConfig& c = m_sim->config();
        s.steps_per_second = m_window_steps / seconds;
        s.ms_per_step = m_window_busy_ms / m_window_steps;
        s.gcells_per_second = gcells_per_second(double(updated_cells(c)), double(m_window_steps), m_window_busy_ms);
        s.gbytes_per_second = s.gcells_per_second * ideal_bytes_per_cell(c) / fused_steps(c.policy);
    }
    if (m_window_kernel_steps > 0 && m_window_kernel_ms > 0.0) {
        const StencilConfig& c = m_sim->config();
        s.kernel_timed_steps = int(m_window_kernel_steps);
        // The lower quartile of the launches where they were timed one by one: a launch that shared the GPU with the
        // window's GL frame (another context, time-sliced) reads slow, never fast. The mean let that show (4096² R4
        // read 191 or 165 against bench's 191, run to run); the median too where few launches make a window: the
        // temporal lesson's two launches a frame read 438.6 GCells/s in its 300-frame picture against 997 profiled
        // (H200, 2026-11-27).
        s.kernel_ms_per_step = m_window_launch_ms_per_step.empty() ? m_window_kernel_ms / double(m_window_kernel_steps)
                                                                   : lower_quartile_of(m_window_launch_ms_per_step);
        s.kernel_gcells_per_second = gcells_per_second(double(updated_cells(c)), 1, s.kernel_ms_per_step);
        s.kernel_gbytes_per_second = s.kernel_gcells_per_second * ideal_bytes_per_cell(c) / fused_steps(c.policy);
    }
    if (strip_count(m_sim->config().placement) > 1) {
        try {
            s.strips = m_sim->multi_gpu_stats();
        } catch (const std::exception& e) {
            return fail(e.what()); // nothing may propagate into Qt's event loop
        }
    }
    emit stats(s);
    start_stats_window();
}

std::string EngineWorker::device_name(const StencilConfig& c) const {
    if (c.placement.backend == Backend::Cpu)
        return "CPU (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
    return m_catalogue.name_of(c.placement.device);
}

void EngineWorker::fail(const std::string& why) {
    m_sim.reset();
    retire_staging();
    emit failed({ m_generation, why });
}

} // namespace ss::gui
