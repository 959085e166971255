// SPDX-License-Identifier: MIT
#include "session/metrics_sampler.h"

#include "gpu/problem/cuda_support.h"
#include "gpu/problem/device.h"
#include "gpu/profiler/collector.h"
#include "gpu/profiler/pm_sampling_run.h"
#include "gpu/profiler/profile_procedure.h"
#include "reports/profile_report.h"
#include "reports/run_report.h"

#include <algorithm>
#include <cmath>

namespace ss::gui {
MetricsSampler::MetricsSampler(const DeviceCatalogue& catalogue)
    : m_catalogue(catalogue) { }
MetricsSampler::~MetricsSampler() {
    stop_continuous();
}

void MetricsSampler::set_enabled(bool on, int interval_ms) {
    m_enabled = on;
    m_broken = false;
    m_interval = std::chrono::milliseconds(std::max(interval_ms, 50));
    m_last = {};
    m_last_cost = {};
    m_detail_requested = false;
    if (!on) stop_continuous();
}

bool MetricsSampler::continuous() const {
    return m_run != nullptr;
}

bool MetricsSampler::due(const Simulation& sim) const {
    if (!m_enabled || m_broken || !precheck(sim.config()).empty()) return false;
    if (m_detail_requested) return true;
    // The process's first profile carries one-off costs (the device's ceilings, measured once per process, and
    // CUPTI's set-up): about 1.5 s on an H200. It runs at once, while the window is new, rather than at the first
    // pause of a student scrubbing a knob, which it would freeze (issue 40's soak, round 2). Later ones wait.
    if (m_profiled_once && std::chrono::steady_clock::now() - m_configured_at < kStandStill)
        return false; // the knobs may turn on
    if (m_run) // continuous sampling draws the charts: the replayed detail once per kernel, then rarely
        return m_last == std::chrono::steady_clock::time_point {}
        || std::chrono::steady_clock::now() - m_last >= kDetailInterval;
    return std::chrono::steady_clock::now() - m_last
        >= std::max<std::chrono::steady_clock::duration>(m_interval, m_last_cost);
}

std::string MetricsSampler::continuous_precheck(const StencilConfig& c) {
    if (c.placement.backend == Backend::Cpu)
        return "Hardware counters need a CUDA GPU; the CPU backend shows timing-based figures only.";
    if (std::string why = cupti_unavailable_reason(); !why.empty())
        return "Hardware counters need CUPTI: " + why + " Timing-based figures stay available.";
    return {};
}

void MetricsSampler::release_collector() {
    std::vector<int> devices;
    for (const auto& [device, collector] : m_collectors) devices.push_back(device);
    m_collectors.clear();
    for (int device : devices) release_range_profiler(device); // else PM sampling cannot start there
}

void MetricsSampler::stop_continuous() {
    if (!m_run) return;
    m_run->finish(); // the sink gets the last samples on this thread
    m_run.reset();
}

void MetricsSampler::continuous_off(const std::string& why) {
    stop_continuous();
    if (why == m_continuous_off) return; // said once
    m_continuous_off = why;
    ContinuousChunk c;
    c.generation = m_run_generation;
    c.active = false;
    c.note = why;
    if (m_sink) m_sink(std::move(c));
}

ContinuousChunk MetricsSampler::timed(PmChunk&& chunk) {
    ContinuousChunk c;
    c.generation = m_run_generation;
    c.device_name = m_catalogue.name_of(chunk.device);
    c.interval_ms = kContinuousIntervalNs / 1e6;
    const auto now = std::chrono::steady_clock::now();
    const double now_s = std::chrono::duration<double>(now - m_epoch).count();
    if (!m_anchored && !chunk.samples.empty()) {
        // Unix-epoch ns expected; a timer that is not (more than 10 s off) is anchored at its latest sample.
        const std::int64_t last = std::int64_t(chunk.samples.back().end_ns);
        if (std::abs(double(last - m_gpu_ns_at_epoch) * 1e-9 - now_s) > 10.0)
            m_gpu_ns_at_epoch = last - std::int64_t(now_s * 1e9);
        m_anchored = true;
    }
    for (const PmSample& s : chunk.samples)
        c.seconds.push_back(double(std::int64_t(s.end_ns) - m_gpu_ns_at_epoch) * 1e-9);
    c.chunk = std::move(chunk);
    return c;
}

namespace {
std::vector<int> sampled_devices(const StencilConfig& c) {
    std::vector<int> devices;
    for (const DeviceShare& share : device_shares(c))
        if (std::find(devices.begin(), devices.end(), share.device) == devices.end()) devices.push_back(share.device);
    return devices;
}
} // namespace

void MetricsSampler::follow(const Simulation* sim, std::uint64_t generation) {
    m_configured_at = std::chrono::steady_clock::now();
    m_broken = false; // a collector that failed on the previous kernel may work on this one
    m_detail_requested = false;
    m_last = {};
    m_last_cost = {};
    if (m_run && sim && m_enabled && sampled_devices(sim->config()) == m_run_devices
        && continuous_precheck(sim->config()).empty()) {
        m_run_generation = generation; // PM sampling watches the GPU, not a kernel: no stop, no restart
        return;
    }
    update_continuous(sim, generation);
}

void MetricsSampler::update_continuous(const Simulation* sim, std::uint64_t generation) {
    stop_continuous();
    m_run_generation = generation;
    if (!sim || !m_enabled) return;
    if (std::string why = continuous_precheck(sim->config()); !why.empty()) return continuous_off(why);
    const std::vector<int> devices = sampled_devices(sim->config());
    release_collector(); // a range profiler left enabled would keep PM sampling off the device
    const auto since_epoch = std::chrono::steady_clock::now() - m_epoch;
    m_gpu_ns_at_epoch = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::system_clock::now().time_since_epoch() - since_epoch)
                            .count();
    m_anchored = false;
    PmSamplerOptions options;
    options.interval_ns = kContinuousIntervalNs;
    options.image_samples = 400; // 10 decode periods of 40 samples: ~9 MB on the H100
    options.hardware_buffer_bytes = std::size_t(64) << 20;
    std::string why;
    m_run = PmSamplingRun::start(
        devices, options, kDecodePeriod,
        [this](PmChunk&& chunk) {
            if (m_sink) m_sink(timed(std::move(chunk)));
        },
        &why);
    if (!m_run)
        return continuous_off("Continuous counters are unavailable (" + why
            + "). The charts show replayed profiles instead, about four a second.");
    m_run_devices = devices;
    m_continuous_off.clear();
    ContinuousChunk announce; // it runs, and what it samples
    announce.generation = generation;
    announce.interval_ms = kContinuousIntervalNs / 1e6;
    announce.chunk.device = devices.front();
    announce.chunk.metrics = m_run->samplers().front()->metrics();
    if (m_sink) m_sink(std::move(announce));
}

