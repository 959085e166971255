// SPDX-License-Identifier: MIT
// The Experiments window's results: the charts, the table of points and EBISU's model chart.
#include "widgets/experiments_window.h"

#include "session/session.h"
#include "widgets/cpu_loop_caveat.h"
#include "widgets/ebisu_model_chart.h"
#include "widgets/experiment_charts.h"
#include "widgets/experiment_kind_title.h"

#include <QComboBox>
#include <QTabWidget>
#include <QTableWidget>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

QString number(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
}

} // namespace

void ExperimentsWindow::update_model() {
    // The depth sweep's first temporal series, else the window's configuration at its first radius and CF.
    const ExperimentSpec s = spec();
    StencilConfig c = s.base;
    c.problem.radius = s.radii.empty() ? 1 : s.radii.front();
    c.policy.cf = s.cfs.empty() ? 1 : s.cfs.front();
    const std::vector<ExperimentPoint> none;
    const std::vector<ExperimentPoint>& shown = m_kind == ExperimentKind::Depth ? m_points : none;
    const auto first = std::find_if(shown.begin(), shown.end(),
        [](const ExperimentPoint& p) { return p.config.policy.variant == Variant::Temporal; });
    if (first != shown.end()) c = first->config;
    const DeviceInfo* d = m_session.devices().find(c.placement.device);
    QString why = tr("no CUDA device here: the model needs the GPU's SM count and clocks.");
    if (d && first != shown.end() && !m_device.empty() && m_device != d->name) {
        why = tr("these results come from %1, this machine has %2: the model needs that GPU's clocks.")
                  .arg(QString::fromStdString(m_device), QString::fromStdString(d->name));
        d = nullptr;
    }
    m_model->show_model(c, d, shown, why);
}

void ExperimentsWindow::show_model_tab() {
    m_experiment->setCurrentIndex(m_experiment->findData(int(ExperimentKind::Depth)));
    m_tabs->setCurrentWidget(m_model);
}

void ExperimentsWindow::show_results() {
    const QString keep = m_show->currentData().toString();
    m_show->blockSignals(true);
    m_show->clear();
    m_show->addItem(tr("every series"), QString());
    std::vector<Variant> seen;
    for (const ExperimentPoint& p : m_points)
        if (std::find(seen.begin(), seen.end(), p.config.policy.variant) == seen.end()) {
            seen.push_back(p.config.policy.variant);
            const QString name = QString::fromLatin1(to_string(p.config.policy.variant).data());
            m_show->addItem(name, name);
        }
    m_show->setCurrentIndex(std::max(0, m_show->findData(keep)));
    m_show->blockSignals(false);
    m_charts->show_points(
        m_points, kind_title(m_kind), m_show->currentData().toString(), m_kind, ran_on_cpu_loop(m_points, m_device));
    fill_table();
    update_model();
}

void ExperimentsWindow::fill_table() {
    const QStringList headers { tr("series"), tr("radius"), tr("CF"), tr("block"), tr("GCells/s"), tr("× base"),
        tr("bottleneck GB/s"), tr("bottleneck × base"), tr("error"), tr("depth"), tr("DRAM B/cell/step") };
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(m_points.size()));
    const bool cpu_loop = ran_on_cpu_loop(m_points, m_device);
    for (int i = 0; i < int(m_points.size()); ++i) {
        const ExperimentPoint& p = m_points[i];
        auto cell = [&](int column, const QString& text, double sort_value = NAN) {
            auto* item = new QTableWidgetItem(text);
            if (std::isfinite(sort_value)) item->setData(Qt::DisplayRole, sort_value);
            m_table->setItem(i, column, item);
        };
        cell(0, QString::fromStdString(p.series));
        cell(1, QString(), p.config.problem.radius);
        cell(2, QString(), p.config.policy.cf);
        cell(3, cpu_loop ? QStringLiteral("–") : QString::fromStdString(format_block(p.config.policy.block)));
        cell(4, number(p.gcells_per_s, 1), p.error.empty() ? p.gcells_per_s : NAN);
        cell(5, number(p.improvement, 2), p.improvement);
        cell(6, number(p.bottleneck_gbs, 0), p.bottleneck_gbs);
        cell(7, number(p.bottleneck_improvement, 2), p.bottleneck_improvement);
        cell(8, QString::fromStdString(p.error));
        cell(9, QString(), fused_steps(p.config.policy));
        cell(10, number(p.dram_bytes_per_cell, 3), p.dram_bytes_per_cell);
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
}

void ExperimentsWindow::show_only(const QString& variant) {
    m_show->setCurrentIndex(std::max(0, m_show->findData(variant)));
}

} // namespace ss::gui
