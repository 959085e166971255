// SPDX-License-Identifier: MIT
// The MPI-free stencilscope-cli under mpirun: the ranks are run by stencilscope-cli-mpi (the stencilscope-mpi
// package, the only program that links Open MPI), so this process becomes the one installed beside it, with
// the same arguments. Without it every rank would run the whole domain, so the start is refused in one line.
#include "app/cli/cli_common.h"
#include "app/cli/mpi_run.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <unistd.h>

namespace ss::cli {

int run_under_mpi(
    char* argv[], const std::string&, const std::vector<std::string>&, const ParseRuns&, const DeviceCatalogue&) {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::filesystem::path mpi_program = self.parent_path() / "stencilscope-cli-mpi";
    std::string why = "runs under mpirun need stencilscope-cli-mpi beside this program (" + mpi_program.string()
        + "): install the stencilscope-mpi package (or build with libopenmpi-dev installed), or start one process";
    if (!error && ::access(mpi_program.c_str(), X_OK) == 0) {
        ::execv(mpi_program.c_str(), argv); // returns only when it failed
        why = "runs under mpirun need stencilscope-cli-mpi, which could not be started (" + mpi_program.string() + ": "
            + std::strerror(errno) + ")";
    }
    return launched_rank() == 0 ? fail(2, why) : 2; // one line for the whole job
}

} // namespace ss::cli
