// SPDX-License-Identifier: MIT
#include "widgets/lesson_runs_chart.h"

#include "session/setup_file.h"

#include <QFile>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace ss::gui {

std::vector<RecordedCase> recorded_cases(const QString& lesson_id) {
    QFile file(lesson_recording_path());
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
    : QWidget(parent) {
    setObjectName(QStringLiteral("lesson_runs_chart"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setToolTip(tr("Each recorded case's rate on the lesson's device (bench/record_lessons.sh); the lesson's text "
                  "says what to compare. A refused case has no bar: its reason follows the text."));
}

void LessonRunsChart::show_cases(const std::vector<RecordedCase>& cases, const QString& device) {
    m_cases = cases;
    m_labels.clear();
    m_top = 0.0;
    for (const RecordedCase& c : cases) {
        const bool measured = c.gcells_per_s >= 0.0;
        m_labels << (measured          ? QStringLiteral("%1: %2").arg(c.label).arg(c.gcells_per_s, 0, 'f', 1)
                : !c.refused.isEmpty() ? tr("%1: refused").arg(c.label)
                                       : tr("%1: not recorded").arg(c.label));
        m_top = std::max(m_top, c.gcells_per_s);
    }
    m_title = tr("Recorded on %1: GCells/s").arg(device);
    setVisible(m_top > 0.0);
    updateGeometry();
    update();
}

int LessonRunsChart::row_height() const {
    return fontMetrics().height() + 6;
}

QSize LessonRunsChart::sizeHint() const {
    return { 280, row_height() * (int(m_cases.size()) + 1) + 4 };
}

QSize LessonRunsChart::minimumSizeHint() const {
    return { 160, sizeHint().height() };
}

int LessonRunsChart::row_at(int y) const {
    const int row = y / row_height() - 1; // the title takes the first row
    return row >= 0 && row < int(m_cases.size()) ? row : -1;
}

bool LessonRunsChart::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        const int row = row_at(static_cast<QHelpEvent*>(e)->pos().y());
        if (row >= 0) {
            const RecordedCase& c = m_cases[std::size_t(row)];
            QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(),
                m_labels[row] + (c.refused.isEmpty() ? QString() : QStringLiteral("\n") + c.refused), this);
            return true;
        }
    }
    return QWidget::event(e);
}

// One row per case: its name in a column as wide as the longest (at most half the width, elided in the middle
// beyond that), then the bar, scaled to the fastest case, and the figure at its end; refused cases say so instead.
void LessonRunsChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const int h = row_height(), w = width();
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(4, 0, w - 8, h), Qt::AlignVCenter | Qt::AlignLeft,
        QFontMetrics(bold).elidedText(m_title, Qt::ElideRight, w - 8));
    p.setFont(font());
    int names = 0;
    for (const RecordedCase& c : m_cases) names = std::max(names, fm.horizontalAdvance(c.label));
    names = std::min(names, w / 2);
    const QString widest_figure = QString::number(m_top, 'f', 1);
    const int bar_left = 4 + names + 8,
              bar_room = std::max(10, w - bar_left - fm.horizontalAdvance(widest_figure) - 10);
    const QColor bar = palette().color(QPalette::Highlight);
    for (std::size_t i = 0; i < m_cases.size(); ++i) {
        const RecordedCase& c = m_cases[i];
        const int y = h * int(i + 1);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(
            QRect(4, y, names, h), Qt::AlignVCenter | Qt::AlignRight, fm.elidedText(c.label, Qt::ElideMiddle, names));
        if (c.gcells_per_s < 0.0) {
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRect(bar_left, y, w - bar_left, h), Qt::AlignVCenter | Qt::AlignLeft,
                c.refused.isEmpty() ? tr("not recorded") : tr("refused"));
            continue;
        }
        const int length = m_top > 0.0 ? int(std::lround(c.gcells_per_s / m_top * bar_room)) : 0;
        p.fillRect(QRect(bar_left, y + 3, std::max(length, 1), h - 6), bar);
        p.drawText(QRect(bar_left + length + 4, y, w - bar_left - length - 4, h), Qt::AlignVCenter | Qt::AlignLeft,
            QString::number(c.gcells_per_s, 'f', 1));
    }
}

} // namespace ss::gui
