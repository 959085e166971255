// SPDX-License-Identifier: MIT
// What the window checks before it opens (issue 36): the configuration it will open with passes the same
// validation as stencilscope-cli's (can_implement, a block no GPU could launch), and an option that cannot
// apply is refused, not ignored. --setup's file is read here, with the command line's options over it.
#pragma once

#include "app/gui/gui_options.h"
#include "session/setup_file.h"

#include <string>

namespace ss::gui {

// --setup FILE.json|lesson:ID: the setup, with the configuration and display options also given on the command
// line over the file's values (the command line wins; the hardware is the command line's anyway). On success
// `o.window` opens with it and `out` holds it for Session::apply_setup (the lesson's text); else one line.
std::string read_start_setup(GuiOptions& o, SetupState& out);

// The configuration `o.window` opens with, and the display options against it: "" or one line.
std::string check_window_request(const GuiOptions& o);

} // namespace ss::gui
