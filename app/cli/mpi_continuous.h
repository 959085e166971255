// SPDX-License-Identifier: MIT
// `stencilscope-cli profile --continuous` as one rank of an MPI job (app/cli/mpi_continuous.cpp).
#pragma once

#include "app/cli/mpi_world.h"
#include "gpu/problem/device.h"
#include "reports/run_options.h"

namespace ss::cli {

// Collective; returns the exit code (0, 1 a failed run or counters, 2 bad input, 130 interrupted).
int continuous_under_mpi(RunOptions, MpiWorld&, const DeviceCatalogue&);

} // namespace ss::cli
