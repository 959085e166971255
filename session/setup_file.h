// SPDX-License-Identifier: MIT
// Setup files and lesson presets: the whole configuration the window runs, as JSON. The run keys are
// the CLI's option names ("stencil": "star", "size": "1024x1024", "block": "heuristic"); they are turned
// into an argument list for ss::parse_run_options, so the GUI and the CLI share one validation. The
// GUI's own keys ("steps-per-frame", "colormap", "slice", "slice-index", "max-projection") are checked
// here. Presets add "title" and "explanation". Qt-only: no widgets, no CUDA.
#pragma once

#include "session/colormap_kind.h"
#include "session/engine_types.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ss::gui {

struct SetupState {
    RunSettings settings;
    int steps_per_frame = 10;
    std::optional<ColormapKind> colormap; // none: chosen for the update rule
    std::optional<SliceSelection> slice; // none: the middle plane
    QString title, explanation; // lessons only
    // Lessons: the key of its entry in the recorded results (recorded_lesson_text), what it needs to show
    // its effect ("gpu", "counters"), and what the CPU backend will and will not show.
    QString lesson_id;
    QStringList needs;
    QString on_cpu;
};

// Files larger than this are refused before they are parsed.
inline constexpr qint64 kMaxSetupBytes = 1 << 20;

QByteArray setup_to_json(const SetupState&);
// Parses `json`. Keys a file leaves out take the CLI's defaults, except the hardware (backend, device,
// gpus), which `current` keeps, so a lesson runs where the window runs. On failure returns false, sets
// `why` to one line and leaves `out` untouched. Does not check that the device can run it.
bool setup_from_json(const QByteArray& json, const RunSettings& current, SetupState& out, QString* why);
bool read_setup_file(const QString& path, const RunSettings& current, SetupState& out, QString* why);
bool write_setup_file(const QString& path, const SetupState&, QString* why);

// The lessons embedded in the resources (":/presets/*.json"), sorted by file name.
QStringList lesson_paths();
// The lesson's results as recorded on the H100 by bench/record_lessons.sh (":/lessons/recorded_h100.json"),
// as plain text headed "Recorded on <device> <date>", or a line saying that none is recorded yet.
QString recorded_lesson_text(const QString& lesson_id);
// One of the runs a lesson compares: the lesson's setup with the run's "set" keys over it, and the
// deterministic claims the lesson makes about it ("expect": checked on the device by gpu_lesson_claims,
// on a described H100 by tst_setup_file).
struct LessonRun {
    QString label;
    SetupState setup;
    QJsonObject expect;
};
bool read_lesson_runs(const QString& path, const RunSettings& current, std::vector<LessonRun>& out, QString* why);

// What a lesson needs, in words ("a CUDA GPU and hardware counters"); "" when it needs nothing.
QString lesson_needs_text(const QStringList& needs);

} // namespace ss::gui
