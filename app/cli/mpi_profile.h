// SPDX-License-Identifier: MIT
// `stencilscope-cli profile` as one rank of an MPI job (app/cli/mpi_profile.cpp).
#pragma once

#include "app/cli/mpi_world.h"
#include "gpu/problem/device.h"
#include "reports/run_options.h"

namespace ss::cli {

// Collective; returns the exit code (0, 1 a failed run, 2 bad input: one line from rank 0).
int profile_under_mpi(RunOptions, MpiWorld&, const DeviceCatalogue&);

} // namespace ss::cli
