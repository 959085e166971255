// SPDX-License-Identifier: MIT
// The domain cut into a process grid (issue 37): P x Q [x R] ranks, each owning a box and trading R-deep faces with up
// to 2 x dims neighbours, where the strips of gpu/plan/rank_plan.h give every rank two. Pure arithmetic behind
// `--ranks PxQ[xR]` (gpu/plan/rank_grid_plan.h cuts the updated cells with it; bench/mpi_scaling_model.py models the
// cost).
#pragma once

#include "gpu/problem/config.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace ss {

// What MPI_Dims_create(ranks, dims) returns: `dims` factors of `ranks`, as close to each other as the factors
// allow (the smallest difference between the largest and the smallest, then the smallest largest), non-increasing.
// balanced_grid(6, 2) = {3, 2}, (12, 3) = {3, 2, 2}, (7, 2) = {7, 1}. Empty where ranks or dims is below 1.
std::vector<int> balanced_grid(int ranks, int dims);

struct RankGridText {
    Status verdict;
    std::vector<int> grid; // ranks along x, y[, z], as --size writes the extents; where the verdict passes
};
// Reads "PxQ" (2D) or "PxQxR" (3D): `dims` positive counts whose product is `ranks` (not checked where ranks < 1).
RankGridText parse_rank_grid(std::string_view text, int dims, int ranks = 0);

constexpr int kNoNeighbour = -1; // a face on the domain's border

// One rank's part of the domain. Ranks are numbered with x fastest: rank = (z * Q + y) * P + x for the grid
// {P, Q, R}, which is MPI_Cart_create's row-major order for the dims {R, Q, P}; consecutive ranks (one node's)
// are neighbours along x.
struct RankBox {
    std::vector<int> coordinate; // the rank's place in the grid, per axis
    std::vector<int> offset; // the first owned cell, per axis
    std::vector<int> extent; // owned cells, per axis: the cuts of an axis differ by one cell at most
    // The rank behind each face: [2a] the low side of axis a, [2a + 1] the high side; kNoNeighbour at the border.
    std::vector<int> neighbour;
    int ghost_depth = 0; // R: the depth of every face a neighbour refreshes
    int neighbour_on(int axis, int side) const { return neighbour[2 * std::size_t(axis) + std::size_t(side)]; }
};

struct RankBoxPlan {
    Status verdict; // refused where the grid does not match the extent, the rank is outside it, or a box is
                    // thinner than R along a cut axis (a ghost zone must come from one neighbour)
    RankBox box;
};
// The box of `rank` in `grid` (ranks per axis, x first) over the domain `extent` (cells per axis, x first).
// `unit` (per axis; empty: 1) is where an axis may be cut: after every unit[a] cells from its start, as
// strip_cut_unit says for a kernel whose result depends on a cell's place in a thread's run; the parts then differ
// by one unit at most and the last takes the remainder.
RankBoxPlan box_of(int rank, const std::vector<int>& grid, const std::vector<int>& extent, int radius,
    const std::vector<int>& unit = {});

} // namespace ss
