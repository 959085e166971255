// SPDX-License-Identifier: MIT
#include "session/metrics_sampler.h"

#include "gpu/bandwidth.h"
#include "gpu/device.h"
#include "gpu/profiler/collector.h"
#include "reports/profile_report.h"
#include "reports/run_report.h"

namespace ss::gui {
namespace {

constexpr std::int64_t kRooflineBytes = 256ll << 20; // enough to stream past the L2, quick to copy

double metric(const KernelMetrics& m, std::string_view name) {
    const auto it = m.find(name);
    return it == m.end() ? 0.0 : it->second;
}

// The figures of MetricsSample and GpuMetricsSample (same member names) from one launch's counters.
template <typename Figures>
void derive_figures(Figures& out, const ProfiledLaunch& launch, double cells, double peak, double ideal_bytes) {
    const KernelMetrics& m = launch.metrics;
    const double seconds = metric(m, "gpu__time_duration.sum") * 1e-9;
    out.duration_ms = seconds * 1e3;
    if (seconds > 0.0) {
        out.gcells_per_second = cells / seconds / 1e9;
        out.dram_read_gbs = metric(m, "dram__bytes_read.sum") / seconds / 1e9;
        out.dram_write_gbs = metric(m, "dram__bytes_write.sum") / seconds / 1e9;
        out.local_load_gbs = metric(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum") / seconds / 1e9;
        out.local_store_gbs = metric(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum") / seconds / 1e9;
    }
    if (cells > 0)
        out.dram_bytes_per_cell = (metric(m, "dram__bytes_read.sum") + metric(m, "dram__bytes_write.sum")) / cells;
    out.dram_peak_gbs = peak / 1e9;
    out.verdict = diagnose(m, { peak, ideal_bytes });
}

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
    return {};
}

double MetricsSampler::device_peak_bytes_per_s(int device) {
    if (const auto it = m_peak.find(device); it != m_peak.end()) return it->second;
    const BandwidthResult r = measure_copy_bandwidth(device, kRooflineBytes, 3);
    const double peak = r.error.empty() ? r.gbytes_per_s * 1e9 : 0.0;
    m_peak[device] = peak;
    return peak;
}

void MetricsSampler::derive(const StencilConfig& c, const std::vector<GpuCounters>& gpus, MetricsSample& out) {
    out.gpus.clear();
    std::vector<ProfiledLaunch> launches;
    double peak = 0.0;
    for (const GpuCounters& g : gpus) {
        GpuMetricsSample& figures = out.gpus.emplace_back();
        figures.share = g.share;
        figures.device_name = g.device_name;
        figures.launch = g.launch;
        const double cells = double(g.share.updated_cells);
        derive_figures(figures, g.launch, cells, g.peak_bytes_per_s, cells * ideal_bytes_per_cell(c));
        launches.push_back(g.launch);
        peak += g.peak_bytes_per_s;
    }
    out.launch = launches.empty() ? ProfiledLaunch {} : combine_devices(launches);
    out.ideal_bytes_per_cell = ideal_bytes_per_cell(c);
    derive_figures(out, out.launch, double(updated_cells(c)), peak, ideal_launch_bytes(c));
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
    const bool profiled = collectors.size() == gpus.size()
        && profile_devices(
            collectors, [&] { sim.step(1); }, &launches, &why);
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
}

} // namespace ss::gui
