// SPDX-License-Identifier: MIT
// CPU rank strips (gpu/backends/rank_strip.h) run as MPI would run them, without MPI: each strip a process's field,
// ghost rows traded by memcpy after every step (or through the overlapped step's calls). For the tests that compare
// a split run with the whole field (rank_strip_tests, point_strip_tests).
#pragma once

#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/create_rank_strip.h"
#include "gpu/problem/physics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace ss::test {

// Runs `steps` steps of `whole` split over `ranks` CPU strips, exchanging after every step as the MPI
// driver does, and returns the global field assembled from each strip's owned rows.
// With `overlapped`, through the overlapped step's calls (begin_step .. rows_in) with staging, as the MPI
// driver does under --overlap on.
inline std::vector<double> run_split(
    const StencilConfig& whole, int ranks, int steps, bool exchange = true, bool overlapped = false) {
    const DeviceCatalogue none;
    const std::vector<double> initial = initial_field(whole);
    const std::size_t row_cells
        = std::size_t(whole.problem.size.nx) * (whole.problem.dims == 3 ? whole.problem.size.ny : 1);
    std::vector<std::unique_ptr<RankStrip>> strips;
    for (int r = 0; r < ranks; ++r) {
        std::string why;
        strips.push_back(create_rank_strip(plan_rank_strip(plan_ranks(whole, ranks), r, 0, none), &why));
        EXPECT_TRUE(strips.back()) << why;
        if (!strips.back()) return {};
        const Strip& s = strips.back()->strip();
        strips.back()->field().upload(std::vector<double>(initial.begin() + std::ptrdiff_t(s.local_begin * row_cells),
            initial.begin() + std::ptrdiff_t(s.local_end * row_cells)));
    }
    const std::size_t bytes = strips.front()->halo_bytes();
    std::vector<std::vector<unsigned char>> out(std::size_t(2 * ranks), std::vector<unsigned char>(bytes)), in(out);
    auto rows = [bytes](std::vector<std::vector<unsigned char>>& v, int r, int side) {
        return bytes ? v[std::size_t(2 * r + side)].data() : nullptr;
    };
    for (int step = 0; overlapped && step < steps; ++step) {
        for (int r = 0; r < ranks; ++r) {
            const bool neighbour[2] = { r > 0, r + 1 < ranks };
            unsigned char* const stage[2] = { rows(out, r, kRankBelow), rows(out, r, kRankAbove) };
            strips[std::size_t(r)]->begin_step(neighbour, stage);
        }
        for (auto& s : strips) s->rows_final(), s->rows_out();
        for (int r = 0; exchange && r + 1 < ranks; ++r) { // what MPI carries
            std::memcpy(rows(in, r, kRankAbove), rows(out, r + 1, kRankBelow), bytes);
            std::memcpy(rows(in, r + 1, kRankBelow), rows(out, r, kRankAbove), bytes);
        }
        for (int r = 0; exchange && r < ranks; ++r) {
            const unsigned char* const stage[2] = { rows(in, r, kRankBelow), rows(in, r, kRankAbove) };
            strips[std::size_t(r)]->rows_in(stage);
        }
    }
    for (auto& s : strips) {
        if (overlapped) {
            EXPECT_GE(s->take_compute_ms(), 0.0);
        }
    }
    for (int step = 0; !overlapped && step < steps; ++step) {
        for (auto& s : strips) s->compute_step();
        for (int r = 0; exchange && r + 1 < ranks; ++r) { // through a host buffer, as a transport would
            std::vector<unsigned char> up(strips[r]->halo_bytes()), down(up.size());
            strips[std::size_t(r)]->copy_out(kRankAbove, up.data());
            strips[std::size_t(r) + 1]->copy_out(kRankBelow, down.data());
            strips[std::size_t(r) + 1]->copy_in(kRankBelow, up.data());
            strips[std::size_t(r)]->copy_in(kRankAbove, down.data());
        }
    }
    std::vector<double> field;
    for (auto& s : strips) {
        const std::vector<double> local = s->field().download();
        const Strip& p = s->strip();
        field.insert(field.end(), local.begin() + std::ptrdiff_t((p.first_row - p.local_begin) * row_cells),
            local.begin() + std::ptrdiff_t((p.end_row - p.local_begin) * row_cells));
    }
    return field;
}

inline std::vector<double> run_whole(const StencilConfig& whole, int steps) {
    auto sim = create_cpu_simulation(whole);
    sim->upload(initial_field(whole));
    sim->step(steps);
    return sim->download();
}

} // namespace ss::test
