// SPDX-License-Identifier: MIT
// run and bench as one rank of an MPI job on a process grid (`mpirun -np N stencilscope-cli run --ranks PxQ[xR]`,
// app/cli/mpi_grid_run.cpp), or on default_rank_grid's grid without --ranks; where that is empty, app/cli/mpi_run.cpp
// runs strips.
#pragma once

#include "app/cli/mpi_world.h"
#include "gpu/problem/device.h"
#include "reports/csv.h"
#include "reports/run_options.h"

#include <string>

namespace ss::cli {

// Collective; the exit code (0, 1 a run failed, 2 bad input: one line from rank 0). Rank 0 writes its CSV under
// `csv_header` (mpi_run.cpp's: the run/bench table plus ranks, rank and the per-step compute and exchange times).
int run_grid(const std::string& command, RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue,
    const CsvRow& csv_header);

} // namespace ss::cli