std::string MetricsSampler::precheck(const StencilConfig& c) {
    if (c.placement.backend == Backend::Cpu)
        return "Hardware counters need a CUDA GPU; the CPU backend shows timing-based figures only.";
    // Runs on several GPUs are profiled too: the profiled step drains every GPU's streams first and runs the
    // strips one after another (MultiGpuSimulation::step_for_profiling), so no exchange lands beside a replayed
    // kernel; tests/gpu/split_counters_tests.cpp checks the field stays one GPU's, bitwise, on two GPUs.
    if (std::string why = cupti_unavailable_reason(); !why.empty())
        return "Hardware counters need CUPTI: " + why + " Timing-based figures stay available.";
    return {};
}

VerdictInputs MetricsSampler::verdict_inputs(const StencilConfig& c, const std::vector<GpuCounters>& gpus) {
    VerdictInputs in;
    in.ideal_bytes = double(updated_cells(c)) * ideal_bytes_per_cell(c);
    in.working_set_bytes = double(c.problem.size.cells()) * ideal_bytes_per_cell(c); // every buffer of the field
    for (const GpuCounters& g : gpus) {
        in.dram_peak_bytes_per_s += g.peak_bytes_per_s;
        in.l2_bytes += g.l2_bytes;
    }
    return in;
}

void MetricsSampler::derive(const StencilConfig& c, const std::vector<GpuCounters>& gpus, MetricsSample& out) {
    out.gpus.clear();
    std::vector<ProfiledLaunch> launches;
    for (const GpuCounters& g : gpus) {
        GpuMetricsSample& figures = out.gpus.emplace_back();
        figures.share = g.share;
        figures.device_name = g.device_name;
        figures.launch = g.launch;
        const ProfileTarget target { g.share, g.device_name, g.peak_bytes_per_s, {}, g.l2_bytes };
        figures.figures
            = profiled_figures(c, g.share.updated_cells, g.launch.metrics, target_verdict_inputs(c, target));
        launches.push_back(g.launch);
    }
    out.launch = launches.empty() ? ProfiledLaunch {} : combine_devices(launches);
    out.figures = profiled_figures(c, updated_cells(c), out.launch.metrics, verdict_inputs(c, gpus));
}

void MetricsSampler::sample(Simulation& sim, std::uint64_t generation, long long iteration_base, MetricsSample& out) {
    m_detail_requested = false;
    // PM sampling and the range profiler may not share a device: off the GPUs meanwhile, back afterwards.
    const bool continuous = m_run != nullptr;
    if (continuous) m_run->pause();
    const auto start = std::chrono::steady_clock::now();
    out.generation = generation;
    out.settings.config = sim.config();
    out.resources = sim.resources();
    out.timestamp = timestamp_now();
    out.seconds = std::chrono::duration<double>(start - m_epoch).count();
    profile(sim, iteration_base, out);
    m_profiled_once = true;
    m_last = std::chrono::steady_clock::now();
    if (!continuous) return;
    release_collector();
    std::string why;
    if (!m_run->resume(&why))
        continuous_off("Continuous counters could not restart after the detailed profile (" + why
            + "). The charts show replayed profiles instead, about four a second.");
}

void MetricsSampler::profile(Simulation& sim, long long iteration_base, MetricsSample& out) {
    const StencilConfig& c = sim.config();
    // The procedure `stencilscope-cli profile` follows too (profile_procedure.h), on this, the engine thread:
    // the rooflines (measured once per device and process), the collectors, one profiled launch, no warm-up
    // (the run is under way).
    const std::vector<ProfileTarget> targets = profile_targets(c, m_catalogue);
    std::string why;
    ProfiledStep step;
    const bool profiled = profile_one_launch(sim, targets, m_collectors, 0, &step, &why);
    m_last_cost = step.cost; // the profiled launch, not the one-off collector creation and rooflines
    if (!profiled) {
        m_broken = true;
        out.unavailable = why.empty() ? "GPU counters could not be read." : why;
        out.iteration = iteration_base + sim.iteration();
        return;
    }
    out.iteration = iteration_base + sim.iteration();
    std::vector<GpuCounters> gpus;
    for (std::size_t i = 0; i < targets.size(); ++i)
        gpus.push_back({ targets[i].share, targets[i].device_name, step.per_gpu[i], targets[i].peak_bytes_per_s,
            targets[i].l2_bytes });
    derive(c, gpus, out);
    if (out.generation != m_verdict_generation) { // another kernel: its own samples only
        m_verdict.reset();
        m_verdict_generation = out.generation;
    }
    out.figures.verdict = m_verdict.add(out.launch.metrics, verdict_inputs(c, gpus));
}

} // namespace ss::gui
