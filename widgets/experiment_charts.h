// SPDX-License-Identifier: MIT
// The thesis' figures as grouped bar charts over the stencil radius: absolute GCells/s (fig. 5.1a), the
// improvement over base normalised per radius (5.1b, 5.4–5.6) and the bottleneck metric's improvement
// (DRAM write in 2D, local memory in 3D; 5.4/5.5) when the sweep read counters. A depth sweep charts the
// same over the depth t instead, and DRAM bytes per cell and step in place of the bottleneck.
#pragma once

#include "gpu/studies/experiments.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QChartView;
class QLabel;

namespace ss::gui {

class ExperimentCharts : public QWidget {
    Q_OBJECT
public:
    explicit ExperimentCharts(QWidget* parent = nullptr);

    // `series_filter` empty: every series; else only the series of that variant ("smem": smem, smem CF2, ...).
    // `kind` Depth: categories are the depths, base points are named in the note, not charted.
    // `cpu_loop`: the points ran on the CPU backend, where every variant is the same loop (said on the charts).
    void show_points(const std::vector<ExperimentPoint>&, const QString& title, const QString& series_filter = {},
        ExperimentKind kind = ExperimentKind::Radius, bool cpu_loop = false);
    void clear();
    // The legend entries and categories now shown: radii ("R4"), or depths ("t9") of a depth sweep (tests, exports).
    QStringList series() const { return m_series; }
    QStringList radii() const { return m_radii; }
    QString note() const;
    bool bottleneck_shown() const;
    bool save_png(const QString& path, QString* why, const QString& caption = {});

private:
    QChartView *m_performance, *m_improvement, *m_bottleneck;
    QLabel* m_note;
    QStringList m_series, m_radii;
};

} // namespace ss::gui
