// SPDX-License-Identifier: MIT
// The Lesson dock: the open lesson's explanation (plain text: it comes from a file), its recorded runs
// (as text and as a bar chart), and the window as recorded on the lesson's device (a picture shipped with the app, for
// classes without a GPU); hidden until a lesson opens, whatever a restored layout says.
#pragma once
#include <QDockWidget>

class QLabel;
class QPushButton;

namespace ss::gui {

class LessonExerciseBox;
class LessonRunsChart;
class Session;

// Where a picture of size `picture` is drawn scaled to fit `area`, its aspect kept, centred.
QRect scaled_picture_rect(QSize picture, QSize area);

// The picture of a lesson's window recorded on the H100 (":/lesson-pictures/ID.png"), empty when none.
QString recorded_lesson_picture(const QString& lesson_id);

class LessonDock : public QDockWidget {
    Q_OBJECT
public:
    LessonDock(Session&, QWidget* parent);
    // What the dock shows; empty while it is hidden.
    QString text() const;
    // Opens the recorded window picture in a dialog (the dock's button does this).
    void show_recorded_picture();

signals:
    // A temporal lesson's button: show EBISU's model against the depth (the Experiments window's model tab).
    void model_chart_requested();
    // "Write the kernel…": the kernel exercise dialog (widgets/kernel_exercise_dialog.h).
    void kernel_exercise_requested();

private:
    QLabel* m_label = nullptr;
    QPushButton* m_picture_button = nullptr;
    QPushButton* m_model_button = nullptr;
    LessonRunsChart* m_runs_chart = nullptr; // the recorded runs as bars
    LessonExerciseBox* m_exercises = nullptr; // "Try it yourself": the lesson's predict exercises
    QString m_picture;
    QString m_recorded_on; // the device the lesson was recorded on, and how its runs were placed
};

} // namespace ss::gui
