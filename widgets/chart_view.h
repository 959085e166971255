// SPDX-License-Identifier: MIT
// The chart view the Experiments window's charts share: no animation (points stream in), small margins,
// the legend on the right.
#pragma once
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPainter>

namespace ss::gui {

inline QChartView* make_chart_view(QWidget* parent, int min_height) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignRight);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(min_height);
    return view;
}

} // namespace ss::gui
