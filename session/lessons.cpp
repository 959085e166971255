// SPDX-License-Identifier: MIT
// The embedded lessons and their recorded results. Apart from setup_file.cpp so that the loader needs
// Qt Core only (the fuzz target links it without the resources or any widget).
#include "session/setup_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// The resources live in this static library: register them before the first lookup.
static void init_resources() {
    Q_INIT_RESOURCE(presets);
}

namespace ss::gui {

QStringList lesson_paths() {
    init_resources();
    QStringList paths;
    const QDir dir(QStringLiteral(":/presets"));
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name))
        paths << dir.filePath(name);
    return paths;
}

QString lesson_needs_text(const QStringList& needs) {
    const bool gpu = needs.contains(QLatin1String("gpu")), counters = needs.contains(QLatin1String("counters"));
    if (gpu && counters) return QStringLiteral("a CUDA GPU, with hardware counters (CUPTI) on");
    if (gpu) return QStringLiteral("a CUDA GPU");
    if (counters) return QStringLiteral("hardware counters (CUPTI) on");
    return {};
}

namespace {

// One recorded run as a line: its label, then the figures the recording has (null ones are left out).
QString run_line(const QJsonObject& run) {
    QStringList parts;
    auto number = [&](const char* key, const QString& format) {
        const QJsonValue v = run.value(QLatin1String(key));
        if (v.isDouble()) parts << format.arg(v.toDouble(), 0, 'g', 4);
    };
    number("gcells_per_s", QStringLiteral("%1 GCells/s"));
    number("ms_per_step", QStringLiteral("%1 ms/step"));
    number("registers", QStringLiteral("%1 registers"));
    number("local_bytes", QStringLiteral("%1 spill bytes"));
    number("smem_bytes", QStringLiteral("%1 B shared"));
    const QJsonValue occupancy = run.value(QStringLiteral("theoretical_occupancy"));
    if (occupancy.isDouble())
        parts << QStringLiteral("occupancy %1 % (%2)")
                     .arg(occupancy.toDouble() * 100.0, 0, 'f', 0)
                     .arg(run.value(QStringLiteral("occupancy_limiter")).toString());
    const QString block = run.value(QStringLiteral("block")).toString();
    if (!block.isEmpty()) parts << QStringLiteral("block %1").arg(block);
    const QString label = run.value(QStringLiteral("label")).toString();
    return QStringLiteral("  %1: %2")
        .arg(label, parts.isEmpty() ? QStringLiteral("(placeholder)") : parts.join(QStringLiteral(", ")));
}

} // namespace

QString recorded_lesson_text(const QString& lesson_id) {
    init_resources();
    QFile file(QStringLiteral(":/lessons/recorded_h100.json"));
    if (lesson_id.isEmpty() || !file.open(QIODevice::ReadOnly)) return {};
    const QJsonObject all = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray runs = all.value(QStringLiteral("lessons")).toObject().value(lesson_id).toArray();
    if (runs.isEmpty()) return {};
    const QString device = all.value(QStringLiteral("device")).toString(QStringLiteral("H100"));
    QString text;
    if (all.value(QStringLiteral("placeholder")).toBool())
        text = QStringLiteral("Recorded on H100: not yet (placeholders; bench/record_lessons.sh on an H100 fills "
                              "them in)\n");
    else
        text = QStringLiteral("Recorded on %1 %2 (bench/record_lessons.sh):\n")
                   .arg(device, all.value(QStringLiteral("date")).toString());
    QStringList lines;
    for (const QJsonValue& run : runs) lines << run_line(run.toObject());
    return text + lines.join(QLatin1Char('\n'));
}

} // namespace ss::gui

namespace ss::gui {

bool read_lesson_runs(const QString& path, const RunSettings& current, std::vector<LessonRun>& out, QString* why) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (why) *why = QStringLiteral("cannot read %1").arg(path);
        return false;
    }
    const QJsonObject lesson = QJsonDocument::fromJson(file.read(kMaxSetupBytes)).object();
    std::vector<LessonRun> runs;
    for (const QJsonValue& value : lesson.value(QStringLiteral("compare")).toArray()) {
        const QJsonObject entry = value.toObject();
        QJsonObject merged = lesson;
        merged.remove(QStringLiteral("compare"));
        const QJsonObject set = entry.value(QStringLiteral("set")).toObject();
        for (auto it = set.begin(); it != set.end(); ++it) merged.insert(it.key(), it.value());
        if (set.contains(QStringLiteral("size"))) merged.remove(QStringLiteral("cpu-size"));
        LessonRun run;
        run.label = entry.value(QStringLiteral("label")).toString();
        run.expect = entry.value(QStringLiteral("expect")).toObject();
        if (!setup_from_json(QJsonDocument(merged).toJson(), current, run.setup, why)) {
            if (why) *why = QStringLiteral("%1, run \"%2\": %3").arg(path, run.label, *why);
            return false;
        }
        runs.push_back(std::move(run));
    }
    out = std::move(runs);
    return true;
}

} // namespace ss::gui
