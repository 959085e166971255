// SPDX-License-Identifier: MIT
#include "widgets/metrics_panel.h"

#include <QGridLayout>
#include <QLabel>

namespace ss::gui {
namespace {

QLabel* figure(QGridLayout* grid, int column, const QString& caption, const char* name) {
    auto* value = new QLabel(QStringLiteral("-"));
    value->setObjectName(QLatin1String(name));
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    value->setFont(f);
    value->setAlignment(Qt::AlignCenter);
    auto* label = new QLabel(caption);
    label->setAlignment(Qt::AlignCenter);
    grid->addWidget(value, 0, column);
    grid->addWidget(label, 1, column);
    return value;
}

} // namespace

MetricsPanel::MetricsPanel(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum); // figures, not a canvas
    auto* grid = new QGridLayout(this);
    m_time = figure(grid, 0, tr("time / step"), "metric_time");
    m_cells = figure(grid, 1, tr("GCells/s"), "metric_gcells");
    m_bytes = figure(grid, 2, tr("GB/s (ideal traffic)"), "metric_gbs");
    m_steps = figure(grid, 3, tr("steps/s"), "metric_steps");
}

void MetricsPanel::show_stats(const EngineStats& s) {
    if (s.ms_per_step <= 0.0) return clear();
    m_time->setText(s.ms_per_step >= 1.0 ? tr("%1 ms").arg(s.ms_per_step, 0, 'f', 2)
                                         : tr("%1 µs").arg(s.ms_per_step * 1000.0, 0, 'f', 1));
    m_cells->setText(QString::number(s.gcells_per_second, 'f', 2));
    m_bytes->setText(QString::number(s.gbytes_per_second, 'f', 1));
    m_steps->setText(QString::number(s.steps_per_second, 'f', 0));
}

void MetricsPanel::clear() {
    for (QLabel* l : { m_time, m_cells, m_bytes, m_steps }) l->setText(QStringLiteral("-"));
}

} // namespace ss::gui
