// SPDX-License-Identifier: MIT
// EBISU's performance model (gpu/studies/ebisu_model.h) drawn against the depth t for one temporal configuration:
// each resource's ceiling times the valid proportion V (global memory, shared memory, compute), the model's
// PP (their least), the depth where DRAM stops limiting, and the depth sweep's measured points on it: the
// GPU-timed GCells/s and, where the counters were on, the DRAM bytes per cell and step against the model's
// a_gm S / (t V). The note names every input and whether it was measured or comes from the spec sheet.
#pragma once

#include "gpu/problem/device.h"
#include "gpu/studies/experiments.h"

#include <QWidget>

#include <vector>

class QChartView;
class QLabel;

namespace ss::gui {

class EbisuModelChart : public QWidget {
    Q_OBJECT
public:
    explicit EbisuModelChart(QWidget* parent = nullptr);

    // The model for `config` (made temporal; its block the heuristic's unless manual) on `device`, with the
    // points of `points` that ran that configuration's radius, CF and precision. `device` null: no model, the
    // chart says `why_no_device`.
    void show_model(const StencilConfig& config, const DeviceInfo* device, const std::vector<ExperimentPoint>& points,
        const QString& why_no_device = {});
    QString note() const;
    QStringList series() const; // the legend entries of both charts (tests)
    int measured_points() const { return m_measured; }
    bool save_png(const QString& path, QString* why, const QString& caption = {});

private:
    QChartView *m_rate, *m_bytes;
    QLabel* m_note;
    int m_measured = 0;
};

} // namespace ss::gui
