// SPDX-License-Identifier: MIT
// `stencilscope-cli sweep`: the thesis' studies (gpu/studies/experiments.h) from the command line, as a table and
// as the CSV rows of reports/experiment_report.h, which the GUI's Experiments window reads back. Qt-free.
#pragma once

#include "gpu/studies/experiments.h"
#include "reports/run_options.h"

#include <string>
#include <vector>

namespace ss {

struct SweepOptions {
    RunOptions run; // the shared options: --dims, --size, --precision, --steps, --csv, --cache, ...
    ExperimentSpec spec;
};

// Parses the arguments after `sweep`: --experiment radius|cf|autotuned|depth (required), comma lists for
// --radius, --variant, --cf and (depth) --depth, --counters on|off, and the run options. The depth sweep
// takes no --variant, and R1 / CF 1 unless --radius / --cf say otherwise. Checks the spec
// (check_experiment); the reason is one line.
// `cuda_present`: without a device a sweep defaults to the CPU backend, as run and bench do.
Status parse_sweep_options(const std::vector<std::string>& args, SweepOptions& out, bool cuda_present);

// The table printed after a sweep: series, radius, CF, block, GCells/s, improvement, bottleneck; a depth sweep
// has a depth column and DRAM bytes per cell and step instead of the bottleneck.
std::string format_sweep_table(const std::vector<ExperimentPoint>&);

// Runs the sweep, prints the table, appends the CSV (--csv); returns the exit code (1 when no point could
// run or the CSV cannot be written).
int run_sweep_command(const SweepOptions&, const DeviceCatalogue&);

} // namespace ss
