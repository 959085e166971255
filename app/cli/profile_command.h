// SPDX-License-Identifier: MIT
// `stencilscope-cli profile`: the hardware counters (CUPTI range profiler, kernel replay) of sampled
// launches, one report per GPU of the run against that GPU's copy roofline. Qt-free.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/problem/device.h"
#include "reports/csv.h"
#include "reports/run_options.h"

#include <memory>

namespace ss {

// What `profile` and `profile --continuous` check before any work (backend, CSV path and header, device, the
// configuration), then the simulation to profile. Null, with the exit code in `exit_code` and one line said on
// stderr, when the input is bad or the simulation cannot be made.
std::unique_ptr<Simulation> simulation_to_profile(
    const RunOptions&, const DeviceCatalogue&, const CsvRow& csv_header, int* exit_code);

// Prints one report per profiled launch (and GPU); returns the exit code (cli_common.h).
int run_profile_command(const RunOptions&, const DeviceCatalogue&);

} // namespace ss
