// SPDX-License-Identifier: MIT
// The process-grid plan (gpu/plan/process_grid.h): MPI_Dims_create's grids, the --ranks text's refusals, and boxes that
// own every cell of the domain exactly once, with mutual neighbours and refusals where a box is thinner than R.
#include "gpu/plan/process_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

using namespace ss;

namespace {

long long product(const std::vector<int>& v) {
    return std::accumulate(v.begin(), v.end(), 1LL, [](long long a, int b) { return a * b; });
}

// Counts, for every cell of `extent`, how many boxes of `grid` own it; returns the cells owned other than once.
int cells_not_owned_once(const std::vector<int>& grid, const std::vector<int>& extent, int radius) {
    std::vector<int> owners(product(extent), 0);
    for (int rank = 0; rank < product(grid); ++rank) {
        const auto plan = box_of(rank, grid, extent, radius);
        EXPECT_TRUE(plan.verdict) << plan.verdict.reason;
        const RankBox& b = plan.box;
        const int nz = extent.size() == 3 ? b.extent[2] : 1, oz = extent.size() == 3 ? b.offset[2] : 0;
        for (int z = oz; z < oz + nz; ++z)
            for (int y = b.offset[1]; y < b.offset[1] + b.extent[1]; ++y)
                for (int x = b.offset[0]; x < b.offset[0] + b.extent[0]; ++x)
                    ++owners[(static_cast<long long>(z) * extent[1] + y) * extent[0] + x];
    }
    return static_cast<int>(std::count_if(owners.begin(), owners.end(), [](int n) { return n != 1; }));
}

} // namespace

TEST(ProcessGrid, BalancedGridIsWhatMpiDimsCreateReturns) {
    EXPECT_EQ(balanced_grid(6, 2), (std::vector<int> { 3, 2 }));
    EXPECT_EQ(balanced_grid(12, 3), (std::vector<int> { 3, 2, 2 }));
    EXPECT_EQ(balanced_grid(7, 2), (std::vector<int> { 7, 1 }));
    EXPECT_EQ(balanced_grid(64, 3), (std::vector<int> { 4, 4, 4 }));
    EXPECT_EQ(balanced_grid(512, 2), (std::vector<int> { 32, 16 }));
    EXPECT_EQ(balanced_grid(16, 3), (std::vector<int> { 4, 2, 2 }));
    EXPECT_EQ(balanced_grid(1, 3), (std::vector<int> { 1, 1, 1 }));
    EXPECT_TRUE(balanced_grid(0, 2).empty());
}

TEST(ProcessGrid, ParsesTheRanksText) {
    const auto ok = parse_rank_grid("2x3", 2, 6);
    ASSERT_TRUE(ok.verdict) << ok.verdict.reason;
    EXPECT_EQ(ok.grid, (std::vector<int> { 2, 3 }));
    EXPECT_EQ(parse_rank_grid("2x2x4", 3).grid, (std::vector<int> { 2, 2, 4 }));
    // Each refusal is one line that names its reason.
    const std::map<std::string, std::pair<int, std::string>> refused { { "2x3", { 3, "2 counts for a 3D domain" } },
        { "2x3x1", { 2, "3 counts for a 2D domain" } }, { "2x0", { 2, "at least 1" } }, { "2x-1", { 2, "at least 1" } },
        { "2xx3", { 2, "whole numbers" } }, { "", { 2, "expected PxQ" } },
        { "4x2", { 2, "holds 8 ranks, the run has 6" } }, { "2x3y", { 2, "whole" } } };
    for (const auto& [text, expectation] : refused) {
        const auto parsed = parse_rank_grid(text, expectation.first, 6);
        EXPECT_FALSE(parsed.verdict) << text;
        EXPECT_NE(parsed.verdict.reason.find(expectation.second), std::string::npos) << parsed.verdict.reason;
        EXPECT_EQ(parsed.verdict.reason.find('\n'), std::string::npos);
    }
}

TEST(ProcessGrid, BoxesTileTheDomainExactly) {
    for (int ranks : { 2, 3, 4, 6 }) {
        const auto grid2 = balanced_grid(ranks, 2);
        EXPECT_EQ(cells_not_owned_once(grid2, { 37, 23 }, 2), 0) << ranks << " ranks in 2D";
        EXPECT_EQ(cells_not_owned_once({ grid2[1], grid2[0] }, { 64, 31 }, 1), 0) << ranks << " ranks in 2D";
        const auto grid3 = balanced_grid(ranks, 3);
        EXPECT_EQ(cells_not_owned_once(grid3, { 13, 11, 9 }, 1), 0) << ranks << " ranks in 3D";
        EXPECT_EQ(cells_not_owned_once({ grid3[2], grid3[1], grid3[0] }, { 16, 17, 19 }, 2), 0) << ranks;
    }
}

