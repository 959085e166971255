// SPDX-License-Identifier: MIT
// The launcher's environment: built with or without MPI.
#include "app/cli/mpi_run.h"

#include <charconv>
#include <cstdlib>
#include <string_view>

namespace ss::cli {
namespace {
int from_environment(std::initializer_list<const char*> names, int fallback) {
    for (const char* name : names) {
        const char* text = std::getenv(name);
        if (!text) continue;
        int value = 0;
        const std::string_view s(text);
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        if (ec == std::errc() && end == s.data() + s.size() && value >= 0) return value;
    }
    return fallback;
}

// Whether a launcher set `name` at all (PMIx names the rank only).
bool set_in_environment(const char* name) {
    return std::getenv(name) != nullptr;
}
} // namespace

int launched_ranks() {
    const int named = from_environment({ "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE" }, 0);
    if (named > 0) return named;
    // srun --mpi=pmix names the rank in PMIX_RANK and the step's size only in Slurm's own variable (set by srun for
    // its tasks, not by sbatch for a batch script, so a plain run inside an allocation stays one process).
    if (set_in_environment("PMIX_RANK")) return std::max(from_environment({ "SLURM_STEP_NUM_TASKS" }, 1), 1);
    return 1;
}

int launched_rank() {
    return from_environment({ "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK" }, 0);
}

bool under_mpi_launcher() {
    if (launched_ranks() > 1) return true;
    // PMIx launchers (prterun; srun --mpi=pmix outside what launched_ranks reads) name the rank but not the size:
    // one of several, or one alone.
    return from_environment({ "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE" }, 0) == 0
        && set_in_environment("PMIX_RANK");
}

} // namespace ss::cli
