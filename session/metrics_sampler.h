// SPDX-License-Identifier: MIT
// The engine thread's hardware-metrics side: decides when a launch is due for profiling, profiles one
// simulation step through the CUPTI collectors — one per GPU of the run, nested (profile_devices) — never
// the display kernel, and turns the counters into a MetricsSample with the derived figures the panel
// shows, per GPU and for the whole run. Lives on the engine thread; not a QObject.
#pragma once

#include "session/engine_types.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ss {
class MetricsCollector;
}

namespace ss::gui {

class MetricsSampler {
public:
    explicit MetricsSampler(const DeviceCatalogue&);
    ~MetricsSampler();

    void set_enabled(bool on, int interval_ms);
    bool enabled() const { return m_enabled; }
    // A profile is due: metrics on, the simulation runs on a CUDA device, and since the last profile ended
    // the interval has passed and at least as long as that profile took. Kernel replay costs ~90 ms per
    // kernel launch on the H200, and a split step launches up to three per strip, so an 8192^2 step on
    // two GPUs took ~390 ms to profile: the wait keeps profiling to at most half the engine's time.
    bool due(const Simulation&) const;
    // Profiles one step of `sim` (the caller has drained the queue). Fills `out`; on failure `out` carries
    // the reason in `unavailable` and further profiling stays off until set_enabled is called again.
    void sample(Simulation& sim, std::uint64_t generation, long long iteration_base, MetricsSample& out);
    // Drops the collectors (another one may take the device); the next sample creates new ones.
    void release_collector() { m_collectors.clear(); }
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
    double device_peak_bytes_per_s(int device);

    const DeviceCatalogue& m_catalogue; // the engine thread's, which outlives this sampler
    bool m_enabled = false;
    bool m_broken = false; // a collector failed: wait for the user to switch metrics on again
    std::chrono::milliseconds m_interval { 250 };
    std::chrono::steady_clock::time_point m_last {}; // when the last profile ended
    std::chrono::steady_clock::duration m_last_cost {}; // how long its profiled step took
    std::chrono::steady_clock::time_point m_epoch = std::chrono::steady_clock::now();
    // One per device, created on the engine thread on first use and kept (collector.h: one per device).
    std::map<int, std::unique_ptr<MetricsCollector>> m_collectors;
    std::map<int, double> m_peak; // measured copy roofline per device, bytes/s
    // The whole run's verdict over the last few samples of one generation (one kernel), held against flips.
    VerdictSmoother m_verdict;
    std::uint64_t m_verdict_generation = 0;
};

} // namespace ss::gui
