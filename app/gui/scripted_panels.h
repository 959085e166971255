// SPDX-License-Identifier: MIT
// The scripted pictures of the windows beside the field, for the docs and the user guide: --roofline-screenshot,
// --kernel-source-screenshot and --exercise-screenshot (with --exercise-run). After run_scripted's frames each
// window opens as its menu opens it, and is grabbed once what it shows has arrived.
#pragma once

#include "app/gui/gui_options.h"

#include <iosfwd>
#include <string>

namespace ss::gui {

// Refuses before any window opens (exit 2), one line or "": an output that cannot be written, two outputs that
// name one file, --exercise-run where nothing can be compiled (no NVRTC).
std::string precheck_panel_screenshots(const GuiOptions&);

// Where --roofline-screenshot FILE.png puts the chart's own export (with its caption): FILE-export.png.
std::string roofline_export_path(const std::string& screenshot);

// Writes the pictures asked for; on stdout one line each, saying what it shows. The exit status.
int run_panel_screenshots(MainWindow&, const GuiOptions&, std::ostream& out, std::ostream& err);

} // namespace ss::gui
