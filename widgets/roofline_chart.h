// SPDX-License-Identifier: MIT
// The roofline chart as Nsight Compute draws one, log-log: FLOP/s against FLOP per DRAM byte, the device's ceilings
// (the DRAM and L2 diagonals, the fp32 and fp64 FMA roofs: the configuration's precision solid, the other dashed),
// the running kernel's point and a hollow marker at its single-step ideal intensity. Fed plain values (the
// RooflineWindow follows the Session); with nothing to draw it says why inside the chart.
#pragma once

#include "gpu/profiler/roofline.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QChartView;
class QGraphicsSimpleTextItem;
class QLabel;

namespace ss::gui {

class RooflineChart : public QWidget {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);

    // The ceilings (their `unavailable`, when set, is the text in the chart) and the kernel's point in `precision`.
    void show_roofline(const RooflineCeilings&, Precision, const RooflinePoint&);
    // Nothing to draw, and why (the chart shows this text): "measuring ceilings…".
    void show_reason(const QString& why);

    QString reason() const; // the text inside the chart while it has no data; empty when it draws
    QStringList series() const; // the legend's names, in drawing order
    QStringList ceiling_labels() const; // the values written on the lines
    QString note() const; // below the chart: the sentence explaining the markers, the point and the ceilings
    QString point_summary() const; // one line for an export's caption; empty without a point
    bool save_png(const QString& path, QString* why, const QString& caption);

private:
    struct Label {
        QGraphicsSimpleTextItem* item;
        double x, y; // where it sits, in the axes' values
    };
    void clear();
    void place_labels(); // after the plot area moves (a resize)
    void add_label(const QString& text, double x, double y);

    QChartView* m_view;
    QLabel* m_note;
    QGraphicsSimpleTextItem* m_reason = nullptr;
    std::vector<Label> m_labels;
    QString m_point_summary;
};

} // namespace ss::gui
