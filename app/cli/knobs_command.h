// SPDX-License-Identifier: MIT
// `stencilscope-cli knobs`: every STENCILSCOPE_* environment variable (gpu/plan/knobs.h) with its kind, the value
// in force and where it came from, its default and meaning; --markdown prints the table of docs/KNOBS.md.
// Qt-free.
#pragma once

#include <string>
#include <vector>

namespace ss {

// The plain table on stdout: one row per knob, read from the environment now.
std::string format_knobs_table();
// The table of docs/KNOBS.md (name, kind, takes, default, meaning, measurement), from the table alone.
std::string format_knobs_markdown();

// The arguments after `knobs`: none, --markdown, or --help. Returns the exit code.
int run_knobs_command(const std::vector<std::string>& args);

} // namespace ss
