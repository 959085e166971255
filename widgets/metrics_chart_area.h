// SPDX-License-Identifier: MIT
// The metrics panel's charts: DRAM and local-memory throughput over the last 60 s and the warp-stall bars,
// with the GPU selector of a split run. A chart with nothing to show is hidden, so the field keeps the
// room, and one line says why (no counters on the CPU backend, counters off, no local traffic); after a
// change of kernel the charts start again and say since when.
#pragma once

#include "session/engine_types.h"
#include "session/metrics_history.h"

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;

namespace ss::gui {

class TimeSeriesChart;
class StallChart;

class MetricsChartArea : public QWidget {
    Q_OBJECT
public:
    explicit MetricsChartArea(QWidget* parent = nullptr);

    void show_sample(const MetricsSample&);
    // Continuous counters draw the DRAM and local-memory charts (the replayed samples then feed the stall
    // chart only); off: the replayed samples draw all three, as before.
    void set_continuous(bool on);
    bool continuous() const { return m_continuous; }
    // Chart points of the current kernel, oldest first (MetricsHistory::continuous_points_from).
    void append_continuous(const std::vector<ContinuousPoint>&);
    int continuous_points() const { return m_continuous_points; }
    // The stall bars draw the baseline's beside the current kernel's.
    void set_baseline(const std::optional<MetricsSample>&);
    // No profiled launch to draw, and why ("the CPU backend has no hardware counters"): the charts hide.
    void set_no_data(const QString& reason);
    // Another kernel runs: its charts start empty and the notice says since when.
    void new_configuration();
    void clear();

    bool has_data() const; // some chart shows a profiled launch
    QString notice() const; // why charts are hidden or short; empty when all show a full window
    // Writes each chart that has data as <stem>-dram.png, -local.png, -stalls.png with `caption` below it.
    // Refuses (false, `why`) when no chart has data, saying why; `written` lists the files.
    bool save_pngs(const QString& stem, const QString& caption, QStringList* written, QString* why);

protected:
    void resizeEvent(QResizeEvent*) override;

private:
    void arrange_charts(); // one row, or the stall chart below the time series where the area is narrow
    void show_throughput(const MetricsSample&);
    void set_throughput_lines(const std::vector<int>& devices); // empty: one GPU
    void update_stall_selector(const MetricsSample&);
    void show_stalls(const MetricsSample&);
    void update_visibility();

    TimeSeriesChart *m_dram, *m_local;
    StallChart* m_stalls;
    QComboBox* m_stall_gpu; // "All GPUs" (-1) or a device index
    QLabel* m_notice;
    QWidget* m_stall_box;
    QGridLayout* m_grid;
    bool m_stalls_below = false;
    std::vector<int> m_chart_devices; // the GPUs the time series draw a pair of lines for; empty: one GPU
    std::optional<MetricsSample> m_current, m_baseline;
    QString m_no_data; // why there is no sample to draw; empty once one arrived
    QString m_since; // "since the change at 20:31:05" after a change of kernel
    bool m_stall_bars = false; // the stall chart has bars (the counters had stall ratios)
    bool m_continuous = false;
    int m_continuous_points = 0; // drawn since the last clear
    std::vector<int> m_continuous_devices; // the GPUs the continuous lines are for, in first-seen order
};

} // namespace ss::gui
