// SPDX-License-Identifier: MIT
// A lesson's recorded runs drawn as bars (GCells/s per case, as recorded on the lesson's device) rather
// than a table to scroll; a case the recording refused is named with its reason, not drawn as a bar. Painted here,
// not with Qt Charts: in a dock 250 px wide its category axis elided every case's name to "...".
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace ss::gui {

struct RecordedCase {
    QString label;
    double gcells_per_s = -1.0; // < 0: none recorded
    QString refused; // why the recording's run refused this configuration, if it did
};

// The recorded cases of a lesson (resources/lessons/recorded_h100.json), in the recording's order.
std::vector<RecordedCase> recorded_cases(const QString& lesson_id);

class LessonRunsChart : public QWidget {
    Q_OBJECT
public:
    explicit LessonRunsChart(QWidget* parent = nullptr);
    // Hidden when no case has a figure.
    void show_cases(const std::vector<RecordedCase>&, const QString& device);
    // The bars' labels top to bottom ("CF 8: 332.8"), refused cases included ("fp64 16x8x4: refused"), for tests.
    QStringList bar_labels() const { return m_labels; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent*) override; // a row's tooltip: its whole name and figure

private:
    int row_height() const;
    int row_at(int y) const; // -1: no row there

    std::vector<RecordedCase> m_cases;
    QString m_title;
    double m_top = 0.0;
    QStringList m_labels;
};

} // namespace ss::gui
