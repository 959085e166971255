// SPDX-License-Identifier: MIT
// Plain value structs that cross between the engine thread and the GUI thread through queued
// signals. Each result carries the generation of the request it answers, so stale ones can be dropped.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/config.h"
#include "gpu/problem/physics.h"
#include "gpu/profiler/collector.h"
#include "gpu/profiler/launch_figures.h"
#include "gpu/studies/autotune.h"
#include "gpu/studies/experiments.h"
#include "gpu/studies/kernel_exercise.h"
#include "session/value_range.h"

#include <QMetaType>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ss {
class DeviceSliceBuffers;
}

namespace ss::gui {

// What the engine computes: changing any of it re-initialises the simulation.
struct RunSettings {
    StencilConfig config;
    bool operator==(const RunSettings&) const = default;
};

// How the engine paces itself against the display. 0 steps per frame: run free, as fast as it can.
struct Pacing {
    int steps_per_frame = 10;
    // While running on the device path, frames carry at most this many texels per side (k x k cells
    // averaged on the GPU): a live view needs no more, and big frames cost compute. 0: full resolution.
    // A paused view always shows full resolution, so exports are at field resolution.
    int display_max = 1024;
    bool free_running() const { return steps_per_frame <= 0; }
};

// Which plane of the field is shown.
struct SliceSelection {
    SliceAxis axis = SliceAxis::XY;
    int index = 0;
    bool max_projection = false; // 3D: the maximum along the axis instead of one plane
    bool operator==(const SliceSelection&) const = default;
};

// One displayable plane: floats on the host, or a slot of device staging (the interop path).
struct FieldFrame {
    std::uint64_t generation = 0;
    long long iteration = 0;
    int width = 0, height = 0; // texels in this frame
    int field_width = 0, field_height = 0; // cells of the plane (width x cells_per_texel, rounded up)
    int cells_per_texel = 1;
    SliceSelection slice;
    ValueRange measured; // min/max of the values (sampled on the device path)
    std::shared_ptr<const std::vector<float>> host; // null on the device path
    std::shared_ptr<DeviceSliceBuffers> device; // keeps the staging alive while the GUI copies
    int device_slot = -1;
    // When the engine thread handed the frame over: the soak tells the engine's part of a knob's latency from the
    // window's (issue 40).
    std::chrono::steady_clock::time_point sent_at {};
    bool on_device() const { return device && device_slot >= 0; }
};

// Where the engine thread's time went between a configuration's request and its ready (issue 40: a turned knob
// must show its kernel within a frame). Milliseconds of the engine thread's clock.
struct SwitchTimes {
    double build_wait_ms = 0.0; // the kernels built on the background thread while the old run went on
    double save_ms = 0.0; // the running field saved to the host (or moved, when only the kernel changes)
    double create_ms = 0.0; // the new simulation created: buffers, modules, the plan's checks
    double upload_ms = 0.0; // the field uploaded to it
    double total_ms = 0.0; // from the request reaching the engine thread to ready
};

// Sent once a simulation is ready to run.
struct EngineReady {
    std::uint64_t generation = 0;
    RunSettings settings;
    KernelResources resources;
    std::string device_name;
    bool reused_field = false; // the field carried over from the previous configuration
    SwitchTimes switch_times;
};

struct EngineFailure {
    std::uint64_t generation = 0;
    std::string reason;
    bool previous_run_continues = false; // the new setup failed; the one before runs on (ready came first)
};

// Throughput over the last measuring window (about half a second). Two kinds of figure: the kernel's
// own rate (`kernel_*`: one batch per window timed with CUDA events around its launches; on the CPU
// backend the host time of the steps themselves) is what a variant is worth, and the headline; the
// display cadence (`steps_per_second` and the busy-time figures) is paced by the frames and the window.
struct EngineStats {
    std::uint64_t generation = 0;
    long long iteration = 0;
    double kernel_ms_per_step = 0.0; // 0: no timed batch in this window yet
    double kernel_gcells_per_second = 0.0;
    double kernel_gbytes_per_second = 0.0; // the ideal bytes a step must move, per second of kernel time
    int kernel_timed_steps = 0; // the steps the kernel figures cover
    double steps_per_second = 0.0; // wall clock: steps done over the window's length (display cadence)
    double ms_per_step = 0.0; // the engine thread's busy time per step (batch periods, frames included)
    double gcells_per_second = 0.0; // over that busy time
    double gbytes_per_second = 0.0; // the ideal bytes a step must move, per second of busy time
    int batch_steps = 0; // steps the engine queues at once, adapted to a few milliseconds of GPU work
    int kernels_building_ahead = 0; // configurations one knob away whose kernels are still to be built
    MultiGpuStats strips; // per GPU, and the halo exchange (one untimed strip on a single GPU)
};

// One GPU's counters of a profiled launch, with the figures the panel derives from them (the same
// names as MetricsSample's whole-run figures).
struct GpuMetricsSample {
    DeviceShare share; // the device, its strips (several with the testing hook: counted together), rows, cells
    std::string device_name;
    ProfiledLaunch launch;
    LaunchFigures figures; // over its updated cells, against its own copy roofline
};

// One profiled launch with what the panel derives from it. `unavailable` non-empty: no counters, and why.
// The top-level figures are the whole run's. On a split run (combine_devices): the bytes and cells of
// every GPU over the slowest GPU's duration, stall ratios weighted by each GPU's duration, the verdict
// against the sum of the GPUs' copy rooflines. `gpus` has one entry per GPU (a single GPU's equals the
// top level).
struct MetricsSample {
    std::uint64_t generation = 0;
    long long iteration = 0;
    double seconds = 0.0; // since the engine thread started: the time axis of the charts
    std::string timestamp; // UTC, ISO 8601
    RunSettings settings;
    KernelResources resources;
    std::string device_name;
    ProfiledLaunch launch;
    LaunchFigures figures; // split: the roofline is the GPUs' together
    std::vector<GpuMetricsSample> gpus; // in strip order
    std::string unavailable;
    bool ok() const { return unavailable.empty(); }
};

// One of a lesson's compared configurations (a predict exercise, session/lesson_exercises.h): asked with its
// label and configuration, answered measured as autotune measures, with its kernel's resources, or refused.
struct ComparedRun {
    std::string label;
    StencilConfig config;
    double ms_per_step = 0.0, gcells_per_s = 0.0;
    KernelResources resources;
    std::string error; // refused or failed
};

// Long work on the engine thread (RenderDoc's replay thread takes such jobs too): an autotune of one
// configuration, an experiment sweep, a lesson's compared runs, or a student's kernel (issue 38). The live
// run pauses meanwhile and resumes afterwards.
struct JobRequest {
    enum class Kind { Autotune, Experiment, Compare, KernelExercise } kind = Kind::Autotune;
    std::uint64_t id = 0;
    StencilConfig config; // Autotune: the configuration whose block is searched
    int steps = 8, repeats = 3; // Autotune: per timed run, timed runs per candidate
    bool use_cache = true; // Autotune: reuse a stored search of the same (device, configuration)
    ExperimentSpec experiment; // Experiment
    std::vector<ComparedRun> compare; // Compare: the labels and configurations to measure
    std::string kernel_text; // KernelExercise: the student's text (config: exercise_config's)
};

// Variant auto (gpu/studies/auto_choice.h) resolved on the engine thread: the request (variant auto) goes in, the
// concrete configuration it chose and why come back, or why nothing was chosen (the previous run goes on).
struct AutoResolveRequest {
    std::uint64_t id = 0; // the Session's: a newer request supersedes this one
    RunSettings settings; // variant auto
};

struct AutoResolveProgress {
    std::uint64_t id = 0;
    int done = 0, total = 0; // the candidate about to be timed is done + 1 of total
    std::string label; // "temporal depth 6, 256x1x1, CF 1"
};

struct AutoResolved {
    std::uint64_t id = 0;
    StencilConfig chosen; // concrete when `error` is empty
    std::string reason; // "auto: temporal depth 6, ... fastest of 7 ..." (choose_auto's)
    std::string error; // nothing was chosen: no candidate ran, or the tune was cancelled
    bool from_cache = false;
    int candidates = 0;
    std::string warning; // worth saying, not a failure: the tune could not be stored in the cache
};

struct JobProgress {
    std::uint64_t id = 0;
    int done = 0, total = 0;
    std::string what;
    bool has_candidate = false; // Autotune: `candidate` is the result just measured
    AutotuneResult candidate;
    // Autotune, in the first report (done == 0): the candidates in search order and the heuristic's block.
    std::vector<BlockDims> space;
    std::optional<BlockDims> heuristic;
    // Experiment: the point measured just before this report, if any (charted as it arrives).
    std::optional<ExperimentPoint> point;
};

struct JobOutcome {
    std::uint64_t id = 0;
    JobRequest request;
    bool cancelled = false;
    std::string error; // the job could not run at all
    std::vector<AutotuneResult> candidates; // Autotune, in space order
    BlockDims heuristic; // Autotune: the heuristic's block for the configuration (for the heatmap's mark)
    bool from_cache = false;
    std::string cached_at; // when the cached search was stored
    std::string device_name;
    std::vector<ExperimentPoint> points; // Experiment
    std::vector<ComparedRun> compared; // Compare, in the request's order
    std::optional<KernelExerciseResult> exercise; // KernelExercise
    std::vector<std::string> warnings; // worth saying, not failures: counters unavailable, cache not writable
};

} // namespace ss::gui

Q_DECLARE_METATYPE(ss::gui::AutoResolveProgress)
Q_DECLARE_METATYPE(ss::gui::AutoResolved)
Q_DECLARE_METATYPE(ss::gui::JobProgress)
Q_DECLARE_METATYPE(ss::gui::JobOutcome)
Q_DECLARE_METATYPE(ss::gui::MetricsSample)
Q_DECLARE_METATYPE(ss::gui::FieldFrame)
Q_DECLARE_METATYPE(ss::gui::EngineReady)
Q_DECLARE_METATYPE(ss::gui::EngineFailure)
Q_DECLARE_METATYPE(ss::gui::EngineStats)
