// SPDX-License-Identifier: MIT
#include "session/metrics_history.h"

#include "reports/profile_report.h"
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
        r.verdict = { s.figures.dram_peak_gbs * 1e9, double(s.figures.cells) * s.figures.ideal_bytes_per_cell };
        if (s.gpus.empty()) rows.push_back(profile_csv_row(r)); // a sample without per-GPU counters
        for (const GpuMetricsSample& g : s.gpus) {
            r.device = g.device_name;
            r.gpu = g.share;
            r.profiled = g.launch;
            r.verdict = { g.figures.dram_peak_gbs * 1e9, double(g.figures.cells) * g.figures.ideal_bytes_per_cell };
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

} // namespace ss::gui
