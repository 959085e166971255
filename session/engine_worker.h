// SPDX-License-Identifier: MIT
// The engine thread: owns the Simulation (and so the CUDA context and stream), steps it in batches
// and turns planes of the field into FieldFrames. Every method runs on the worker thread; the
// EngineController posts them there. Results leave as value structs through signals.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "gpu/backends/background_build.h"
#include "gpu/backends/kernel_prebuild.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/studies/auto_choice.h"
#include "session/engine_types.h"
#include "session/metrics_sampler.h"

#include <QElapsedTimer>
#include <QObject>

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

namespace ss::gui {

class EngineWorker : public QObject {
    Q_OBJECT
public:
    // `latest` is the newest generation the GUI has asked for: work for older ones is skipped.
    EngineWorker(DeviceCatalogue, std::shared_ptr<const std::atomic<std::uint64_t>> latest);
    ~EngineWorker() override;

    // `plan`: make_launch_plan of the settings' configuration, accepted on the GUI thread (Session::request).
    // Its kernels are built on a thread of their own first (while the running configuration keeps stepping and
    // drawing); the switch happens once they are built, unless a newer configuration came meanwhile.
    void configure(std::uint64_t generation, const RunSettings&, const LaunchPlan& plan);
    // Kernels to build ahead besides the running configuration's neighbours: a lesson's compared runs.
    void build_ahead(const std::vector<StencilConfig>& configs);
    void set_pacing(const Pacing&);
    void set_slice(const SliceSelection&);
    void set_playing(bool);
    void step_frame(); // one frame's worth of steps, also while paused
    void reset_field();
    void inject(std::uint64_t generation, int x, int y, int z, int radius_cells, double value);
    void set_device_frames(bool); // write frames into device staging (the GUI can map them into GL)
    void frame_consumed();
    // Profile one step every `interval_ms` while playing (hardware counters; see MetricsSampler).
    void set_metrics(bool on, int interval_ms);
    // A replayed profile (stall reasons, hit rates, occupancy) at the next step, beside continuous sampling.
    void take_detailed_profile();
    void shutdown(); // releases the simulation on this thread
    // Runs a long job here, pausing the live run: its state is saved and its memory freed first, then
    // restored. `cancel` is set by the GUI thread; the job stops after the candidate in progress.
    void run_job(const JobRequest&, const std::shared_ptr<const std::atomic<bool>>& cancel);
    // Variant auto's tune (session/engine_auto.cpp): its candidates timed with the live run paused as a job pauses
    // it (not at all when the cache answers), the choice sent back by auto_resolved; `cancel` stops it before the
    // next candidate.
    void resolve_auto(const AutoResolveRequest&, const std::shared_ptr<const std::atomic<bool>>& cancel);
    void set_auto_timer(AutoTimeFn timer) { m_auto_timer = std::move(timer); } // tests; null: on the device

signals:
    void ready(const ss::gui::EngineReady&);
    void failed(const ss::gui::EngineFailure&);
    void frame(const ss::gui::FieldFrame&);
    void stats(const ss::gui::EngineStats&);
    void metrics(const ss::gui::MetricsSample&);
    void continuous(const ss::gui::ContinuousChunk&); // emitted on the sampler's decode thread
    void job_progress(const ss::gui::JobProgress&);
    void job_finished(const ss::gui::JobOutcome&);
    void auto_progress(const ss::gui::AutoResolveProgress&);
    void auto_resolved(const ss::gui::AutoResolved&);

private:
    bool superseded() const { return m_latest->load() > m_generation; }
    // configure's switch to the new configuration, its kernels built (or nothing to build).
    void switch_to(std::uint64_t generation, const RunSettings&, const LaunchPlan& plan);
    // switch_to on one GPU keeping the field: the new simulation takes the running one's buffers on the device.
    // False when that does not apply; true when done, or refused with the running configuration going on.
    bool handed_over(std::uint64_t generation, const RunSettings&, const LaunchPlan& plan);
    void build_ahead_of_the_knobs(); // the running configuration's neighbours and m_ahead_extra, in the background
    void poll_build(); // the pending configuration's kernels built: switch to it
    void schedule();
    void tick();
    void run_batch(int steps);
    void queue_batch(int steps);
    void produce_frame(int queue_next_steps);
    bool produce_device_frame(FieldFrame&, int queue_next_steps);
    void retire_staging();
    void free_released_staging();
    std::vector<float> max_projection(int& width, int& height);
    void report_stats(bool force);
    void start_stats_window();
    void restart(std::uint64_t generation, bool reused_field);
    void profile_step();
    void report_metrics_unavailable();
    void fail(const std::string& why);
    // A new configuration failed: bring back the run that was going (or fail when there was none).
    void resume_previous(const std::optional<FieldState>& previous, const RunSettings& settings,
        long long iteration_base, const std::string& why);
    // "CPU (N threads)" or the catalogue's name of the configuration's device.
    std::string device_name(const StencilConfig& c) const;
    void run_autotune_job(const JobRequest&, const std::atomic<bool>& cancel, JobOutcome&,
        const std::vector<double>* live_field, const std::optional<std::pair<StencilConfig, BlockDims>>& live_block);
    void run_experiment_job(const JobRequest&, const std::atomic<bool>& cancel, JobOutcome&);
    // A job's pause: the live run drained, its whole state kept on the host (returned; none without a run) and its
    // device memory freed, so that the job measures an idle GPU. Throws when the state cannot be saved.
    std::optional<FieldState> pause_live_run();
    void resume_live_run(const std::optional<FieldState>&); // the paused run goes on (nothing when none was)

