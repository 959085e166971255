// SPDX-License-Identifier: MIT
// The MPI ranks' peer-copy path (issue 37): ranks on one node copy their rows straight into their neighbours' ghost
// rows (CUDA IPC) rather than staging them through pinned host memory and MPI.
#pragma once

#include "app/cli/mpi_world.h"
#include "gpu/backends/rank_domain.h"
#include "gpu/backends/rank_strip.h"
#include "gpu/plan/rank_grid_plan.h"

#include <string>

namespace ss::cli {

// Collective: each rank tells its neighbours (rank +- 1) its host and its buffers' description, and maps those of the
// neighbours on its host. True when every rank mapped every neighbour; otherwise no rank keeps any mapping, and
// `why` says why this rank could not (or that another rank could not), for the report.
bool connect_peer_ranks(MpiWorld& world, RankStrip& strip, std::string& why);
// The same for a process grid: each rank trades with its neighbours on every axis (`grid` names them and their
// boxes) and maps those on its host.
bool connect_grid_peers(MpiWorld& world, RankDomain& domain, const RankGridPlan& grid, std::string& why);

} // namespace ss::cli
