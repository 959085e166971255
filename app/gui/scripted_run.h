// SPDX-License-Identifier: MIT
// The non-interactive modes: --frames/--screenshot (docs, tests, classes), --benchmark-seconds and
// --soak-seconds.
// They drive a shown MainWindow from the event loop and return the process exit code.
#pragma once

#include "app/gui/gui_options.h"

#include <iosfwd>

namespace ss::gui {

// Refuses before any window opens (exit 2): an output that cannot be written, a sweep CSV (--open-sweep) that
// does not load or lacks the --sweep-show variant. One line, or "". The configuration is window_request.h's.
std::string precheck_scripted(const GuiOptions&);
// Why `path` cannot be written (its directory missing or refusing new files, not a writable file), or "".
std::string writable_problem(const std::string& path);

// --frames, then the pictures (--screenshot, --window-screenshot and scripted_panels.h's); `out` says what
// the windows' pictures show.
int run_scripted(MainWindow&, const GuiOptions&, std::ostream& out, std::ostream& err);
// --open-sweep with --sweep-png: the Experiments window's charts of a sweep CSV as PNG.
int run_sweep_chart(const GuiOptions&, std::ostream& err);
int run_benchmark(MainWindow&, const GuiOptions&, std::ostream& out, std::ostream& err);
// --soak-seconds: cycles scenes of knob values through the control panel, as a user would, and
// checks that resident memory stays flat (< 5 % growth after the first round) and nothing failed.
int run_soak(MainWindow&, const GuiOptions&, std::ostream& out, std::ostream& err);

} // namespace ss::gui
