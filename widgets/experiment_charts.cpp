// SPDX-License-Identifier: MIT
#include "widgets/experiment_charts.h"

#include "widgets/chart_view.h"
#include "widgets/cpu_loop_caveat.h"
#include "widgets/export_util.h"
#include "widgets/plain_text.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace ss::gui {
namespace {

QChartView* make_view(QWidget* parent) {
    return make_chart_view(parent, 200);
}

// The x axis: radii ("R4"), or depths ("t 9") for a depth sweep.
struct Categories {
    std::vector<int> values;
    QString axis_title, prefix;
};

// One bar set per series, one category per radius (or depth); a missing or failed point is a zero-height bar.
void fill(QChartView* view, const QString& title, const QString& unit, const QStringList& series,
    const Categories& categories, const std::map<std::pair<QString, int>, double>& values, double reference) {
    const std::vector<int>& radii = categories.values;
    // The axes stay for the chart's lifetime: Qt Charts 6.4 leaves ghost labels of removed axes behind.
    QChart* chart = view->chart();
    chart->removeAllSeries();
    auto* x = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).value(0));
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    if (!x) {
        x = new QBarCategoryAxis;
        chart->addAxis(x, Qt::AlignBottom);
    }
    x->setTitleText(chart_text(categories.axis_title));
    if (!y) {
        y = new QValueAxis;
        chart->addAxis(y, Qt::AlignLeft);
    }
    chart->setTitle(chart_text(title)); // Qt Charts draw titles, legends and labels as HTML
    auto* bars = new QBarSeries;
    double top = reference;
    for (const QString& name : series) {
        auto* set = new QBarSet(chart_text(name)); // a series named in the sweep CSV
        for (int r : radii) {
            const auto it = values.find({ name, r });
            const double v = it != values.end() && std::isfinite(it->second) ? it->second : 0.0;
            set->append(v);
            top = std::max(top, v);
        }
        bars->append(set);
    }
    chart->addSeries(bars);
    x->clear();
    for (int r : radii) x->append(categories.prefix + QString::number(r));
    y->setTitleText(chart_text(unit));
    y->setRange(0.0, top > 0 ? top * 1.1 : 1.0);
    y->setLabelFormat(top < 10 ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    y->applyNiceNumbers();
    bars->attachAxis(x);
    bars->attachAxis(y);
}

} // namespace

ExperimentCharts::ExperimentCharts(QWidget* parent)
    : QWidget(parent)
    , m_performance(make_view(this))
    , m_improvement(make_view(this))
    , m_bottleneck(make_view(this))
    , m_note(plain_label(new QLabel(this))) { // the note names series and devices from the CSV
    m_note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_performance, 1);
    layout->addWidget(m_improvement, 1);
    layout->addWidget(m_bottleneck, 1);
    layout->addWidget(m_note);
    m_performance->setToolTip(tr("Updated cells per second of each kernel (median of the timed runs)."));
    m_improvement->setToolTip(tr("Each kernel's rate divided by base (CF 1, heuristic block) at the same radius: "
                                 "the thesis' \"improvement over the baseline normalized by the stencil radius\". "
                                 "1.0 = as fast as base."));
    m_bottleneck->setToolTip(tr("The thesis' bottleneck metric relative to base at the same radius: DRAM write "
                                "throughput in 2D, local-memory (spill) throughput in 3D. When it follows the "
                                "performance bars, that metric is what limits the kernels."));
    clear();
}

void ExperimentCharts::clear() {
    show_points({}, tr("No sweep yet"));
}

