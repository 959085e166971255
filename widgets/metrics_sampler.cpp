// SPDX-License-Identifier: MIT
#include "widgets/metrics_sampler.h"

#include "app/profile_report.h"
#include "app/run_report.h"
#include "gpu/bandwidth.h"
#include "gpu/profiler/collector.h"

namespace ss::gui {
namespace {

constexpr std::int64_t kRooflineBytes = 256ll << 20; // enough to stream past the L2, quick to copy

double metric(const KernelMetrics& m, std::string_view name) {
    const auto it = m.find(name);
    return it == m.end() ? 0.0 : it->second;
}

} // namespace

MetricsSampler::MetricsSampler() = default;
MetricsSampler::~MetricsSampler() = default;

void MetricsSampler::set_enabled(bool on, int interval_ms) {
    m_enabled = on;
    m_broken = false;
    m_interval = std::chrono::milliseconds(std::max(interval_ms, 50));
    m_last = {};
}

bool MetricsSampler::due(const Simulation& sim) const {
    if (!m_enabled || m_broken || !precheck(sim.config()).empty()) return false;
    return std::chrono::steady_clock::now() - m_last >= m_interval;
}

std::string MetricsSampler::precheck(const StencilConfig& c) {
    if (c.backend == Backend::Cpu)
        return "Hardware counters need a CUDA GPU; the CPU backend shows timing-based figures only.";
    if (strip_count(c) > 1)
        return "Hardware counters are collected on one GPU at a time: set the GPU count to 1 to see them. The "
               "per-GPU timing table stays.";
    return {};
}

double MetricsSampler::device_peak_bytes_per_s(int device) {
    if (const auto it = m_peak.find(device); it != m_peak.end()) return it->second;
    const BandwidthResult r = measure_copy_bandwidth(device, kRooflineBytes, 3);
    const double peak = r.error.empty() ? r.gbytes_per_s * 1e9 : 0.0;
    m_peak[device] = peak;
    return peak;
}

void MetricsSampler::sample(Simulation& sim, std::uint64_t generation, long long iteration_base, MetricsSample& out) {
    const StencilConfig& c = sim.config();
    out.generation = generation;
    out.settings.config = c;
    out.resources = sim.resources();
    out.timestamp = timestamp_now();
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_epoch).count();
    m_last = std::chrono::steady_clock::now();
    std::string why;
    const double peak = device_peak_bytes_per_s(c.device); // measured before the profiler attaches
    if (m_collector && m_collector->device() != c.device) m_collector.reset();
    if (!m_collector) m_collector = create_metrics_collector(c.device, &why);
    if (!m_collector || !m_collector->profile([&] { sim.step(1); }, &out.launch, &why)) {
        m_broken = true;
        out.unavailable = why.empty() ? "GPU counters could not be read." : why;
        out.iteration = iteration_base + sim.iteration();
        return;
    }
    out.iteration = iteration_base + sim.iteration();
    const KernelMetrics& m = out.launch.metrics;
    const double seconds = metric(m, "gpu__time_duration.sum") * 1e-9;
    const double cells = double(updated_cells(c));
    out.duration_ms = seconds * 1e3;
    if (seconds > 0.0) {
        out.gcells_per_second = cells / seconds / 1e9;
        out.dram_read_gbs = metric(m, "dram__bytes_read.sum") / seconds / 1e9;
        out.dram_write_gbs = metric(m, "dram__bytes_write.sum") / seconds / 1e9;
        out.local_load_gbs = metric(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum") / seconds / 1e9;
        out.local_store_gbs = metric(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum") / seconds / 1e9;
    }
    out.ideal_bytes_per_cell = ideal_bytes_per_cell(c);
    if (cells > 0)
        out.dram_bytes_per_cell = (metric(m, "dram__bytes_read.sum") + metric(m, "dram__bytes_write.sum")) / cells;
    out.dram_peak_gbs = peak / 1e9;
    out.verdict = diagnose(m, { peak, ideal_launch_bytes(c) });
}

} // namespace ss::gui
