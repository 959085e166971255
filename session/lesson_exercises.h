// SPDX-License-Identifier: MIT
// A lesson's predict exercises (issue 38, "Try it yourself"): a question over some of the lesson's compared
// runs ("choices": labels of its "compare" entries) whose answer the run decides ("answer-from": which choice
// is fastest, slowest, uses the most or fewest registers, or reaches the highest theoretical occupancy). The
// student picks a choice, the engine measures the choices (JobRequest::Kind::Compare) and the verdict says
// whether the prediction was right, with the measured numbers. Qt Core only.
#pragma once

#include "session/engine_types.h"
#include "session/setup_file.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ss::gui {

struct LessonExercise {
    QString question;
    QStringList choices; // labels of the lesson's compare entries
    QString answer_from; // one of exercise_answer_kinds()
};

// "fastest", "slowest", "most-registers", "fewest-registers", "highest-occupancy".
QStringList exercise_answer_kinds();

// The lesson file's "exercises" (none is fine). False, with `why`, when one names a choice the lesson does not
// compare, has fewer than two choices, or an unknown "answer-from".
bool read_lesson_exercises(const QString& path, std::vector<LessonExercise>& out, QString* why);

// The compared runs an exercise asks the engine for: its choices' entries of `runs` (read_lesson_runs), in the
// choices' order.
std::vector<ComparedRun> exercise_requests(const LessonExercise&, const std::vector<LessonRun>& runs);

struct PredictionVerdict {
    bool decided = false; // the runs decide the question (enough of them measured)
    bool right = false;
    QStringList answers; // the choices that win (ties: each of them)
    QString text; // the verdict, then one line per measured choice
};
PredictionVerdict check_prediction(const LessonExercise&, const QString& chosen, const std::vector<ComparedRun>&);

// Why the predictions cannot be checked on this backend ("" when they can): the CPU runs one host loop for
// every variant, block and CF, so which one wins says nothing about a GPU.
QString prediction_unavailable(Backend);

} // namespace ss::gui
