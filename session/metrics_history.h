// SPDX-License-Identifier: MIT
// The session's profiled launches, oldest first (Tracy's habit: one store, written by the engine's
// samples as they arrive, read by the charts, the CSV export and the scripted runs). Samples are never
// changed once appended; past kLimit the oldest tenth is dropped, so a day's soak stays a few MB.
#pragma once

#include "gpu/profiler/pm_sampler.h"
#include "reports/csv.h"
#include "session/engine_types.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <map>
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

// What the engine's continuous sampling (CUPTI PM sampling) hands over, a few times a second per GPU: the
// samples decoded since the last chunk, with their times on the charts' axis. A chunk without samples
// carries a change of state: `active` false with `note` saying why continuous sampling is off (and that
// the replayed profile stands in), or `note` alone for something worth saying once.
struct ContinuousChunk {
    std::uint64_t generation = 0;
    std::string device_name;
    PmChunk chunk; // device, metric names, samples
    std::vector<double> seconds; // each sample's end on MetricsSample::seconds' axis
    bool active = true; // continuous sampling runs
    std::string note;
    double interval_ms = 0.0; // the sampling interval
};

// One chart point of one GPU: its samples over about kContinuousBinSeconds added up, as rates.
struct ContinuousPoint {
    std::uint64_t generation = 0;
    int device = 0;
    double seconds = 0.0; // the end of the last sample in it
    double dram_read_gbs = 0.0, dram_write_gbs = 0.0;
    double local_load_gbs = -1.0, local_store_gbs = -1.0; // < 0: not sampled
    double dram_pct = -1.0; // dram__throughput.avg.pct_of_peak_sustained_elapsed over the bin; < 0: not sampled
    double nvlink_rx_gbs = -1.0, nvlink_tx_gbs = -1.0; // nvlrx__bytes.sum / nvltx__bytes.sum rates; < 0: not sampled
    bool lost_samples = false; // the hardware buffer overflowed in or before this bin
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

    // Continuous samples: every chunk (kContinuousLimit samples at most, oldest dropped first) for the
    // CSV export, and the chart points binned from them as they arrive. Points are numbered from 0 over
    // the session: continuous_points_from(n) returns those numbered n and later still held.
    static constexpr std::size_t kContinuousLimit = 600000; // 10 min at 1 ms per GPU
    static constexpr double kContinuousBinSeconds = 0.05;
    void append_continuous(const ContinuousChunk&);
    std::size_t continuous_samples() const { return m_continuous_samples; }
    const std::vector<ContinuousChunk>& continuous_chunks() const { return m_continuous; }
    std::vector<ContinuousPoint> continuous_points_from(std::uint64_t n) const;
    std::uint64_t continuous_points_end() const { return m_points_first + m_points.size(); }
    // The newest chart point of `device` in `generation` still held, or nullptr.
    const ContinuousPoint* latest_continuous_point(int device, std::uint64_t generation) const;
    std::vector<CsvRow> continuous_csv_rows() const; // docs/CSV.md, "continuous"
    bool write_continuous_csv(const QString& path, QString* why) const;

private:
    struct Bin {
        std::uint64_t generation = 0;
        double seconds = 0.0, sampled_s = 0.0, end = 0.0, read = 0.0, write = 0.0, load = 0.0, store = 0.0,
               pct_weighted = 0.0, nvlink_rx = 0.0, nvlink_tx = 0.0;
        bool local = false, pct = false, nvlink = false, lost = false;
    };
    void add_to_bin(const ContinuousChunk&);

    std::vector<ContinuousChunk> m_continuous;
    std::size_t m_continuous_samples = 0;
    std::vector<ContinuousPoint> m_points;
    std::uint64_t m_points_first = 0; // the number of m_points.front()
    std::map<int, Bin> m_bins; // per device, the bin being filled

    std::vector<MetricsSample> m_samples;
    std::vector<TimingRecord> m_timing;
};

} // namespace ss::gui

Q_DECLARE_METATYPE(ss::gui::ContinuousChunk)
