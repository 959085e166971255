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

// One stats window as the timing CSV writes it: the kernel's own rate and the display cadence, with the
// configuration, device and iteration they belong to.
struct TimingRecord {
    std::string timestamp; // UTC, ISO 8601
    std::string device_name;
    RunSettings settings;
    KernelResources resources;
    EngineStats stats;
    double frames_per_second = 0.0; // what the screen showed
    int steps_per_frame = 0; // 0: running free
};

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

    // The engine's statistics windows (timing figures, also without counters), kLimit at most.
    void append_timing(const TimingRecord&);
    const std::vector<TimingRecord>& timing() const { return m_timing; }
    static CsvRow timing_csv_header(); // docs/CSV.md, "timing"
    static CsvRow timing_csv_row(const TimingRecord&);
    bool write_timing_csv(const QString& path, QString* why) const;

private:
    std::vector<MetricsSample> m_samples;
    std::vector<TimingRecord> m_timing;
};

} // namespace ss::gui
