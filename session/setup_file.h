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
#include <QString>
#include <QStringList>

#include <optional>

namespace ss::gui {

struct SetupState {
    RunSettings settings;
    int steps_per_frame = 10;
    std::optional<ColormapKind> colormap; // none: chosen for the update rule
    std::optional<SliceSelection> slice; // none: the middle plane
    QString title, explanation; // lessons only
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

} // namespace ss::gui
