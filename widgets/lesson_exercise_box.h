// SPDX-License-Identifier: MIT
// "Try it yourself" in the Lesson dock (issue 38): each of the lesson's predict exercises as a question with
// one radio button per choice and "Run and check". The Session runs the choices' configurations on the engine
// thread (a Compare job: the live run pauses meanwhile); the verdict says whether the prediction was right,
// with the measured numbers. Disabled, with the reason, where the answer cannot be measured (the CPU backend).
#pragma once

#include "session/engine_types.h"
#include "session/lesson_exercises.h"

#include <QGroupBox>

#include <vector>

class QButtonGroup;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace ss::gui {

class Session;

class LessonExerciseBox : public QGroupBox {
    Q_OBJECT
public:
    explicit LessonExerciseBox(Session&, QWidget* parent = nullptr);
    // The exercises of the lesson with this id (hidden when it has none); what the session's backend allows.
    void show_lesson(const QString& lesson_id);
    int exercise_count() const { return int(m_rows.size()); }
    // Selects a choice of exercise `index` as a click would (tests).
    void choose(int index, const QString& choice);
    // Starts exercise `index`'s run, as its button does; false when it cannot start (the reason shows).
    bool run(int index);
    // Shows the verdict on measured runs, as when the engine's Compare job comes back.
    void show_results(int index, const std::vector<ComparedRun>&);
    QString result_text(int index) const;
    bool run_enabled(int index) const;
    QString unavailable_text() const; // why nothing can be checked here; "" when it can

private:
    struct Row {
        LessonExercise exercise;
        QButtonGroup* group = nullptr;
        QPushButton* run = nullptr;
        QLabel* result = nullptr;
    };
    void update_buttons();
    QString chosen(int index) const;
    void on_progress(const JobProgress&);
    void on_finished(const JobOutcome&);

    Session& m_session;
    QWidget* m_rows_widget = nullptr;
    QVBoxLayout* m_rows_layout = nullptr;
    QLabel* m_unavailable = nullptr;
    std::vector<Row> m_rows;
    QString m_lesson_path;
    std::uint64_t m_job = 0;
    int m_job_row = -1;
};

} // namespace ss::gui
