// SPDX-License-Identifier: MIT
// The thesis' figures as grouped bar charts over the stencil radius: absolute GCells/s (fig. 5.1a), the
// improvement over base normalised per radius (5.1b, 5.4–5.6) and the bottleneck metric's improvement
// (DRAM write in 2D, local memory in 3D; 5.4/5.5) when the sweep read counters.
#pragma once

#include "gpu/experiments.h"

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
    void show_points(const std::vector<ExperimentPoint>&, const QString& title, const QString& series_filter = {});
    void clear();
    // The legend entries and radius categories now shown (tests, exports).
    QStringList series() const { return m_series; }
    QStringList radii() const { return m_radii; }
    bool bottleneck_shown() const;
    bool save_png(const QString& path, QString* why, const QString& caption = {});

private:
    QChartView *m_performance, *m_improvement, *m_bottleneck;
    QLabel* m_note;
    QStringList m_series, m_radii;
};

} // namespace ss::gui
