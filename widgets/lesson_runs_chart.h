// SPDX-License-Identifier: MIT
// A lesson's recorded runs drawn as bars (GCells/s per case, as recorded on the lesson's device) rather
// than a table to scroll; a case the recording refused is named with its reason, not drawn as a bar.
#pragma once

#include <QChartView>
#include <QString>
#include <QStringList>

#include <vector>

class QBarCategoryAxis;
class QValueAxis;

namespace ss::gui {

struct RecordedCase {
    QString label;
    double gcells_per_s = -1.0; // < 0: none recorded
    QString refused; // why the recording's run refused this configuration, if it did
};

// The recorded cases of a lesson (resources/lessons/recorded_h100.json), in the recording's order.
std::vector<RecordedCase> recorded_cases(const QString& lesson_id);

class LessonRunsChart : public QChartView {
    Q_OBJECT
public:
    explicit LessonRunsChart(QWidget* parent = nullptr);
    // Hidden when no case has a figure.
    void show_cases(const std::vector<RecordedCase>&, const QString& device);
    // The bars' labels top to bottom ("CF 8: 332.8"), refused cases included ("fp64 16x8x4: refused"), for tests.
    QStringList bar_labels() const { return m_labels; }

private:
    QStringList m_labels;
    QBarCategoryAxis* m_names;
    QValueAxis* m_values;
};

} // namespace ss::gui
