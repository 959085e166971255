// SPDX-License-Identifier: MIT
// Rank boxes (gpu/backends/rank_domain.h) run as MPI would run them on a process grid, without MPI: each box a
// process's field, its faces packed, handed to the neighbour and unpacked after every step, axis by axis in the
// plan's trade order as app/cli/rank_grid_run.cpp trades them; under the plan's overlap through the overlapped
// step's calls, the axes traded during the step between boundary_final and end_step. On the CPU backend, or on one
// GPU (every box on `devices`' first device). For the tests that compare a grid run with the whole field.
#pragma once

#include "gpu/backends/rank_domain.h"
#include "gpu/problem/physics.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace ss::test {

// Runs `steps` steps of `whole` on the process grid `grid`, trading faces after every step (none without
// `exchange`), and returns the global field assembled from each box's owned region.
inline std::vector<double> run_grid_split(const StencilConfig& whole, const std::vector<int>& grid, int steps,
    bool exchange = true, const DeviceCatalogue& devices = {}) {
    const RankGridPlan plan = plan_rank_grid(whole, grid);
    EXPECT_TRUE(plan.verdict) << plan.verdict.reason;
    if (!plan.verdict) return {};
    const std::vector<double> initial = initial_field(whole);
    std::vector<std::unique_ptr<RankDomain>> boxes;
    for (std::size_t r = 0; r < plan.boxes.size(); ++r) {
        std::string why;
        const RankDomainPlan mine = plan_rank_domain(plan, int(r), 0, devices);
        boxes.push_back(create_rank_domain(mine, &why));
        EXPECT_TRUE(boxes.back()) << why;
        if (!boxes.back()) return {};
        boxes.back()->field().upload(region_values(initial, whole.problem.size, local_region(mine)));
    }
    const RankDomainPlan& first = boxes.front()->plan();
    const auto trade = [&](int axis) {
        // [rank][side]: what each rank sends towards that side, as the transport carries it
        std::vector<std::vector<unsigned char>> sent(2 * boxes.size());
        for (std::size_t r = 0; r < boxes.size(); ++r)
            for (int side : { 0, 1 })
                if (boxes[r]->plan().box.neighbour_on(axis, side) != kNoNeighbour) {
                    sent[2 * r + std::size_t(side)].resize(boxes[r]->face_bytes(axis));
                    boxes[r]->copy_out(axis, side, sent[2 * r + std::size_t(side)].data());
                }
        for (std::size_t r = 0; r < boxes.size(); ++r)
            for (int side : { 0, 1 })
                if (const int from = boxes[r]->plan().box.neighbour_on(axis, side); from != kNoNeighbour)
                    boxes[r]->copy_in(axis, side, sent[2 * std::size_t(from) + std::size_t(1 - side)].data());
    };
    const std::size_t during = exchange && first.overlap ? std::size_t(first.traded_during_step) : 0;
    for (int step = 0; step < steps; ++step) {
        if (first.overlap) {
            for (auto& b : boxes) b->begin_step(), b->boundary_final();
            for (std::size_t k = 0; k < during; ++k) trade(first.trade_order[k]);
            for (auto& b : boxes) b->end_step();
        } else {
            for (auto& b : boxes) b->compute_step();
        }
        for (std::size_t k = during; exchange && k < first.trade_order.size(); ++k) trade(first.trade_order[k]);
    }
    std::vector<double> field(std::size_t(whole.problem.size.cells()), -1.0);
    for (auto& b : boxes) {
        const RankDomainPlan& p = b->plan();
        const CellRegion owned = owned_region(p);
        const std::vector<double> values = region_values(b->field().download(), p.local.problem.size, owned);
        CellRegion global = owned;
        for (int a = 0; a < 3; ++a) global.begin[a] += p.origin[a];
        unpack_region(
            reinterpret_cast<unsigned char*>(field.data()), whole.problem.size, sizeof(double), global, values.data());
    }
    return field;
}

} // namespace ss::test
