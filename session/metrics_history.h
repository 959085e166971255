// SPDX-License-Identifier: MIT
// The session's profiled launches, oldest first (Tracy's habit: one store, written by the engine's
// samples as they arrive, read by the charts, the CSV export and the scripted runs). Samples are never
// changed once appended; past kLimit the oldest tenth is dropped, so a day's soak stays a few MB.
#pragma once

#include "reports/csv.h"
#include "session/engine_types.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ss::gui {

class MetricsHistory {
public:
    static constexpr std::size_t kLimit = 100000; // a day at 1 Hz

    void append(const MetricsSample&);
    const std::vector<MetricsSample>& samples() const { return m_samples; }
    const MetricsSample* latest() const { return m_samples.empty() ? nullptr : &m_samples.back(); }
    std::size_t size() const { return m_samples.size(); }
    bool empty() const { return m_samples.empty(); }

    // One row per GPU per launch, in `stencilscope-cli profile --csv`'s columns (docs/CSV.md), from the
    // figures the profiler derived when the sample was taken.
    std::vector<CsvRow> profile_csv_rows() const;
    bool write_csv(const QString& path, QString* why) const;

private:
    std::vector<MetricsSample> m_samples;
};

} // namespace ss::gui
