// SPDX-License-Identifier: MIT
// `stencilscope-cli profile`: the hardware counters (CUPTI range profiler, kernel replay) of sampled
// launches, one report per GPU of the run against that GPU's copy roofline. Qt-free.
#pragma once

#include "gpu/device.h"
#include "reports/run_options.h"

namespace ss {

// Prints one report per profiled launch (and GPU); returns the exit code (cli_common.h).
int run_profile_command(const RunOptions&, const DeviceCatalogue&);

} // namespace ss
