// SPDX-License-Identifier: MIT
#include "session/metrics_history.h"

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

} // namespace ss::gui
