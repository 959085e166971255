// SPDX-License-Identifier: MIT
// One rank of an MPI job on a process grid (`--ranks PxQ[xR]`, app/cli/mpi_grid_run.cpp): how it starts (the backend
// the ranks agree on, the grid checked, how its faces travel, its box created with its part of the initial field) and
// how it steps: the step and the faces traded axis by axis, z's and y's during the step under overlap. Only
// mpi_world.cpp calls MPI.
#pragma once

#include "app/cli/mpi_world.h"
#include "app/cli/rank_run.h"
#include "gpu/backends/rank_domain.h"
#include "gpu/plan/rank_grid_plan.h"

#include <memory>
#include <vector>

namespace ss::cli {

// The steps of one rank's box: the step, waited for, then for each axis of the plan's trade order every face packed,
// traded with the neighbours along that axis and unpacked, so that the next axis' faces carry what this one brought
// (edges, corners). Under overlap (RankDomainPlan::overlap) the axes a step can finish first (z, and y in 3D) go
// first, as soon as the layers next to their faces are computed, while the rest of the box computes; x follows the
// step. Every trade waits
// at most the timeout (STENCILSCOPE_MPI_TIMEOUT_S) and shares the testing hooks of RankRun
// (STENCILSCOPE_MPI_TEST_SILENT_*), counted per step.
class GridRun {
public:
    // `halo`: Peer, the faces go straight into the neighbours' ghost layers (connect_grid_peers) and MPI carries a
    // word per trade, saying they landed; Device, MPI moves the box's device buffers (a CUDA-aware MPI); Host, they
    // are staged through host buffers.
    GridRun(MpiWorld& world, RankDomain& domain, Backend backend, RankHalo halo);
    // `steps` steps, each with its exchange; means per step (under overlap the exchange leaves out the wait for the
    // interior, and the compute is the step's own time).
    RankTimes steps(int steps);
    // Bytes this rank receives per step (all its faces).
    std::size_t received_bytes() const;

private:
    void exchange(); // every axis, after the step
    void trade(int axis); // the faces along `axis`: packed, traded, unpacked (or pushed, and the number traded)

    MpiWorld& m_world;
    RankDomain& m_domain;
    RankHalo m_halo;
    double m_timeout_s;
    long long m_silent_after = -1, m_exchanges = 0;
    // [axis][send, receive][side]: a face's packed cells in host memory (pinned on CUDA)
    std::vector<std::shared_ptr<unsigned char>> m_staging;
};

// What a rank of a grid job runs on, once start_grid_job has agreed on it with every rank.
struct GridJob {
    bool cuda = false; // the backend of the whole job
    int device = 0; // this rank's CUDA device
    RankGridPlan plan; // every rank's box, resolved once (rank 0 reports them)
    std::unique_ptr<RankDomain> domain; // this rank's box, holding its part of the initial field
    RankHalo halo = RankHalo::Host; // Peer: faces copied into the neighbours' ghost layers (CUDA IPC, one node)
    bool staged_by_request = false; // --halo staged
    std::string no_peer_copies; // why the faces are staged where peer copies were tried
};

// Collective, as start_rank_job (app/cli/rank_run.h) for the grid `o.rank_grid`.
int start_grid_job(
    RunOptions& o, MpiWorld& world, const DeviceCatalogue& catalogue, const CsvRow& csv_header, GridJob& job);

} // namespace ss::cli