TEST(ProcessGrid, CutsDifferByOneCellAtMost) {
    const std::vector<int> grid { 4, 3 }, extent { 39, 10 };
    for (int rank = 0; rank < 12; ++rank) {
        const RankBox b = box_of(rank, grid, extent, 1).box;
        EXPECT_TRUE(b.extent[0] == 9 || b.extent[0] == 10) << b.extent[0]; // 39 / 4
        EXPECT_TRUE(b.extent[1] == 3 || b.extent[1] == 4) << b.extent[1]; // 10 / 3
    }
    EXPECT_EQ(box_of(3, grid, extent, 1).box.offset[0], 30); // 10 + 10 + 10, then the last 9
}

TEST(ProcessGrid, NeighboursAreMutualAndTheBorderHasNone) {
    for (const auto& [grid, extent] : { std::pair { std::vector<int> { 3, 2 }, std::vector<int> { 30, 20 } },
             std::pair { std::vector<int> { 2, 3, 2 }, std::vector<int> { 8, 9, 10 } },
             std::pair { std::vector<int> { 1, 1, 4 }, std::vector<int> { 8, 8, 16 } } }) {
        const int dims = static_cast<int>(grid.size());
        for (int rank = 0; rank < product(grid); ++rank) {
            const RankBox b = box_of(rank, grid, extent, 2).box;
            EXPECT_EQ(b.ghost_depth, 2);
            for (int a = 0; a < dims; ++a) {
                EXPECT_EQ(b.neighbour[2 * a] == kNoNeighbour, b.coordinate[a] == 0);
                EXPECT_EQ(b.neighbour[2 * a + 1] == kNoNeighbour, b.coordinate[a] == grid[a] - 1);
                for (int side = 0; side < 2; ++side) {
                    const int other = b.neighbour[2 * a + side];
                    if (other == kNoNeighbour) continue;
                    const RankBox o = box_of(other, grid, extent, 2).box;
                    EXPECT_EQ(o.neighbour[2 * a + 1 - side], rank) << "rank " << rank << " axis " << a;
                    // The faces touch: the low box ends where the high one begins.
                    const RankBox& low = side == 0 ? o : b;
                    const RankBox& high = side == 0 ? b : o;
                    EXPECT_EQ(low.offset[a] + low.extent[a], high.offset[a]);
                }
            }
        }
    }
    // x fastest: rank 1 is rank 0's x neighbour, rank P its y neighbour.
    EXPECT_EQ(box_of(0, { 3, 2 }, { 30, 20 }, 1).box.neighbour, (std::vector<int> { -1, 1, -1, 3 }));
}

TEST(ProcessGrid, RefusesBoxesThinnerThanTheGhostZone) {
    const auto thin = box_of(0, { 1, 8 }, { 64, 30 }, 4); // 30 / 8 = 3 rows along y, R4
    ASSERT_FALSE(thin.verdict);
    EXPECT_NE(thin.verdict.reason.find("along y"), std::string::npos) << thin.verdict.reason;
    EXPECT_NE(thin.verdict.reason.find("at most 7 ranks"), std::string::npos) << thin.verdict.reason;
    EXPECT_TRUE(box_of(0, { 1, 7 }, { 64, 30 }, 4).verdict); // 4 rows each: enough
    EXPECT_TRUE(box_of(0, { 1, 1 }, { 2, 2 }, 4).verdict); // an axis nobody cuts needs no thickness
    EXPECT_FALSE(box_of(6, { 3, 2 }, { 30, 20 }, 1).verdict); // outside the grid
    EXPECT_FALSE(box_of(0, { 3, 2 }, { 30, 20, 4 }, 1).verdict); // 2 axes against 3
}

TEST(ProcessGrid, CutsAtMultiplesOfTheUnit) {
    // 22 cells along y in units of 4: 5 units over 3 ranks are 2, 2 and 1, and the last takes the 2 cells left over.
    const std::vector<int> grid { 1, 3 }, extent { 10, 22 }, unit { 1, 4 };
    std::vector<int> offsets, extents;
    for (int rank = 0; rank < 3; ++rank) {
        const RankBox b = box_of(rank, grid, extent, 1, unit).box;
        offsets.push_back(b.offset[1]), extents.push_back(b.extent[1]);
    }
    EXPECT_EQ(offsets, (std::vector<int> { 0, 8, 16 }));
    EXPECT_EQ(extents, (std::vector<int> { 8, 8, 6 }));
    // The thinnest box counts whole units: 9 cells in units of 4 over 3 ranks leave one rank none.
    EXPECT_FALSE(box_of(0, grid, { 10, 9 }, 1, unit).verdict);
}