void ExperimentCharts::show_points(const std::vector<ExperimentPoint>& points, const QString& title,
    const QString& series_filter, ExperimentKind kind, bool cpu_loop) {
    const bool depth = kind == ExperimentKind::Depth;
    std::set<int> category_set, radius_set;
    for (const ExperimentPoint& p : points) radius_set.insert(p.config.problem.radius);
    m_series.clear();
    std::map<std::pair<QString, int>, double> rate, improvement, bottleneck, bottleneck_gbs, bytes;
    bool any_bottleneck = false, any_counters = false, any_traffic = false, three = false;
    QStringList references; // a depth sweep's base points: the single-step rate its bars are measured against
    for (const ExperimentPoint& p : points) {
        QString name = QString::fromStdString(p.series);
        if (!series_filter.isEmpty() && QLatin1String(to_string(p.config.policy.variant).data()) != series_filter)
            continue;
        if (depth && p.config.policy.variant != Variant::Temporal) {
            if (p.error.empty())
                references << tr("%1 at R%2: %3 GCells/s")
                                  .arg(name)
                                  .arg(p.config.problem.radius)
                                  .arg(p.gcells_per_s, 0, 'f', 1);
            continue;
        }
        // Bars over the depth: one series per radius when there are several.
        if (depth && radius_set.size() > 1) name += QStringLiteral(" R%1").arg(p.config.problem.radius);
        const int category = depth ? p.config.policy.depth : p.config.problem.radius;
        category_set.insert(category);
        if (!m_series.contains(name)) m_series << name;
        three = three || p.config.problem.dims == 3;
        if (!p.error.empty()) continue;
        rate[{ name, category }] = p.gcells_per_s;
        improvement[{ name, category }] = p.improvement;
        bottleneck[{ name, category }] = p.bottleneck_improvement;
        bottleneck_gbs[{ name, category }] = p.bottleneck_gbs;
        bytes[{ name, category }] = p.dram_bytes_per_cell;
        any_bottleneck = any_bottleneck || std::isfinite(p.bottleneck_improvement);
        any_counters = any_counters || (depth ? std::isfinite(p.dram_bytes_per_cell) : std::isfinite(p.bottleneck_gbs));
        any_traffic = any_traffic || (std::isfinite(p.bottleneck_gbs) && p.bottleneck_gbs > 0);
    }
    const Categories categories { std::vector<int>(category_set.begin(), category_set.end()),
        depth ? tr("depth t (steps per launch)") : tr("stencil radius"),
        depth ? QStringLiteral("t") : QStringLiteral("R") };
    m_radii.clear();
    for (int r : categories.values) m_radii << categories.prefix + QString::number(r);
    // On the CPU backend the bars compare one loop with itself: the titles say so, not only the note.
    const QString same_loop = cpu_loop ? tr(" — CPU backend: the same loop for every series") : QString();
    fill(m_performance, title + same_loop, cpu_loop ? rate_caption(true) : tr("GCells/s"), m_series, categories, rate,
        0.0);
    fill(m_improvement,
        (depth ? tr("Improvement over base (one step per launch) at the same radius")
               : tr("Improvement over base at the same radius"))
            + (cpu_loop ? tr(" — CPU backend: noise around 1.0") : QString()),
        tr("× base"), m_series, categories, improvement, 1.0);
    const QString metric = depth ? tr("DRAM bytes per cell and step")
        : three                  ? tr("local-memory throughput")
                                 : tr("DRAM write throughput");
    // A ratio needs base traffic; without it (base does not spill) the chart shows the GB/s themselves.
    if (depth)
        fill(m_bottleneck,
            tr("%1 (a launch moves each cell once for its t steps: ideal 2 × element size / t)").arg(metric),
            tr("bytes"), m_series, categories, bytes, 0.0);
    else if (any_bottleneck)
        fill(m_bottleneck, tr("%1 improvement over base").arg(metric), tr("× base"), m_series, categories, bottleneck,
            1.0);
    else
        fill(m_bottleneck, tr("%1").arg(metric), tr("GB/s"), m_series, categories, bottleneck_gbs, 0.0);
    m_bottleneck->setVisible(any_counters);
    int failed = 0;
    for (const ExperimentPoint& p : points) failed += p.error.empty() ? 0 : 1;
    QString note;
    if (!points.empty() && !any_counters)
        note = depth ? tr("No counters in this sweep: run it with hardware counters to chart the %1 against the depth.")
                           .arg(metric)
                     : tr("No counters in this sweep: run it with hardware counters to chart the %1 next to the "
                          "performance, as the thesis does.")
                           .arg(metric);
    else if (!depth && any_counters && !any_traffic)
        note = tr("The %1 is 0 GB/s for every kernel here: nothing spills to local memory.").arg(metric);
    else if (!depth && any_counters && !any_bottleneck)
        note = tr("base has no %1, so the chart shows GB/s instead of a ratio.").arg(metric);
    if (!references.isEmpty())
        note += (note.isEmpty() ? QString() : QStringLiteral(" "))
            + tr("Reference (not charted): %1.").arg(references.join(QStringLiteral("; ")));
    if (failed > 0)
        note += (note.isEmpty() ? QString() : QStringLiteral(" "))
            + tr("%n configuration(s) could not run (empty bars; the table says why).", nullptr, failed);
    if (cpu_loop && !points.empty()) note = cpu_loop_caveat() + (note.isEmpty() ? QString() : QLatin1Char(' ') + note);
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

QString ExperimentCharts::note() const {
    return m_note->isHidden() ? QString() : m_note->text();
}

bool ExperimentCharts::bottleneck_shown() const {
    return !m_bottleneck->isHidden();
}

bool ExperimentCharts::save_png(const QString& path, QString* why, const QString& caption) {
    return save_widget_png(this, path, why, caption);
}

} // namespace ss::gui
