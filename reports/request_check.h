// SPDX-License-Identifier: MIT
// Checking a whole request before any work starts (issue 36): what stencilscope-cli refuses with exit 2 and one
// line before the first run, and what the window may check before it starts one. None of these functions creates,
// runs or writes anything; together they find what the work would otherwise find out halfway:
// - each output path can be written (check_output_path, check_rows_path), with the right words ("cannot write");
// - the rows and the human report do not end up mixed in one stream (check_rows_and_report);
// - no option is given that the configuration would not use (check_options_apply);
// - every combination of a list is checked before the first one runs (check_run_request);
// - a sweep's base configuration lets at least one point run (check_sweep_request);
// - the STENCILSCOPE_* knobs in force hold values they take (check_knobs).
// Qt-free.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"
#include "gpu/studies/experiments.h"
#include "reports/run_options.h"

#include <string>
#include <string_view>
#include <vector>

namespace ss {

// One output file (a CSV, an image, an export): whether it could be written. Beyond check_writable_path
// (gpu/io/safe_file.h: an existing regular file with a write bit, or a new name in a writable folder), it names
// a path longer than PATH_MAX, a name longer than NAME_MAX and a symbolic link whose target lies in a missing
// folder, each of which the write would otherwise find out. "cannot write PATH: why", PATH quoted short.
Status check_output_path(const std::string& path);

// --csv PATH as the rows' destination (reports/row_output.h): "-" and an existing pipe, FIFO, character device or
// socket are streams, opened when the command sets up its outputs; any other path is a file (check_output_path).
Status check_rows_path(const std::string& path);

// The rows and the human report never share one stream. When the rows take stdout (--csv -, a --csv path naming
// stdout, --json) the report goes to stderr: refused when stderr is the same file or pipe as stdout (2>&1), unless
// --quiet drops the report or the stream is a terminal, which a person reads. `stdout_fd` and `stderr_fd` are the
// process's (1 and 2); tests pass others.
Status check_rows_and_report(const RunOptions&, int stdout_fd = 1, int stderr_fd = 2);

// Options given (`given`, as parsed) that the configuration `c` would not use are refused, rather than recorded
// in a CSV row as if used: --rule and --radius with --stencil diffusion4 (its stencil and update are fixed).
Status check_options_apply(const OptionValues& given, const StencilConfig& c);

// Every combination of a run, bench or profile request (a list gives several), in order, before the first one
// runs; the first problem, naming its combination when there are several:
// - bench times steps, so --steps 0 is refused (run may step 0 times: its checksum is the initial field's);
// - --verify runs the fp64 CPU reference: at most 2^27 updated cells;
// - one combination alone: can_implement (a list reports and skips each combination it refuses, as documented);
// - under mpirun (`ranks` > 1): the split over the ranks (check_rank_split, or check_rank_grid for --ranks: also in
//   one process, where only a grid of one rank runs), and no --verify.
// The backend of each combination must be resolved (a run without a GPU on the CPU) before this is called.
Status check_run_request(
    std::string_view command, const std::vector<RunOptions>& runs, const DeviceCatalogue&, int ranks = 1);

// A sweep is refused when no point of its plan (experiment_plan) can run: then the base configuration is at fault
// (--gpus 2 on the CPU backend), and the reason is the first point's. Points refused one by one are the sweep's
// to record.
Status check_sweep_request(const ExperimentSpec&, const DeviceCatalogue&);

// The STENCILSCOPE_* knobs in force: the first set to a value it does not take (gpu/plan/knobs.h invalid_knobs),
// refused as a bad option is.
Status check_knobs();

} // namespace ss
