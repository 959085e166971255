// SPDX-License-Identifier: MIT
#include "widgets/lesson_runs_chart.h"

#include "widgets/plain_text.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QFile>
#include <QHorizontalBarSeries>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>

namespace ss::gui {

std::vector<RecordedCase> recorded_cases(const QString& lesson_id) {
    QFile file(QStringLiteral(":/lessons/recorded_h100.json")); // in the session library's resources
    if (lesson_id.isEmpty() || !file.open(QIODevice::ReadOnly)) return {};
    const QJsonArray runs = QJsonDocument::fromJson(file.readAll())
                                .object()
                                .value(QStringLiteral("lessons"))
                                .toObject()
                                .value(lesson_id)
                                .toArray();
    std::vector<RecordedCase> cases;
    for (const QJsonValue& v : runs) {
        const QJsonObject run = v.toObject();
        RecordedCase c;
        c.label = run.value(QStringLiteral("label")).toString();
        c.gcells_per_s = run.value(QStringLiteral("gcells_per_s")).toDouble(-1.0);
        c.refused = run.value(QStringLiteral("refused")).toString();
        cases.push_back(c);
    }
    return cases;
}

LessonRunsChart::LessonRunsChart(QWidget* parent)
    : QChartView(new QChart, parent) {
    setObjectName(QStringLiteral("lesson_runs_chart"));
    setRenderHint(QPainter::Antialiasing);
    chart()->setAnimationOptions(QChart::NoAnimation);
    chart()->setMargins(QMargins(2, 2, 2, 2));
    chart()->legend()->hide();
    m_names = new QBarCategoryAxis;
    m_values = new QValueAxis;
    m_values->setLabelFormat(QStringLiteral("%.0f"));
    m_values->setTickCount(3);
    chart()->addAxis(m_names, Qt::AlignLeft);
    chart()->addAxis(m_values, Qt::AlignBottom);
    setToolTip(tr("Each recorded case's rate on the lesson's device (bench/record_lessons.sh); the lesson's text "
                  "says what to compare. A refused case has no bar: its reason follows the text."));
}

void LessonRunsChart::show_cases(const std::vector<RecordedCase>& cases, const QString& device) {
    QChart* c = chart();
    c->removeAllSeries(); // the axes stay: Qt Charts 6.4 leaves ghost labels of removed axes behind
    m_labels.clear();
    auto* set = new QBarSet(tr("GCells/s"));
    QStringList categories;
    double top = 0.0;
    // Horizontal bars are drawn bottom up: the recording's first case goes last to be read first.
    for (auto it = cases.rbegin(); it != cases.rend(); ++it) {
        const bool measured = it->gcells_per_s >= 0.0;
        const QString label = measured ? QStringLiteral("%1: %2").arg(it->label).arg(it->gcells_per_s, 0, 'f', 1)
            : !it->refused.isEmpty()   ? tr("%1: refused").arg(it->label)
                                       : tr("%1: not recorded").arg(it->label);
        // The rate goes at the bar's end (below), so a narrow dock elides the case's name, never its figure.
        categories << chart_text(measured ? it->label : label);
        m_labels.prepend(label);
        set->append(measured ? it->gcells_per_s : 0.0);
        top = std::max(top, it->gcells_per_s);
    }
    setVisible(top > 0.0);
    if (top <= 0.0) {
        delete set;
        return;
    }
    c->setTitle(chart_text(tr("Recorded on %1: GCells/s").arg(device)));
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(4);
    set->setLabelColor(palette().color(QPalette::WindowText)); // the theme's default is white, for labels on bars
    c->addSeries(series);
    m_names->clear();
    m_names->append(categories);
    m_values->setRange(0.0, top * 1.3); // room for the figure beyond the longest bar
    m_values->applyNiceNumbers();
    series->attachAxis(m_names);
    series->attachAxis(m_values);
    setMinimumHeight(70 + 22 * int(cases.size()));
}

} // namespace ss::gui
