// SPDX-License-Identifier: MIT
// A run split over a process grid (`mpirun -np N stencilscope-cli run --ranks PxQ[xR]`, issue 37), resolved once:
// the check of the grid, every rank's box of the updated cells (gpu/plan/process_grid.h cuts them), and each rank's
// box as a domain of its own: the box plus R ghost layers on every side, which at the domain's border are the fixed
// Dirichlet cells, so that the single-device machinery updates exactly the box and gives one process's bits. The
// faces the ranks trade, axis by axis, are regions of that local domain here. Pure host code.
#pragma once

#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/process_grid.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ss {

// "3x2" for the grid {3, 2}.
std::string rank_grid_text(const std::vector<int>& grid);

// Why `whole` cannot run on the process grid `grid` (ranks per axis, x first) of `ranks` processes (one line), or
// success: the grid's axes and product, --gpus (a rank drives one GPU), --split, --halo remote, the variants that
// cannot be split (temporal, diffusion) and boxes thinner than R.
Status check_rank_grid(const StencilConfig& whole, const std::vector<int>& grid, int ranks);

// The process grid of a job started without --ranks (issue 37): MPI_Dims_create's near-equal factors of `ranks`
// (balanced_grid), the largest on the axis with the most updated cells (ties to the slower axis), so that the boxes
// trade small faces. Empty where the job runs strips instead: where those factors cut one axis only (2, 3 or any
// prime count of ranks: strips along the slowest axis trade contiguous rows), or where check_rank_grid refuses the
// grid (the variants only strips run, boxes thinner than R): the strips' own check then speaks.
std::vector<int> default_rank_grid(const StencilConfig& whole, int ranks);

struct RankGridPlan {
    StencilConfig whole;
    std::vector<int> grid; // ranks per axis, x first
    Status verdict; // check_rank_grid
    int ghost_depth = 0; // R
    std::vector<RankBox> boxes; // per rank, of the updated cells: offsets count from the first updated cell
};
RankGridPlan plan_rank_grid(const StencilConfig& whole, const std::vector<int>& grid);

// A box of cells in a field, per axis x, y, z (a 2D field: z is 0 and 1 cell).
struct CellRegion {
    int begin[3] = { 0, 0, 0 };
    int size[3] = { 1, 1, 1 };
    std::int64_t cells() const { return std::int64_t(size[0]) * size[1] * size[2]; }
};

// One rank's box as a domain of its own, on `device` (CUDA; 0 on the CPU backend).
struct RankDomainPlan {
    Status verdict; // the grid's, then can_implement of the local domain (device, block, memory)
    RankBox box;
    int ghost_depth = 0;
    StencilConfig local; // the box plus R on every side: its buffers
    // The global cell of the local domain's first cell, per axis (a box's offset among the updated cells is its
    // local domain's offset in the whole domain: both are R ahead).
    int origin[3] = { 0, 0, 0 };
    // CUDA, where the verdict passes: the local domain's own kernels (as the in-process box strips along x run).
    std::optional<KernelPlan> kernels;
    // --overlap on where the grid cuts an axis whose faces a step can finish first: the slowest (a launch takes a
    // range of its planes) and, in 3D, y (a range of rows too: CudaSimulation::launch_star_box). The step computes
    // the R layers next to those faces first; they travel while the rest of the box computes. x's faces trade after
    // the step (a launch always spans every column).
    bool overlap = false;
    // The axes in the order their faces are traded: under overlap the ones traded during the step first (z, then
    // y), then the rest; else x, y, z.
    std::vector<int> trade_order;
    int traded_during_step = 0; // the leading axes of trade_order whose faces travel during the step
    int y_unit = 1; // where a range of rows may start (its first row less R): the kernel's run along y (cut_units)
};
RankDomainPlan plan_rank_domain(const RankGridPlan&, int rank, int device, const DeviceCatalogue&);

// The faces traded along `axis` towards `side` (0 the low side, 1 the high side), in local cells. Axes are traded in
// the plan's trade_order, each face R deep: it spans the whole local extent (ghost layers included) along the axes
// traded before it and the box along the later ones, so that edges and corners arrive through two or three trades.
// send_face: the box's own cells the neighbour needs; ghost_face: where the neighbour's cells land.
CellRegion send_face(const RankDomainPlan&, int axis, int side);
CellRegion ghost_face(const RankDomainPlan&, int axis, int side);
// The cells this rank reports (its checksum): its box, and the fixed border where the box touches the domain's edge,
// so that the ranks' regions tile the whole domain.
CellRegion owned_region(const RankDomainPlan&);
// The local domain's place in the whole domain, in global cells.
CellRegion local_region(const RankDomainPlan&);

} // namespace ss
