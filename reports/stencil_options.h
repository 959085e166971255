// SPDX-License-Identifier: MIT
// --stencil and --stencil-file: which stencil a run computes (issue 34). star and diffusion4 are kinds; box and
// EBISU's benchmark names (2d5pt ... poisson) are point stencils built from the other options (box: --dims and
// --radius) or fixing them (an EBISU name is one dims and radius); --stencil-file reads a JSON stencil
// (gpu/problem/stencil_file.h). Qt-free.
#pragma once

#include "reports/run_options.h"

#include <string_view>

namespace ss {

// Gives --stencil and --stencil-file among `values` their meaning in `c`, after --dims and --radius were applied
// and before --size's default (which follows the dims a stencil sets). Refuses in one line: an unknown name, a
// --dims or --radius that contradicts the stencil, a file that cannot be read or is not a valid stencil.
Status apply_stencil_options(const OptionValues& values, StencilConfig& c);

// The checked stencil in the JSON file at `path`, its source set to `path`; else one line saying why, headed by
// `what` ("--stencil-file: cannot read ...", "--stencil-file 'PATH': a point given twice ..."). `out` is left as it
// was on failure.
Status read_stencil_file(const std::string& path, std::string_view what, StencilShape& out);

// Writes `shape` to `path` as a stencil file (stencil_json), replacing any file there whole or not at all
// (gpu/io/safe_file.h replace_file). Refuses, writing nothing, a shape the reader would refuse: check_shape and
// check_stencil_name's reason.
Status write_stencil_file(const std::string& path, const StencilShape& shape);

// --stencil's accepted names, for messages and --help: "star, diffusion4, box, 2d5pt, ..., poisson".
std::string stencil_names_text();

} // namespace ss
