// SPDX-License-Identifier: MIT
// Setup files and lesson presets: the whole configuration the window runs, as JSON. The run keys are
// the CLI's option names ("stencil": "star", "size": "1024x1024", "block": "heuristic"; a point stencil by its name,
// "stencil": "2d25pt", or a user's stencil by its file, "stencil-file": "/abs/path.json"); they are turned
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
    // its effect ("gpu", "two-gpus": a split over two GPUs, "counters"), and what the CPU backend will and will
    // not show.
    QString lesson_id;
    QStringList needs;
    QString on_cpu;
};

// The most steps per displayed frame: the control panel's knob, setup files and --steps-per-frame share it, so that a
// window's setting saves into a setup that loads again.
inline constexpr int kMaxStepsPerFrame = 1000000;

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
// A --setup argument as a path: FILE.json as given, "lesson:ID" the embedded lesson with that id. Empty,
// with `why`, for an unknown id.
QString setup_path_for(const QString& setup, QString* why);
// The lesson's results as recorded by bench/record_lessons.sh (":/lessons/recorded_h100.json", each lesson on
// its own device and date), as plain text headed "Recorded on <device> <date>", or a line saying that none is
// recorded yet.
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

// What a lesson needs, in words ("a CUDA GPU, with hardware counters (CUPTI) on"); "" when it needs nothing.
QString lesson_needs_text(const QStringList& needs);
// What this window lacks of what a lesson needs, and what it shows instead: one line, or "" when nothing the
// CPU backend's own text ("on-cpu") does not already say is missing. `cuda_gpus`: the CUDA GPUs present
// (< 0: unknown, nothing said).
QString lesson_missing_text(const QStringList& needs, bool cpu_backend, int cuda_gpus);

// Where the lessons' recording is read from: ":/lessons/recorded_h100.json" (resources/lessons/), or the file the
// test hook STENCILSCOPE_LESSON_RECORDING names (a recording made on the device, shot before it is built in).
QString lesson_recording_path();
// A lesson's recording (resources/lessons/recorded_h100.json): the device and date it was recorded on, and how
// its runs were placed when that differs from the lesson's own placement ("two strips on one GPU ..."). Empty
// fields when it is not recorded yet.
struct LessonRecording {
    QString device, date, placement;
    bool placeholder = true;
};
LessonRecording lesson_recording(const QString& lesson_id);

} // namespace ss::gui
