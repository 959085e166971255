// SPDX-License-Identifier: MIT
// The metrics area: the engine's own timing figures, and — when hardware counters can be read — the
// verdict, a per-kernel summary, DRAM and local-memory throughput over time and the warp-stall chart.
// Split over GPUs: a per-GPU table (timing from the engine's statistics, counters from the samples), one
// pair of chart lines per GPU and a GPU selector for the stall chart; the summary and verdict stay the
// whole run's. It keeps every profiled launch of the session for File > Export metrics.
#pragma once

#include "session/session.h"

#include <QWidget>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QFormLayout;
class QTableWidget;

namespace ss::gui {

class TimeSeriesChart;
class StallChart;

class MetricsPanel : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPanel(Session& session, QWidget* parent = nullptr);
    void show_stats(const EngineStats&);
    void show_sample(const MetricsSample&);
    void set_counters_enabled(bool); // reflects the toggle without emitting
    void new_configuration(); // the kernel changed: the summary and stall chart wait for its first sample
    void clear();

    // Pin the last sample as the baseline (nullopt clears it): readouts then show deltas against it.
    void set_baseline(const std::optional<MetricsSample>&);
    const std::optional<MetricsSample>& baseline() const { return m_baseline; }
    // Writes the three charts as PNG files <stem>-dram.png, <stem>-local.png, <stem>-stalls.png.
    bool save_charts(const QString& stem, QString* error);

private:
    void observe_session();
    QLabel* summary_row(QFormLayout*, const QString& caption, const QString& tooltip, const char* name);
    void show_summary(const MetricsSample&);
    void show_stalls(const MetricsSample&);
    void show_strips(); // the per-GPU table from m_strips and m_current
    void show_throughput(const MetricsSample&);
    void update_stall_selector(const MetricsSample&);

    QLabel *m_time, *m_cells, *m_bytes, *m_steps;
    QCheckBox* m_counters;
    QLabel *m_verdict, *m_note, *m_halo;
    QTableWidget* m_gpus;
    QComboBox* m_stall_gpu; // "All GPUs" (-1) or a device index
    QLabel *m_duration, *m_profiled_rate, *m_bytes_per_cell, *m_l1, *m_l2, *m_smem, *m_occupancy, *m_registers,
        *m_spills, *m_passes;
    TimeSeriesChart *m_dram, *m_local;
    StallChart* m_stalls;
    Session& m_session;
    std::optional<MetricsSample> m_baseline;
    MultiGpuStats m_strips; // the engine's latest statistics
    std::optional<MetricsSample> m_current; // the latest profiled launch of the current configuration
    std::vector<int> m_chart_devices; // the GPUs the time series draw a pair of lines for; empty: one GPU
};

} // namespace ss::gui
