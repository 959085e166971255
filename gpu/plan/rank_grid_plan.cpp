// SPDX-License-Identifier: MIT
#include "gpu/plan/rank_grid_plan.h"

#include "gpu/plan/rank_plan.h"
#include "gpu/plan/strip_plan.h"

#include <algorithm>

namespace ss {
namespace {

// The updated cells per axis: the domain less its R-wide Dirichlet border on both sides.
std::vector<int> updated_extent(const StencilConfig& c) {
    const Extent& e = c.problem.size;
    const int r = c.problem.radius;
    std::vector<int> out { e.nx - 2 * r, e.ny - 2 * r };
    if (c.problem.dims == 3) out.push_back(e.nz - 2 * r);
    return out;
}

// Where each axis may be cut: the in-process strips' cut unit along it (the 3D stream kernel's CF rows along y,
// the tensor-core kernel's groups of 4), so that every cell keeps its place in a thread's run as on one GPU.
std::vector<int> cut_units(const StencilConfig& c) {
    std::vector<int> units;
    for (SplitAxis axis : { SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
        if (int(units.size()) == c.problem.dims) break;
        StencilConfig along = c;
        along.placement.split = axis;
        units.push_back(strip_cut_unit(along));
    }
    return units;
}

} // namespace

std::string rank_grid_text(const std::vector<int>& grid) {
    std::string out;
    for (int g : grid) out += (out.empty() ? "" : "x") + std::to_string(g);
    return out;
}

Status check_rank_grid(const StencilConfig& c, const std::vector<int>& grid, int ranks) {
    const std::string ranks_option = "--ranks " + rank_grid_text(grid);
    if (int(grid.size()) != c.problem.dims)
        return Status::failure(ranks_option + ": " + std::to_string(grid.size()) + " counts for a "
            + std::to_string(c.problem.dims) + "D domain (expected " + (c.problem.dims == 3 ? "PxQxR" : "PxQ") + ")");
    long long product = 1;
    for (int g : grid) product *= g;
    if (product != ranks)
        return Status::failure(ranks_option + ": the grid holds " + std::to_string(product) + " ranks, the run has "
            + std::to_string(ranks)
            + (ranks == 1 ? " (start it under mpirun -np " + std::to_string(product) + ")" : ""));
    if (c.placement.gpus != 1)
        return Status::failure("under mpirun each rank drives one GPU: use --gpus 1 and more ranks (got --gpus "
            + std::to_string(c.placement.gpus) + ")");
    if (c.placement.split != SplitAxis::Slowest)
        return Status::failure(
            ranks_option + " cuts every axis the grid names; --split is for --gpus N in one process");
    if (c.problem.stencil == StencilKind::Diffusion4)
        return Status::failure(ranks_option
            + ": the diffusion field's periodic layers are split into z strips only "
              "(drop --ranks)");
    if (c.policy.variant == Variant::Temporal)
        return Status::failure(ranks_option
            + ": the temporal variant runs in one process: its fused steps would need "
              "ghost layers of depth R x depth; use another variant or one rank");
    if (c.placement.halo == HaloMode::Remote)
        return Status::failure(ranks_option
            + ": --halo remote reads a neighbour's memory within one process; ranks "
              "trade faces (use --halo auto)");
    const RankBoxPlan first = box_of(0, grid, updated_extent(c), c.problem.radius, cut_units(c));
    if (!first.verdict) return Status::failure(ranks_option + ": " + first.verdict.reason);
    return Status::success();
}

std::vector<int> default_rank_grid(const StencilConfig& whole, int ranks) {
    const int dims = whole.problem.dims;
    const std::vector<int> factors = balanced_grid(ranks, dims);
    if (factors.size() < 2 || factors[1] == 1) return {}; // one axis cut: strips
    // Axes by updated cells, most first; the slower axis first among equals.
    const std::vector<int> extent = updated_extent(whole);
    std::vector<int> axes(static_cast<std::size_t>(dims));
    for (int a = 0; a < dims; ++a) axes[std::size_t(a)] = dims - 1 - a;
    std::stable_sort(
        axes.begin(), axes.end(), [&](int a, int b) { return extent[std::size_t(a)] > extent[std::size_t(b)]; });
    std::vector<int> grid(std::size_t(dims), 1);
    for (std::size_t i = 0; i < axes.size(); ++i) grid[std::size_t(axes[i])] = factors[i];
    return check_rank_grid(whole, grid, ranks) ? grid : std::vector<int> {};
}

RankGridPlan plan_rank_grid(const StencilConfig& whole, const std::vector<int>& grid) {
    RankGridPlan plan;
    plan.whole = whole;
    plan.grid = grid;
    long long ranks = 1;
    for (int g : grid) ranks *= g;
    plan.verdict = check_rank_grid(whole, grid, int(ranks));
    plan.ghost_depth = whole.problem.radius;
    if (!plan.verdict) return plan;
    const std::vector<int> extent = updated_extent(whole), units = cut_units(whole);
    for (int rank = 0; rank < ranks; ++rank) {
        RankBoxPlan b = box_of(rank, grid, extent, whole.problem.radius, units);
        if (!b.verdict) { // box_of refuses every rank alike, and check_rank_grid asked it: not reached
            plan.verdict = b.verdict;
            plan.boxes.clear();
            return plan;
        }
        plan.boxes.push_back(b.box);
    }
    return plan;
}

RankDomainPlan plan_rank_domain(const RankGridPlan& grid, int rank, int device, const DeviceCatalogue& catalogue) {
    RankDomainPlan plan;
    plan.verdict = grid.verdict;
    if (!plan.verdict) return plan;
    if (rank < 0 || std::size_t(rank) >= grid.boxes.size()) {
        plan.verdict = Status::failure("rank " + std::to_string(rank) + " has no box in the grid");
        return plan;
    }
    const bool cuda = grid.whole.placement.backend == Backend::Cuda;
    plan.box = grid.boxes[std::size_t(rank)];
    plan.ghost_depth = grid.ghost_depth;
    plan.local = single_gpu_equivalent(grid.whole);
    plan.local.placement.device = cuda ? device : 0;
    for (int a = 0; a < int(plan.box.extent.size()); ++a) {
        extent_along(plan.local.problem.size, a) = plan.box.extent[std::size_t(a)] + 2 * plan.ghost_depth;
        plan.origin[a] = plan.box.offset[std::size_t(a)];
    }
    const int slowest = grid.whole.problem.dims - 1;
    std::vector<int> during; // the cut axes a step can finish first: the slowest, then y in 3D
    for (int a = slowest; a >= std::max(slowest - 1, 1); --a)
        if (grid.grid[std::size_t(a)] > 1) during.push_back(a);
    plan.overlap = grid.whole.placement.overlap && !during.empty();
    if (plan.overlap) plan.trade_order = during, plan.traded_during_step = int(during.size());
    for (int a = 0; a <= slowest; ++a)
        if (std::find(plan.trade_order.begin(), plan.trade_order.end(), a) == plan.trade_order.end())
            plan.trade_order.push_back(a);
    plan.y_unit = cut_units(grid.whole)[1];
    plan.verdict = plan_rank_kernels(plan.local, plan.local, cuda, device, catalogue, plan.kernels);
    return plan;
}

CellRegion send_face(const RankDomainPlan& p, int axis, int side) {
    CellRegion face;
    const int r = p.ghost_depth;
    const auto place = [&p](int a) { // in the trade order; a plan without one trades x, y, z
        const auto at = std::find(p.trade_order.begin(), p.trade_order.end(), a);
        return at == p.trade_order.end() ? a : int(at - p.trade_order.begin());
    };
    for (int a = 0; a < int(p.box.extent.size()); ++a) {
        const int e = p.box.extent[std::size_t(a)];
        if (a == axis) // the box's first or last R cells
            face.begin[a] = side == 0 ? r : e, face.size[a] = r;
        else if (place(a) < place(axis)) // traded already: its ghost layers are final and travel on
            face.begin[a] = 0, face.size[a] = e + 2 * r;
        else
            face.begin[a] = r, face.size[a] = e;
    }
    return face;
}

CellRegion ghost_face(const RankDomainPlan& p, int axis, int side) {
    CellRegion face = send_face(p, axis, side);
    face.begin[axis] = side == 0 ? 0 : p.box.extent[std::size_t(axis)] + p.ghost_depth;
    return face;
}

CellRegion owned_region(const RankDomainPlan& p) {
    CellRegion owned;
    const int r = p.ghost_depth;
    for (int a = 0; a < int(p.box.extent.size()); ++a) {
        const int e = p.box.extent[std::size_t(a)];
        const bool low_edge = p.box.neighbour_on(a, 0) == kNoNeighbour,
                   high_edge = p.box.neighbour_on(a, 1) == kNoNeighbour;
        owned.begin[a] = low_edge ? 0 : r;
        owned.size[a] = (high_edge ? e + 2 * r : r + e) - owned.begin[a];
    }
    return owned;
}

CellRegion local_region(const RankDomainPlan& p) {
    CellRegion region;
    for (int a = 0; a < int(p.box.extent.size()); ++a)
        region.begin[a] = p.origin[a], region.size[a] = p.box.extent[std::size_t(a)] + 2 * p.ghost_depth;
    return region;
}

} // namespace ss
