// SPDX-License-Identifier: MIT
// stencilscope-cli under mpirun: `mpirun -np N stencilscope-cli run|bench ...` splits the domain into one
// strip per rank (gpu/backends/rank_strip.h) and trades ghost rows with MPI point-to-point every step. The
// environment mpirun (or srun) sets tells whether this process is one rank of several. Only the second
// program, stencilscope-cli-mpi (built when STENCILSCOPE_MPI finds MPI), links MPI: the plain
// stencilscope-cli hands such a start over to it (app/cli/mpi_handover.cpp).
#pragma once

#include "gpu/problem/device.h"
#include "reports/run_options.h"

#include <functional>
#include <string>
#include <vector>

namespace ss::cli {

// The size of the job and this process's rank in it, from the launcher's environment
// (OMPI_COMM_WORLD_SIZE/RANK, PMI_SIZE/RANK, PMIX_RANK, MV2_COMM_WORLD_SIZE/RANK); 1 and 0 when started alone.
int launched_ranks();
int launched_rank();
// Whether a launcher started this process as one rank of several, or of a job whose size it does not say
// (PMIX_RANK alone): the commands that do not split a domain (sweep, autotune, devices, ...) refuse to run there,
// as each rank would do the whole work.
bool under_mpi_launcher();

// Parses the command's options into one RunOptions per combination of its lists.
using ParseRuns = std::function<Status(std::vector<RunOptions>&)>;

// The whole command as one rank of launched_ranks() > 1 processes; returns the exit code (0, 1 a run
// failed, 2 bad input: one line from rank 0, the same code on every rank). In the MPI-free stencilscope-cli
// it execs stencilscope-cli-mpi from the same folder with `argv` (main's own) and returns only when it cannot.
int run_under_mpi(char* argv[], const std::string& command, const std::vector<std::string>& args, const ParseRuns&,
    const DeviceCatalogue&);

} // namespace ss::cli