    const DeviceCatalogue m_catalogue;
    std::shared_ptr<const std::atomic<std::uint64_t>> m_latest;
    std::uint64_t m_generation = 0;
    std::unique_ptr<Simulation> m_sim;
    // The configuration whose kernels m_build is building; m_sim (an older generation) runs meanwhile.
    struct PendingConfiguration {
        std::uint64_t generation;
        RunSettings settings;
        LaunchPlan plan;
    };
    std::optional<PendingConfiguration> m_pending;
    bool m_build_poll_queued = false; // one poll timer at a time, however many requests arrive while building
    BackgroundBuild m_build;
    KernelPrebuild m_ahead; // the kernels one knob away, and m_ahead_extra, at the lowest priority
    std::vector<StencilConfig> m_ahead_extra;
    RunSettings m_settings;
    Pacing m_pacing;
    SliceSelection m_slice;
    bool m_playing = false;
    bool m_frame_wanted = true; // the GUI has shown the previous frame
    bool m_dirty = true; // the field changed since the last frame
    bool m_tick_pending = false;
    int m_steps_left = 0; // of the frame in progress (paced mode)
    int m_batch = 1; // steps per batch, adapted so a batch takes a few milliseconds
    std::optional<std::uint64_t> m_previous_batch; // the batch still running on the GPU, if any
    std::chrono::steady_clock::time_point m_batch_clock;
    bool m_have_batch_clock = false;
    long long m_iteration_base = 0; // iterations done by earlier simulations whose field carried over
    // When the newest configuration reached this thread, and where the time went since (sent with ready).
    std::chrono::steady_clock::time_point m_requested_at;
    SwitchTimes m_switch;

    AutoTimeFn m_auto_timer; // null: simulation_timer, on the device

    MetricsSampler m_sampler;
    int m_metrics_interval_ms = 250;

    bool m_device_frames = false;
    std::shared_ptr<DeviceSliceBuffers> m_staging;
    // Staging the GUI may still hold a frame of: freed on this thread once it lets go (retire_staging).
    std::vector<std::shared_ptr<DeviceSliceBuffers>> m_retired_staging;
    int m_next_slot = 0;

    QElapsedTimer m_window; // stats window
    long long m_window_steps = 0;
    double m_window_busy_ms = 0.0;
    double m_window_kernel_ms = 0.0; // the timed batches' own time (CUDA events; host time on the CPU)
    long long m_window_kernel_steps = 0;
    std::vector<double> m_window_launch_ms_per_step; // each timed launch's milliseconds over its steps (one GPU)
};

} // namespace ss::gui
