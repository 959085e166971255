// SPDX-License-Identifier: MIT
// The metrics area: the kernel's own timing figures (the headline) beside the display cadence, and — when hardware
// counters can be read — the verdict, a per-kernel summary, DRAM and local-memory throughput over time and the
// warp-stall chart. Split over GPUs: a per-GPU table (timing from the engine's statistics, counters from the samples),
// one pair of chart lines per GPU and a GPU selector for the stall chart; the summary and verdict stay the whole run's.
// Every profiled launch of the session lives in the session's MetricsHistory (session/metrics_history.h), which the
// panel reads and File > Export metrics writes; the panel itself keeps only the pinned baseline.
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
class QVBoxLayout;

namespace ss::gui {

class MetricsChartArea;
class MetricSources;

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
    // Writes the charts that have data as PNG files <stem>-dram.png, -local.png, -stalls.png, each with a
    // caption (configuration, device, iteration); refuses with the reason when no chart has data.
    bool save_charts(const QString& stem, QString* error, QStringList* written = nullptr);
    bool charts_exportable(QString* why) const; // some chart has data; else why not
    const MetricSources& sources() const { return *m_sources; }

private:
    void observe_session();
    QLabel* summary_row(QFormLayout*, const QString& caption, const QString& tooltip, const char* name);
    void build_gpu_table(); // m_gpus: its columns and their tooltips, hidden until a split run
    void show_summary(const MetricsSample&);
    void show_strips(); // the per-GPU table from m_strips and m_current
    // A split run's table and halo line sit beside the verdict; where the dock is too short for them and a chart
    // (a projector's 1280x720), they move below the charts, where the dock's full width also holds the table whole.
    void place_strips();
    bool event(QEvent*) override; // the dock's viewport resized: place_strips

    QLabel *m_time, *m_cells, *m_bytes; // the kernel's own timing
    QLabel* m_cadence; // the display's: frames/s, steps/frame, wall-clock steps/s
    QCheckBox* m_counters;
    QString m_counters_tip; // its tooltip where counters can work
    QLabel *m_verdict, *m_note, *m_halo;
    QWidget* m_summary; // the counter figures: hidden while there is no profiled launch
    QTableWidget* m_gpus;
    QWidget* m_strips_box; // m_gpus and m_halo, moved by place_strips
    QVBoxLayout *m_verdict_box, *m_outer;
    bool m_strips_below = false;
    QLabel *m_duration, *m_profiled_rate, *m_bytes_per_cell, *m_l1, *m_l2, *m_smem, *m_occupancy, *m_registers,
        *m_spills, *m_passes;
    MetricsChartArea* m_charts;
    MetricSources* m_sources; // which figure comes from which source; feeds the continuous charts
    Session& m_session;
    std::optional<MetricsSample> m_baseline;
    MultiGpuStats m_strips; // the engine's latest statistics
    std::optional<MetricsSample> m_current; // the latest profiled launch of the current configuration
};

} // namespace ss::gui
