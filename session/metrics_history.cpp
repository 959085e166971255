// SPDX-License-Identifier: MIT
#include "session/metrics_history.h"

#include "gpu/problem/rates.h"
#include "reports/pm_report.h"
#include "reports/profile_report.h"
#include "reports/run_report.h"
#include "session/csv_file.h"

#include <QCoreApplication>

namespace ss::gui {

void MetricsHistory::append(const MetricsSample& s) {
    if (m_samples.size() >= kLimit) m_samples.erase(m_samples.begin(), m_samples.begin() + kLimit / 10);
    m_samples.push_back(s);
}

std::vector<CsvRow> MetricsHistory::profile_csv_rows() const {
    std::vector<CsvRow> rows;
    int launch = 0;
    for (const MetricsSample& s : m_samples) {
        ProfileReport r;
        r.options.config = s.settings.config;
        r.device = s.device_name;
        r.resources = s.resources;
        r.timestamp = s.timestamp;
        r.launch = ++launch;
        r.iteration = s.iteration;
        r.profiled = s.launch;
        r.verdict = { s.figures.dram_peak_gbs * 1e9, s.figures.ideal_launch_bytes(), s.figures.working_set_bytes,
            s.figures.l2_bytes };
        if (s.gpus.empty()) rows.push_back(profile_csv_row(r)); // a sample without per-GPU counters
        for (const GpuMetricsSample& g : s.gpus) {
            r.device = g.device_name;
            r.gpu = g.share;
            r.profiled = g.launch;
            r.verdict = { g.figures.dram_peak_gbs * 1e9, g.figures.ideal_launch_bytes(), g.figures.working_set_bytes,
                g.figures.l2_bytes };
            rows.push_back(profile_csv_row(r));
        }
    }
    return rows;
}

bool MetricsHistory::write_csv(const QString& path, QString* why) const {
    if (m_samples.empty()) {
        if (why)
            *why = QCoreApplication::translate(
                "export", "no launch has been profiled yet: turn hardware counters on and play");
        return false;
    }
    return write_csv_file(path, profile_csv_header(), profile_csv_rows(), why);
}

void MetricsHistory::append_timing(const TimingRecord& r) {
    if (m_timing.size() >= kLimit) m_timing.erase(m_timing.begin(), m_timing.begin() + kLimit / 10);
    m_timing.push_back(r);
}

CsvRow MetricsHistory::timing_csv_header() {
    CsvRow h { "timestamp", "device" };
    const CsvRow config = config_csv_header(), resources = resources_csv_header();
    h.insert(h.end(), config.begin(), config.end());
    h.insert(h.end(), resources.begin(), resources.end());
    for (const char* column : { "iteration", "kernel_ms_per_step", "kernel_gcells_per_s", "kernel_gbytes_per_s",
             "kernel_timed_steps", "frames_per_s", "steps_per_frame", "wall_steps_per_s", "busy_ms_per_step" })
        h.emplace_back(column);
    return h;
}

CsvRow MetricsHistory::timing_csv_row(const TimingRecord& r) {
    CsvRow row { r.timestamp, r.device_name };
    const CsvRow config = config_csv_values(r.settings.config, r.resources),
                 resources = resources_csv_values(r.resources);
    row.insert(row.end(), config.begin(), config.end());
    row.insert(row.end(), resources.begin(), resources.end());
    const EngineStats& s = r.stats;
    const auto positive = [](double v) { return v > 0.0 ? format_number(v) : std::string(); }; // empty: not timed
    row.insert(row.end(),
        { std::to_string(s.iteration), positive(s.kernel_ms_per_step), positive(s.kernel_gcells_per_second),
            positive(s.kernel_gbytes_per_second), std::to_string(s.kernel_timed_steps),
            format_number(r.frames_per_second), std::to_string(r.steps_per_frame), format_number(s.steps_per_second),
            positive(s.ms_per_step) });
    return row;
}

bool MetricsHistory::write_timing_csv(const QString& path, QString* why) const {
    if (m_timing.empty()) {
        if (why) *why = QCoreApplication::translate("export", "nothing has run yet: press Play first");
        return false;
    }
    std::vector<CsvRow> rows;
    rows.reserve(m_timing.size());
    for (const TimingRecord& r : m_timing) rows.push_back(timing_csv_row(r));
    return write_csv_file(path, timing_csv_header(), rows, why);
}

void MetricsHistory::append_continuous(const ContinuousChunk& c) {
    if (c.chunk.samples.empty() && !c.chunk.overflow) return;
    while (!m_continuous.empty() && m_continuous_samples + c.chunk.samples.size() > kContinuousLimit) {
        m_continuous_samples -= m_continuous.front().chunk.samples.size();
        m_continuous.erase(m_continuous.begin());
    }
    m_continuous.push_back(c);
    m_continuous_samples += c.chunk.samples.size();
    add_to_bin(c);
    if (m_points.size() > kContinuousLimit / 10) { // charts keep 60 s: the oldest points can go
        const std::size_t drop = m_points.size() / 2;
        m_points.erase(m_points.begin(), m_points.begin() + std::ptrdiff_t(drop));
        m_points_first += drop;
    }
}

const ContinuousPoint* MetricsHistory::latest_continuous_point(int device, std::uint64_t generation) const {
    for (auto it = m_points.rbegin(); it != m_points.rend(); ++it)
        if (it->device == device && it->generation == generation) return &*it;
    return nullptr;
}

// Sums each GPU's samples until they cover kContinuousBinSeconds of GPU time, then closes a point: rates
// are the bin's bytes over its sampled time, the DRAM percentage weighted by each sample's time.
void MetricsHistory::add_to_bin(const ContinuousChunk& c) {
    const PmChunk& k = c.chunk;
    const int read = k.column("dram__bytes_read.sum"), write = k.column("dram__bytes_write.sum"),
              load = k.column("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"),
              store = k.column("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum"),
              pct = k.column("dram__throughput.avg.pct_of_peak_sustained_elapsed"), rx = k.column("nvlrx__bytes.sum"),
              tx = k.column("nvltx__bytes.sum");
    Bin& b = m_bins[k.device];
    if (b.generation != c.generation) b = Bin { c.generation };
    b.lost = b.lost || k.overflow;
    const auto value = [](const PmSample& s, int column) { return column >= 0 ? s.values[std::size_t(column)] : 0.0; };
    for (std::size_t i = 0; i < k.samples.size(); ++i) {
        const PmSample& s = k.samples[i];
        const double dt = s.seconds();
        if (dt <= 0.0 || dt > 1.0) continue; // the first sample spans the time before sampling started
        b.sampled_s += dt;
        b.end = i < c.seconds.size() ? c.seconds[i] : b.end;
        b.read += value(s, read), b.write += value(s, write);
        b.load += value(s, load), b.store += value(s, store);
        b.local = load >= 0 && store >= 0;
        b.pct = pct >= 0;
        b.nvlink = rx >= 0 && tx >= 0;
        b.nvlink_rx += value(s, rx), b.nvlink_tx += value(s, tx);
        b.pct_weighted += value(s, pct) * dt;
        if (b.sampled_s < kContinuousBinSeconds) continue;
        ContinuousPoint p;
        p.generation = c.generation;
        p.device = k.device;
        p.seconds = b.end;
        const double ms = b.sampled_s * 1e3;
        p.dram_read_gbs = gbytes_per_second(b.read, ms);
        p.dram_write_gbs = gbytes_per_second(b.write, ms);
        if (b.local)
            p.local_load_gbs = gbytes_per_second(b.load, ms), p.local_store_gbs = gbytes_per_second(b.store, ms);
        if (b.pct) p.dram_pct = b.pct_weighted / b.sampled_s;
        if (b.nvlink)
            p.nvlink_rx_gbs = gbytes_per_second(b.nvlink_rx, ms), p.nvlink_tx_gbs = gbytes_per_second(b.nvlink_tx, ms);
        p.lost_samples = b.lost;
        m_points.push_back(p);
        b = Bin { c.generation };
    }
}

std::vector<ContinuousPoint> MetricsHistory::continuous_points_from(std::uint64_t n) const {
    const std::uint64_t from = std::max(n, m_points_first);
    if (from >= continuous_points_end()) return {};
    return { m_points.begin() + std::ptrdiff_t(from - m_points_first), m_points.end() };
}

std::vector<CsvRow> MetricsHistory::continuous_csv_rows() const {
    std::vector<CsvRow> rows;
    const std::uint64_t origin = m_continuous.empty() || m_continuous.front().chunk.samples.empty()
        ? 0
        : m_continuous.front().chunk.samples.front().start_ns;
    for (const ContinuousChunk& c : m_continuous)
        for (CsvRow& row : pm_csv_rows(c.chunk, c.device_name, origin)) rows.push_back(std::move(row));
    return rows;
}

bool MetricsHistory::write_continuous_csv(const QString& path, QString* why) const {
    if (m_continuous_samples == 0) {
        if (why) *why = QCoreApplication::translate("export", "no continuous counter sample has arrived yet");
        return false;
    }
    return write_csv_file(path, pm_csv_header(), continuous_csv_rows(), why);
}

} // namespace ss::gui
