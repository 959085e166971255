// SPDX-License-Identifier: MIT
#include "session/lesson_exercises.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ss::gui {
namespace {

// The figure an answer kind ranks by, and whether more of it wins; none for an unknown kind.
struct Ranking {
    double (*figure)(const ComparedRun&);
    bool more_wins;
    const char* winner_words; // "the fastest": what "... is <label>" says of the winner
};

std::optional<Ranking> ranking_for(const QString& kind) {
    auto rate = [](const ComparedRun& r) { return r.gcells_per_s; };
    auto registers = [](const ComparedRun& r) { return double(r.resources.registers); };
    auto occupancy = [](const ComparedRun& r) { return r.resources.theoretical_occupancy; };
    if (kind == QLatin1String("fastest")) return Ranking { rate, true, "the fastest" };
    if (kind == QLatin1String("slowest")) return Ranking { rate, false, "the slowest" };
    if (kind == QLatin1String("most-registers"))
        return Ranking { registers, true, "the one using the most registers per thread" };
    if (kind == QLatin1String("fewest-registers"))
        return Ranking { registers, false, "the one using the fewest registers per thread" };
    if (kind == QLatin1String("highest-occupancy"))
        return Ranking { occupancy, true, "the one with the highest theoretical occupancy" };
    return std::nullopt;
}

QString run_line(const ComparedRun& r) {
    const QString label = QString::fromStdString(r.label);
    if (!r.error.empty()) return QStringLiteral("  %1: not measured: %2").arg(label, QString::fromStdString(r.error));
    return QStringLiteral("  %1: %2 GCells/s, %3 registers, occupancy %4 %")
        .arg(label)
        .arg(r.gcells_per_s, 0, 'f', 1)
        .arg(r.resources.registers)
        .arg(r.resources.theoretical_occupancy * 100.0, 0, 'f', 0);
}

} // namespace

QStringList exercise_answer_kinds() {
    return { QStringLiteral("fastest"), QStringLiteral("slowest"), QStringLiteral("most-registers"),
        QStringLiteral("fewest-registers"), QStringLiteral("highest-occupancy") };
}

bool read_lesson_exercises(const QString& path, std::vector<LessonExercise>& out, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (why) *why = QStringLiteral("cannot read %1").arg(path);
        return false;
    }
    const QJsonObject lesson = QJsonDocument::fromJson(file.read(kMaxSetupBytes)).object();
    QStringList labels;
    for (const QJsonValue& entry : lesson.value(QStringLiteral("compare")).toArray())
        labels << entry.toObject().value(QStringLiteral("label")).toString();
    std::vector<LessonExercise> exercises;
    for (const QJsonValue& value : lesson.value(QStringLiteral("exercises")).toArray()) {
        const QJsonObject entry = value.toObject();
        LessonExercise e;
        e.question = entry.value(QStringLiteral("question")).toString();
        for (const QJsonValue& choice : entry.value(QStringLiteral("choices")).toArray())
            e.choices << choice.toString();
        e.answer_from = entry.value(QStringLiteral("answer-from")).toString();
        auto refuse = [&](const QString& what) {
            if (why) *why = QStringLiteral("%1, exercise \"%2\": %3").arg(path, e.question, what);
            return false;
        };
        if (e.question.isEmpty()) return refuse(QStringLiteral("no question"));
        if (e.choices.size() < 2) return refuse(QStringLiteral("fewer than two choices"));
        for (const QString& choice : e.choices)
            if (!labels.contains(choice))
                return refuse(QStringLiteral("\"%1\" is not one of the lesson's compared runs (%2)")
                                  .arg(choice, labels.join(QStringLiteral(", "))));
        if (!ranking_for(e.answer_from))
            return refuse(QStringLiteral("unknown answer-from \"%1\" (known: %2)")
                              .arg(e.answer_from, exercise_answer_kinds().join(QStringLiteral(", "))));
        exercises.push_back(std::move(e));
    }
    out = std::move(exercises);
    return true;
}

std::vector<ComparedRun> exercise_requests(const LessonExercise& e, const std::vector<LessonRun>& runs) {
    std::vector<ComparedRun> out;
    for (const QString& choice : e.choices) {
        const auto it = std::find_if(runs.begin(), runs.end(), [&](const LessonRun& r) { return r.label == choice; });
        if (it == runs.end()) continue;
        ComparedRun asked;
        asked.label = choice.toStdString();
        asked.config = it->setup.settings.config;
        out.push_back(std::move(asked));
    }
    return out;
}

PredictionVerdict check_prediction(
    const LessonExercise& e, const QString& chosen, const std::vector<ComparedRun>& runs) {
    PredictionVerdict v;
    QStringList lines;
    std::vector<const ComparedRun*> measured;
    for (const ComparedRun& r : runs) {
        lines << run_line(r);
        if (r.error.empty()) measured.push_back(&r);
    }
    const std::optional<Ranking> ranking = ranking_for(e.answer_from);
    if (!ranking || measured.size() < 2) {
        v.text = QStringLiteral("Not decided: fewer than two of the choices could be measured.\n")
            + lines.join(QLatin1Char('\n'));
        return v;
    }
    double best = ranking->figure(*measured.front());
    for (const ComparedRun* r : measured)
        best = ranking->more_wins ? std::max(best, ranking->figure(*r)) : std::min(best, ranking->figure(*r));
    for (const ComparedRun* r : measured) // ties: within a part in a million (occupancies and registers are exact)
        if (std::fabs(ranking->figure(*r) - best) <= 1e-6 * std::max(std::fabs(best), 1e-12))
            v.answers << QString::fromStdString(r->label);
    v.decided = true;
    v.right = v.answers.contains(chosen);
    const QString winners = v.answers.join(QStringLiteral(" and ")), words = QLatin1String(ranking->winner_words);
    v.text = v.right ? QStringLiteral("Right: %1 is %2.").arg(words, winners)
                     : QStringLiteral("Not this time: you chose %1; %2 is %3.").arg(chosen, words, winners);
    v.text += QStringLiteral("\nMeasured on this GPU:\n") + lines.join(QLatin1Char('\n'));
    return v;
}

QString prediction_unavailable(Backend backend) {
    if (backend != Backend::Cpu) return {};
    return QStringLiteral("The CPU backend runs one host loop for every variant, block and CF, so which choice "
                          "wins says nothing about a GPU: the prediction can only be checked on a CUDA GPU.");
}

} // namespace ss::gui
