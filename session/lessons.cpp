// SPDX-License-Identifier: MIT
// The embedded lessons and their recorded results. Apart from setup_file.cpp so that the loader needs
// Qt Core only (the fuzz target links it without the resources or any widget).
#include "session/setup_file.h"

#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "reports/run_options.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

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

QString setup_path_for(const QString& setup, QString* why) {
    static const QString prefix = QStringLiteral("lesson:");
    if (!setup.startsWith(prefix)) return setup;
    const QString id = setup.mid(prefix.size());
    QStringList ids;
    for (const QString& path : lesson_paths()) {
        SetupState lesson;
        if (!read_setup_file(path, RunSettings {}, lesson, nullptr)) continue;
        if (lesson.lesson_id == id) return path;
        ids << lesson.lesson_id;
    }
    // The id as a message quotes it (cut, one line): a pasted file must not be echoed whole.
    if (why)
        *why = QStringLiteral("no lesson '%1' (the lessons: %2)")
                   .arg(QString::fromStdString(quote_for_message(id.toStdString())), ids.join(QStringLiteral(", ")));
    return {};
}

QString lesson_needs_text(const QStringList& needs) {
    const bool gpu = needs.contains(QLatin1String("gpu")), counters = needs.contains(QLatin1String("counters"));
    const bool two = needs.contains(QLatin1String("two-gpus"));
    QString gpus = two ? QStringLiteral("two CUDA GPUs with peer access (GPU count 2)")
        : gpu          ? QStringLiteral("a CUDA GPU")
                       : QString();
    if (!gpus.isEmpty() && counters) return gpus + QStringLiteral(", with hardware counters (CUPTI) on");
    if (!gpus.isEmpty()) return gpus;
    if (counters) return QStringLiteral("hardware counters (CUPTI) on");
    return {};
}

QString lesson_missing_text(const QStringList& needs, bool cpu_backend, int cuda_gpus) {
    // The CPU backend's own text ("on-cpu") says what shows there; one GPU needs saying here.
    if (cpu_backend || cuda_gpus < 0 || cuda_gpus >= 2 || !needs.contains(QLatin1String("two-gpus"))) return {};
    return QStringLiteral("This window has %1 CUDA GPU%2, so GPU count 2 is not available: the live run has no strips, "
                          "nothing is copied or loaded from a neighbour, and the halo choices and the per-GPU table "
                          "stay off. The recorded runs below show the comparison.")
        .arg(cuda_gpus)
        .arg(cuda_gpus == 1 ? QString() : QStringLiteral("s"));
}

QString lesson_recording_path() {
    init_resources();
    const std::string hook = knob_text(Knob::LessonRecording);
    return hook.empty() ? QStringLiteral(":/lessons/recorded_h100.json") : QString::fromStdString(hook);
}

namespace {

QJsonObject recorded_results() {
    QFile file(lesson_recording_path());
    if (!file.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

LessonRecording recording_in(const QJsonObject& all, const QString& lesson_id) {
    // Each lesson's own device and date; older files name one device and date for all.
    const QJsonObject own = all.value(QStringLiteral("recordings")).toObject().value(lesson_id).toObject();
    const QJsonObject& from = own.isEmpty() ? all : own;
    LessonRecording r;
    r.placeholder = from.value(QStringLiteral("placeholder")).toBool(true);
    if (r.placeholder) return r;
    r.device = from.value(QStringLiteral("device")).toString();
    r.date = from.value(QStringLiteral("date")).toString();
    r.placement = own.value(QStringLiteral("placement")).toString();
    return r;
}

} // namespace

LessonRecording lesson_recording(const QString& lesson_id) {
    return recording_in(recorded_results(), lesson_id);
}

namespace {

// One recorded run as a line: its label, then the figures the recording has (null ones are left out). Each
// with fixed decimals, as the window shows it: GCells/s with one, ms with three, bytes and registers whole
// (the kernel resources box's "B").
QString run_line(const QJsonObject& run) {
    QStringList parts;
    auto number = [&](const char* key, const QString& format, int decimals) {
        const QJsonValue v = run.value(QLatin1String(key));
        if (v.isDouble()) parts << format.arg(v.toDouble(), 0, 'f', decimals);
    };
    number("gcells_per_s", QStringLiteral("%1 GCells/s"), 1);
    number("ms_per_step", QStringLiteral("%1 ms/step"), 3);
    number("registers", QStringLiteral("%1 registers"), 0);
    number("local_bytes", QStringLiteral("%1 spill bytes"), 0);
    number("smem_bytes", QStringLiteral("%1 B shared"), 0);
    const QJsonValue occupancy = run.value(QStringLiteral("theoretical_occupancy"));
    if (occupancy.isDouble())
        parts << QStringLiteral("occupancy %1 % (%2)")
                     .arg(occupancy.toDouble() * 100.0, 0, 'f', 0)
                     .arg(run.value(QStringLiteral("occupancy_limiter")).toString());
    const QString block = run.value(QStringLiteral("block")).toString();
    if (!block.isEmpty()) parts << QStringLiteral("block %1").arg(block);
    // Split runs: what crossed between the strips per step, and how long a step waited for it.
    const QJsonValue copied = run.value(QStringLiteral("halo_bytes_per_step"));
    const QString remote = run.value(QStringLiteral("remote_per_step")).toString();
    const QJsonValue exchange = run.value(QStringLiteral("exchange_ms_per_step"));
    if (!remote.isEmpty()) {
        parts << QStringLiteral("nothing copied, %1/step loaded from the neighbour (computed)").arg(remote);
        if (exchange.isDouble())
            parts << QStringLiteral("waits %1 ms/step for the neighbour's kernel").arg(exchange.toDouble(), 0, 'f', 3);
    } else if (copied.isDouble() && copied.toDouble() > 0) {
        parts << QStringLiteral("%1/step copied")
                     .arg(QString::fromStdString(bytes_text(std::int64_t(copied.toDouble()))));
        if (exchange.isDouble()) parts << QStringLiteral("exchange %1 ms/step").arg(exchange.toDouble(), 0, 'f', 3);
    }
    const QString label = run.value(QStringLiteral("label")).toString();
    // A configuration the recording's run refused has its reason instead of figures (the CLI's own words,
    // without the program's name).
    QString refused = run.value(QStringLiteral("refused")).toString();
    refused.remove(QRegularExpression(QStringLiteral("^stencilscope(-cli)?: ")));
    if (parts.isEmpty() && !refused.isEmpty()) return QStringLiteral("  %1: refused: %2").arg(label, refused);
    return QStringLiteral("  %1: %2")
        .arg(label, parts.isEmpty() ? QStringLiteral("(not recorded yet)") : parts.join(QStringLiteral(", ")));
}

} // namespace

QString recorded_lesson_text(const QString& lesson_id) {
    const QJsonObject all = recorded_results();
    const QJsonArray runs = all.value(QStringLiteral("lessons")).toObject().value(lesson_id).toArray();
    if (lesson_id.isEmpty() || runs.isEmpty()) return {};
    const LessonRecording r = recording_in(all, lesson_id);
    QString text;
    if (r.placeholder)
        text = QStringLiteral("Recorded on H100: not yet (placeholders; bench/record_lessons.sh on an H100 fills "
                              "them in)\n");
    else
        text = QStringLiteral("Recorded on %1 %2 (bench/record_lessons.sh)%3:\n")
                   .arg(r.device, r.date, r.placement.isEmpty() ? QString() : QStringLiteral(", ") + r.placement);
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
