// SPDX-License-Identifier: MIT
// Built without MPI (STENCILSCOPE_MPI off or no MPI found): every rank would run the whole domain, so a
// start under mpirun is refused in one line from rank 0.
#include "app/cli/cli_common.h"
#include "app/cli/mpi_run.h"

namespace ss::cli {

int run_under_mpi(const std::string&, const std::vector<std::string>&, const ParseRuns&, const DeviceCatalogue&) {
    const std::string why = "this stencilscope-cli was built without MPI, so each of the "
        + std::to_string(launched_ranks())
        + " ranks would run the whole domain: rebuild with Open MPI (libopenmpi-dev) installed, or start one process";
    return launched_rank() == 0 ? fail(2, why) : 2;
}

} // namespace ss::cli
