// SPDX-License-Identifier: MIT
// The engine thread's hardware-metrics side, two sources:
// - continuous: CUPTI PM sampling on every GPU of the run (pm_sampling_run.h) while it runs, no replay;
//   its decode thread hands ContinuousChunks to a sink (the worker's queued signal). On by default with
//   counters on; where it cannot start, the replayed profile stands in at its old rate and a chunk says why.
// - replayed detail: decides when a launch is due, profiles one simulation step through the CUPTI
//   collectors — one per GPU of the run, nested (profile_devices) — never the display kernel, and turns
//   the counters into a MetricsSample with the derived figures the panel shows, per GPU and for the whole
//   run. Beside continuous sampling it runs once per kernel, every kDetailInterval and on request;
//   continuous sampling is taken off the GPUs around it (the two may not share a device).
// Lives on the engine thread (the sink is called on the decode thread); not a QObject.
#pragma once

#include "session/engine_types.h"
#include "session/metrics_history.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ss {
class MetricsCollector;
class PmSamplingRun;
} // namespace ss

namespace ss::gui {

class MetricsSampler {
public:
    explicit MetricsSampler(const DeviceCatalogue&);
    ~MetricsSampler();

    // Replayed detail beside continuous sampling: once per kernel, then this often, and on request.
    static constexpr std::chrono::seconds kDetailInterval { 120 };
    static constexpr std::uint64_t kContinuousIntervalNs = 1'000'000; // 1 ms between samples
    static constexpr std::chrono::milliseconds kDecodePeriod { 40 }; // ~25 chunks/s per GPU
    // A replayed profile costs ~90 ms a launch and pauses the picture: it waits until the knobs have left a
    // configuration alone this long (issue 40). Continuous sampling follows every change at once.
    static constexpr std::chrono::milliseconds kStandStill { 750 };

    void set_enabled(bool on, int interval_ms);
    bool enabled() const { return m_enabled; }
    using ContinuousSink = std::function<void(ContinuousChunk&&)>;
    void set_continuous_sink(ContinuousSink sink) { m_sink = std::move(sink); }
    // Starts continuous sampling on `sim`'s GPUs for `generation` (stopping what ran before), or only
    // stops it when counters are off or `sim` is null. A failure sends one chunk saying why.
    void update_continuous(const Simulation* sim, std::uint64_t generation);
    // A new configuration runs: the replayed detail waits for kStandStill, and continuous sampling goes on across
    // the change when it samples the same GPUs (its samples carry the new generation from now on), else restarts.
    void follow(const Simulation* sim, std::uint64_t generation);
    void stop_continuous();
    bool continuous() const;
    void request_detail() { m_detail_requested = true; }
    // Why continuous sampling cannot run for this configuration before trying, else empty.
    static std::string continuous_precheck(const StencilConfig&);
    // A profile is due: metrics on, the simulation runs on a CUDA device, and since the last profile ended
    // the interval has passed and at least as long as that profile took. Kernel replay costs ~90 ms per
    // kernel launch on the H200, and a split step launches up to three per strip, so an 8192^2 step on
    // two GPUs took ~390 ms to profile: the wait keeps profiling to at most half the engine's time.
    bool due(const Simulation&) const;
    // Profiles one step of `sim` (the caller has drained the queue). Fills `out`; on failure `out` carries
    // the reason in `unavailable` and further profiling stays off until set_enabled is called again.
    void sample(Simulation& sim, std::uint64_t generation, long long iteration_base, MetricsSample& out);
    // Drops the collectors (another one may take the device); the next sample creates new ones.
    void release_collector();
    // Why counters cannot be read for this configuration before trying (CPU backend), else empty.
    static std::string precheck(const StencilConfig&);

    // What one GPU's collector read, with what the figures need to know about that GPU.
    struct GpuCounters {
        DeviceShare share;
        std::string device_name;
        ProfiledLaunch launch;
        double peak_bytes_per_s = 0.0; // its measured copy roofline; 0: unknown
        double l2_bytes = 0.0; // its L2 cache; 0: unknown
    };
    // The derived figures of `out` (per GPU and the whole run) from the counters of each GPU, in strip
    // order. No GPU needed: the panel's tests feed it synthetic counters.
    static void derive(const StencilConfig&, const std::vector<GpuCounters>&, MetricsSample& out);
    // What the whole run's verdict is judged against: the GPUs' rooflines and L2s together, the field's bytes.
    static VerdictInputs verdict_inputs(const StencilConfig&, const std::vector<GpuCounters>&);

private:
    void profile(Simulation& sim, long long iteration_base, MetricsSample& out);
    void continuous_off(const std::string& why); // falls back to the replayed profile and says so, once
    ContinuousChunk timed(PmChunk&& chunk); // on the decode thread: the samples' times on m_epoch's axis

    const DeviceCatalogue& m_catalogue; // the engine thread's, which outlives this sampler
    ContinuousSink m_sink;
    std::unique_ptr<PmSamplingRun> m_run; // continuous sampling while it runs
    std::atomic<std::uint64_t> m_run_generation { 0 }; // read on the decode thread
    std::vector<int> m_run_devices; // what m_run samples
    std::chrono::steady_clock::time_point m_configured_at {}; // when the running configuration started
    std::string m_continuous_off; // why continuous sampling is off for this kernel (said once)
    bool m_detail_requested = false;
    bool m_profiled_once = false; // this process's first profile (rooflines, CUPTI set-up) has run
    // GPU global-timer ns at m_epoch (the timer counts Unix-epoch ns on Linux; re-anchored if it does not)
    std::int64_t m_gpu_ns_at_epoch = 0;
    bool m_anchored = false;
    bool m_enabled = false;
    bool m_broken = false; // a collector failed: wait for the user to switch metrics on again
    std::chrono::milliseconds m_interval { 250 };
    std::chrono::steady_clock::time_point m_last {}; // when the last profile ended
    std::chrono::steady_clock::duration m_last_cost {}; // how long its profiled step took
    std::chrono::steady_clock::time_point m_epoch = std::chrono::steady_clock::now();
    // One per device, created on the engine thread on first use and kept (collector.h: one per device).
    std::map<int, std::unique_ptr<MetricsCollector>> m_collectors; // CollectorsByDevice
    // The whole run's verdict over the last few samples of one generation (one kernel), held against flips.
    VerdictSmoother m_verdict;
    std::uint64_t m_verdict_generation = 0;
};

} // namespace ss::gui
