// SPDX-License-Identifier: MIT
#include "session/metrics_sampler.h"

#include "gpu/bandwidth.h"
#include "gpu/cuda_support.h"
#include "gpu/device.h"
#include "gpu/profiler/collector.h"
#include "reports/profile_report.h"
#include "reports/run_report.h"

namespace ss::gui {
namespace {

constexpr std::int64_t kRooflineBytes = 256ll << 20; // enough to stream past the L2, quick to copy

} // namespace

MetricsSampler::MetricsSampler(const DeviceCatalogue& catalogue)
    : m_catalogue(catalogue) { }
MetricsSampler::~MetricsSampler() = default;

void MetricsSampler::set_enabled(bool on, int interval_ms) {
    m_enabled = on;
    m_broken = false;
    m_interval = std::chrono::milliseconds(std::max(interval_ms, 50));
    m_last = {};
    m_last_cost = {};
}

bool MetricsSampler::due(const Simulation& sim) const {
    if (!m_enabled || m_broken || !precheck(sim.config()).empty()) return false;
    return std::chrono::steady_clock::now() - m_last
        >= std::max<std::chrono::steady_clock::duration>(m_interval, m_last_cost);
}

std::string MetricsSampler::precheck(const StencilConfig& c) {
    if (c.placement.backend == Backend::Cpu)
        return "Hardware counters need a CUDA GPU; the CPU backend shows timing-based figures only.";
    // On two H200s (2026-11-24) a profiled step of a 2-GPU run left a wrong field behind (copy and remote
    // halo modes; counters off, the same run verifies): CUPTI replays one GPU's launch while the other
    // GPU exchanges rows with it. Off until that is understood, rather than a picture that misleads.
    if (c.placement.gpus > 1)
        return "Hardware counters are off for runs on 2 or more GPUs: profiling one GPU's launch while the other "
               "exchanges rows with it corrupted the field (docs/PERFORMANCE.md, two H200s). Timing-based figures "
               "stay available; profile one GPU, or use stencilscope-cli profile.";
    if (std::string why = cupti_unavailable_reason(); !why.empty())
        return "Hardware counters need CUPTI: " + why + " Timing-based figures stay available.";
    return {};
}

double MetricsSampler::device_peak_bytes_per_s(int device) {
    if (const auto it = m_peak.find(device); it != m_peak.end()) return it->second;
    const BandwidthResult r = measure_copy_bandwidth(device, kRooflineBytes, 3);
    const double peak = r.error.empty() ? r.gbytes_per_s * 1e9 : 0.0;
    m_peak[device] = peak;
    return peak;
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
        const CacheFit fit { double(g.share.updated_cells) * ideal_bytes_per_cell(c), g.l2_bytes };
        figures.figures = derive_launch_figures(g.launch.metrics,
            { g.share.updated_cells, fused_steps(c.policy), double(ideal_bytes_per_cell(c)) }, g.peak_bytes_per_s, fit);
        launches.push_back(g.launch);
    }
    out.launch = launches.empty() ? ProfiledLaunch {} : combine_devices(launches);
    const VerdictInputs in = verdict_inputs(c, gpus);
    out.figures = derive_launch_figures(out.launch.metrics,
        { updated_cells(c), fused_steps(c.policy), double(ideal_bytes_per_cell(c)) }, in.dram_peak_bytes_per_s,
        { in.working_set_bytes, in.l2_bytes });
}

void MetricsSampler::sample(Simulation& sim, std::uint64_t generation, long long iteration_base, MetricsSample& out) {
    const auto start = std::chrono::steady_clock::now();
    out.generation = generation;
    out.settings.config = sim.config();
    out.resources = sim.resources();
    out.timestamp = timestamp_now();
    out.seconds = std::chrono::duration<double>(start - m_epoch).count();
    profile(sim, iteration_base, out);
    m_last = std::chrono::steady_clock::now();
}

void MetricsSampler::profile(Simulation& sim, long long iteration_base, MetricsSample& out) {
    const StencilConfig& c = sim.config();
    std::vector<GpuCounters> gpus;
    for (const DeviceShare& share : device_shares(c)) {
        GpuCounters& g = gpus.emplace_back();
        g.share = share;
        g.device_name = m_catalogue.name_of(share.device);
        g.peak_bytes_per_s = device_peak_bytes_per_s(share.device); // measured before the profiler attaches
        if (const DeviceInfo* d = m_catalogue.find(share.device)) g.l2_bytes = double(d->l2_bytes);
    }
    std::string why;
    std::vector<MetricsCollector*> collectors;
    for (const GpuCounters& g : gpus) {
        std::unique_ptr<MetricsCollector>& collector = m_collectors[g.share.device];
        if (!collector) collector = create_metrics_collector(g.share.device, &why);
        if (!collector) {
            if (gpus.size() > 1) why = "GPU " + std::to_string(g.share.device) + ": " + why;
            break;
        }
        collectors.push_back(collector.get());
    }
    std::vector<ProfiledLaunch> launches;
    const auto start = std::chrono::steady_clock::now(); // not the one-off collector creation and rooflines
    // One launch: a temporal kernel's fused steps (sim.step(1) would run its one-step kernel instead).
    const int steps = fused_steps(c.policy);
    const bool profiled = collectors.size() == gpus.size()
        && profile_devices(
            collectors, [&] { sim.step(steps); }, &launches, &why);
    m_last_cost = std::chrono::steady_clock::now() - start;
    if (!profiled) {
        m_broken = true;
        out.unavailable = why.empty() ? "GPU counters could not be read." : why;
        out.iteration = iteration_base + sim.iteration();
        return;
    }
    out.iteration = iteration_base + sim.iteration();
    for (std::size_t i = 0; i < gpus.size(); ++i) gpus[i].launch = launches[i];
    derive(c, gpus, out);
    if (out.generation != m_verdict_generation) { // another kernel: its own samples only
        m_verdict.reset();
        m_verdict_generation = out.generation;
    }
    out.figures.verdict = m_verdict.add(out.launch.metrics, verdict_inputs(c, gpus));
}

} // namespace ss::gui
