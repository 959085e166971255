// SPDX-License-Identifier: MIT
// Process grids under mpirun (--ranks PxQ[xR], issue 37), without MPI: the boxes are of the updated cells and their
// owned regions tile the domain, the faces span the ghost layers of the axes traded before them, packing moves the
// right cells, the checksums of the boxes add up to the whole field's, and a run split over a grid of CPU boxes is
// bitwise the one-process run (star and point stencils, 2D and 3D), which it is not without the trade.
#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/rank_domain.h"
#include "gpu/backends/rank_strip.h"
#include "gpu/plan/rank_grid_plan.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/stencil_catalog.h"
#include "rank_grid_split_run.h"
#include "rank_split_run.h"
#include "reports/request_check.h"
#include "reports/run_options.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace ss;

namespace {

StencilConfig cpu_run(int dims, Extent size, int radius) {
    StencilConfig c;
    c.problem.dims = dims, c.problem.size = size, c.problem.radius = radius;
    c.placement.backend = Backend::Cpu;
    c.placement.overlap = false; // faces traded x, y, z after the step
    return c;
}

StencilConfig overlapped(StencilConfig c) {
    c.placement.overlap = true;
    return c;
}

StencilConfig with_shape(StencilConfig c, StencilShape shape) {
    use_shape(c.problem, std::move(shape));
    return c;
}

RankDomainPlan domain_of(const StencilConfig& c, const std::vector<int>& grid, int rank) {
    const RankDomainPlan p = plan_rank_domain(plan_rank_grid(c, grid), rank, 0, DeviceCatalogue {});
    EXPECT_TRUE(p.verdict) << p.verdict.reason;
    return p;
}

void expect_region(const CellRegion& r, std::vector<int> begin, std::vector<int> size) {
    EXPECT_EQ((std::vector<int> { r.begin[0], r.begin[1], r.begin[2] }), begin);
    EXPECT_EQ((std::vector<int> { r.size[0], r.size[1], r.size[2] }), size);
}

} // namespace

TEST(RankGrid, BoxesAreOfTheUpdatedCellsWithRGhostLayers) {
    // 20x18x16, R2: 16x14x12 updated cells, boxes of 8x7x6 in a 2x2x2 grid.
    const StencilConfig c = cpu_run(3, { 20, 18, 16 }, 2);
    const RankDomainPlan first = domain_of(c, { 2, 2, 2 }, 0), last = domain_of(c, { 2, 2, 2 }, 7);
    EXPECT_EQ(first.local.problem.size, (Extent { 12, 11, 10 }));
    EXPECT_EQ(last.local.problem.size, (Extent { 12, 11, 10 }));
    expect_region(local_region(first), { 0, 0, 0 }, { 12, 11, 10 });
    expect_region(local_region(last), { 8, 7, 6 }, { 12, 11, 10 }); // ends at the domain's far corner
    // Rank 0 reports its box and the border it touches; the last rank its box and the far border.
    expect_region(owned_region(first), { 0, 0, 0 }, { 10, 9, 8 });
    expect_region(owned_region(last), { 2, 2, 2 }, { 10, 9, 8 });
}

TEST(RankGrid, FacesSpanTheGhostLayersOfTheAxesTradedBefore) {
    const RankDomainPlan p = domain_of(cpu_run(3, { 20, 18, 16 }, 2), { 2, 2, 2 }, 0);
    // x first: the box's last R columns of its own rows and planes.
    expect_region(send_face(p, 0, 1), { 8, 2, 2 }, { 2, 7, 6 });
    expect_region(ghost_face(p, 0, 1), { 10, 2, 2 }, { 2, 7, 6 });
    expect_region(send_face(p, 0, 0), { 2, 2, 2 }, { 2, 7, 6 });
    expect_region(ghost_face(p, 0, 0), { 0, 2, 2 }, { 2, 7, 6 });
    // then y across every column, the x ghosts included (the xy edges travel on), over the box's planes;
    expect_region(send_face(p, 1, 1), { 0, 7, 2 }, { 12, 2, 6 });
    expect_region(ghost_face(p, 1, 1), { 0, 9, 2 }, { 12, 2, 6 });
    // then z across whole planes (edges and corners).
    expect_region(send_face(p, 2, 1), { 0, 0, 6 }, { 12, 11, 2 });
    expect_region(ghost_face(p, 2, 1), { 0, 0, 8 }, { 12, 11, 2 });
    // 2D: one plane.
    const RankDomainPlan flat = domain_of(cpu_run(2, { 37, 23, 1 }, 1), { 3, 2 }, 4);
    expect_region(send_face(flat, 1, 0), { 0, 1, 0 }, { flat.box.extent[0] + 2, 1, 1 });
}

TEST(RankGrid, OverlapTradesZThenYDuringTheStepAndXAfterIt) {
    StencilConfig c = cpu_run(3, { 20, 18, 16 }, 2);
    c.placement.overlap = true;
    const RankDomainPlan p = domain_of(c, { 2, 2, 2 }, 0);
    EXPECT_TRUE(p.overlap);
    EXPECT_EQ(p.trade_order, (std::vector<int> { 2, 1, 0 }));
    EXPECT_EQ(p.traded_during_step, 2);
    // z first, over the box's own rows; then y across every plane, the z ghosts included; then x across both.
    expect_region(send_face(p, 2, 1), { 2, 2, 6 }, { 8, 7, 2 });
    expect_region(ghost_face(p, 2, 0), { 2, 2, 0 }, { 8, 7, 2 });
    expect_region(send_face(p, 1, 1), { 2, 7, 0 }, { 8, 2, 10 });
    expect_region(send_face(p, 0, 1), { 8, 0, 0 }, { 2, 11, 10 });
    // A grid that leaves z whole trades y during the step, x after it.
    const RankDomainPlan flat = domain_of(c, { 2, 2, 1 }, 0);
    EXPECT_TRUE(flat.overlap);
    EXPECT_EQ(flat.trade_order, (std::vector<int> { 1, 0, 2 }));
    EXPECT_EQ(flat.traded_during_step, 1);
    // One that cuts x only has nothing to trade during the step.
    const RankDomainPlan along_x = domain_of(c, { 2, 1, 1 }, 0);
    EXPECT_FALSE(along_x.overlap);
    EXPECT_EQ(along_x.traded_during_step, 0);
    EXPECT_EQ(along_x.trade_order, (std::vector<int> { 0, 1, 2 }));
    // In 2D only y, the slowest axis: x trades after the step.
    StencilConfig flat_2d = cpu_run(2, { 37, 23, 1 }, 1);
    flat_2d.placement.overlap = true;
    const RankDomainPlan two = domain_of(flat_2d, { 2, 2 }, 0);
    EXPECT_EQ(two.trade_order, (std::vector<int> { 1, 0 }));
    EXPECT_EQ(two.traded_during_step, 1);
    c.placement.overlap = false;
    EXPECT_EQ(domain_of(c, { 2, 2, 2 }, 0).trade_order, (std::vector<int> { 0, 1, 2 }));
    EXPECT_EQ(domain_of(c, { 2, 2, 2 }, 0).traded_during_step, 0);
}

TEST(RankGrid, FacesMatchTheNeighboursGhostLayersAndOwnedRegionsTileTheDomain) {
    for (const auto& [c, grid] : { std::pair { cpu_run(2, { 37, 23, 1 }, 2), std::vector<int> { 3, 2 } },
             std::pair { cpu_run(3, { 13, 17, 19 }, 1), std::vector<int> { 2, 3, 2 } },
             std::pair { cpu_run(3, { 15, 12, 30 }, 3), std::vector<int> { 1, 1, 4 } },
             std::pair { overlapped(cpu_run(3, { 13, 17, 19 }, 1)), std::vector<int> { 2, 3, 2 } } }) {
        const RankGridPlan plan = plan_rank_grid(c, grid);
        ASSERT_TRUE(plan.verdict) << plan.verdict.reason;
        std::vector<int> owners(std::size_t(c.problem.size.cells()), 0);
        for (int rank = 0; rank < int(plan.boxes.size()); ++rank) {
            const RankDomainPlan p = plan_rank_domain(plan, rank, 0, DeviceCatalogue {});
            for (int axis = 0; axis < c.problem.dims; ++axis)
                for (int side : { 0, 1 }) {
                    const int other = p.box.neighbour_on(axis, side);
                    if (other == kNoNeighbour) continue;
                    const RankDomainPlan q = plan_rank_domain(plan, other, 0, DeviceCatalogue {});
                    const CellRegion sent = send_face(p, axis, side), landed = ghost_face(q, axis, 1 - side);
                    for (int a = 0; a < 3; ++a) { // the same global cells
                        EXPECT_EQ(sent.size[a], landed.size[a]) << "rank " << rank << " axis " << axis;
                        EXPECT_EQ(sent.begin[a] + p.origin[a], landed.begin[a] + q.origin[a]) << rank << " " << axis;
                    }
                }
            const CellRegion owned = owned_region(p);
            for (int z = 0; z < owned.size[2]; ++z)
                for (int y = 0; y < owned.size[1]; ++y)
                    for (int x = 0; x < owned.size[0]; ++x) {
                        const Extent& e = c.problem.size;
                        const int gx = p.origin[0] + owned.begin[0] + x, gy = p.origin[1] + owned.begin[1] + y,
                                  gz = p.origin[2] + owned.begin[2] + z;
                        ++owners[(std::size_t(gz) * std::size_t(e.ny) + std::size_t(gy)) * std::size_t(e.nx)
                            + std::size_t(gx)];
                    }
        }
        EXPECT_EQ(std::count(owners.begin(), owners.end(), 1), std::ptrdiff_t(owners.size())) << describe(c);
    }
}

TEST(RankGrid, PackingMovesTheRegionsCells) {
    const Extent e { 5, 4, 3 };
    std::vector<double> field(std::size_t(e.cells()));
    for (std::size_t i = 0; i < field.size(); ++i) field[i] = double(i);
    CellRegion r;
    r.begin[0] = 1, r.begin[1] = 2, r.begin[2] = 1, r.size[0] = 3, r.size[1] = 2, r.size[2] = 2;
    const std::vector<double> packed = region_values(field, e, r);
    ASSERT_EQ(packed.size(), 12u);
    EXPECT_EQ(packed[0], 1 * 20 + 2 * 5 + 1); // (1, 2, 1)
    EXPECT_EQ(packed[2], 1 * 20 + 2 * 5 + 3); // x fastest
    EXPECT_EQ(packed[3], 1 * 20 + 3 * 5 + 1); // then y
    EXPECT_EQ(packed[6], 2 * 20 + 2 * 5 + 1); // then z
    std::vector<double> back(field.size(), -1.0);
    unpack_region(reinterpret_cast<unsigned char*>(back.data()), e, sizeof(double), r, packed.data());
    int written = 0;
    for (std::size_t i = 0; i < back.size(); ++i)
        if (back[i] != -1.0) {
            ++written;
            EXPECT_EQ(back[i], field[i]) << i;
        }
    EXPECT_EQ(written, 12);
    // Elements of 4 bytes (fp32 fields) move whole.
    std::vector<float> narrow(std::size_t(e.cells()));
    for (std::size_t i = 0; i < narrow.size(); ++i) narrow[i] = float(i);
    std::vector<float> out(12);
    pack_region(reinterpret_cast<const unsigned char*>(narrow.data()), e, sizeof(float), r, out.data());
    EXPECT_EQ(out[11], float(2 * 20 + 3 * 5 + 3));
}

TEST(RankGrid, TheBoxesChecksumsAddUpToTheWholeFields) {
    for (const auto& [c, grid] : { std::pair { cpu_run(2, { 41, 29, 1 }, 2), std::vector<int> { 3, 2 } },
             std::pair { cpu_run(3, { 14, 15, 16 }, 1), std::vector<int> { 1, 2, 3 } } }) {
        const std::vector<double> whole = initial_field(c);
        const RankGridPlan plan = plan_rank_grid(c, grid);
        std::uint64_t sum = 0;
        for (int rank = 0; rank < int(plan.boxes.size()); ++rank) {
            const RankDomainPlan p = plan_rank_domain(plan, rank, 0, DeviceCatalogue {});
            sum += region_checksum(region_values(whole, c.problem.size, local_region(p)), p.local.problem.size,
                owned_region(p), p.origin, c.problem.size);
        }
        EXPECT_EQ(sum, field_checksum(whole)) << describe(c);
    }
}

TEST(RankGrid, SplitRunIsBitwiseTheWholeRun) {
    StencilConfig wave = cpu_run(3, { 21, 19, 23 }, 2);
    wave.problem.rule = UpdateRule::Wave, wave.problem.precision = Precision::FP64;
    const std::pair<StencilConfig, std::vector<int>> cases[] = {
        { cpu_run(2, { 45, 38, 1 }, 2), { 3, 2 } },
        { with_shape(cpu_run(2, { 33, 31, 1 }, 1), box_shape(2, 2)), { 2, 2 } },
        { with_shape(cpu_run(2, { 40, 27, 1 }, 1), *ebisu_shape("2d9pt")), { 1, 3 } },
        { wave, { 1, 2, 3 } },
        { with_shape(cpu_run(3, { 18, 20, 17 }, 1), *ebisu_shape("3d27pt")), { 2, 2, 1 } },
        { with_shape(cpu_run(3, { 16, 15, 18 }, 1), box_shape(3, 2)), { 2, 1, 2 } },
    };
    for (const auto& [c, grid] : cases) {
        const std::vector<double> one = test::run_whole(c, 5);
        EXPECT_EQ(test::run_grid_split(c, grid, 5), one) << describe(c) << " on " << rank_grid_text(grid);
        // Overlap on trades the slowest axis first: the corners travel the other way round.
        StencilConfig overlapped = c;
        overlapped.placement.overlap = true;
        EXPECT_EQ(test::run_grid_split(overlapped, grid, 5), one) << describe(c) << " overlapped";
        // The trade matters: without it the boxes' edges go stale.
        EXPECT_NE(test::run_grid_split(c, grid, 5, false), one) << describe(c);
    }
}

TEST(RankGrid, CutsKeepTheStreamKernelsRowsTogether) {
    // The 3D stream kernel's CF rows along y (strip_cut_unit): boxes start at multiples of CF from the first
    // updated row, as its strips do.
    StencilConfig c = cpu_run(3, { 24, 42, 20 }, 1);
    c.policy.variant = Variant::Stream, c.policy.cf = 4;
    const RankGridPlan plan = plan_rank_grid(c, { 1, 3, 1 });
    ASSERT_TRUE(plan.verdict) << plan.verdict.reason;
    for (const RankBox& b : plan.boxes) EXPECT_EQ(b.offset[1] % 4, 0) << b.offset[1];
    EXPECT_EQ(plan.boxes.back().offset[1] + plan.boxes.back().extent[1], 40); // the last takes the remainder
    // A box's rows computed apart under overlap (the layers next to its y faces) start at the same unit.
    EXPECT_EQ(plan_rank_domain(plan, 1, 0, DeviceCatalogue {}).y_unit, 4);
}

TEST(RankGrid, RefusesInOneLineWhatCannotRun) {
    const StencilConfig c = cpu_run(2, { 64, 64, 1 }, 1);
    const auto reason = [](const StencilConfig& config, std::vector<int> grid, int ranks) {
        const Status s = check_rank_grid(config, grid, ranks);
        EXPECT_EQ(s.reason.find('\n'), std::string::npos);
        return s ? std::string("ok") : s.reason;
    };
    EXPECT_EQ(reason(c, { 3, 2 }, 6), "ok");
    EXPECT_NE(reason(c, { 3, 2 }, 4).find("the grid holds 6 ranks, the run has 4"), std::string::npos);
    EXPECT_NE(reason(c, { 2, 2 }, 1).find("start it under mpirun -np 4"), std::string::npos);
    EXPECT_NE(reason(c, { 2, 1, 1 }, 2).find("3 counts for a 2D domain"), std::string::npos);
    StencilConfig bad = c;
    bad.placement.overlap = true;
    EXPECT_EQ(reason(bad, { 2, 1 }, 2), "ok") << "grids overlap the slowest axis' trade";
    bad = c, bad.placement.gpus = 2;
    EXPECT_NE(reason(bad, { 2, 1 }, 2).find("--gpus 1"), std::string::npos);
    bad = c, bad.policy.variant = Variant::Temporal;
    EXPECT_NE(reason(bad, { 2, 1 }, 2).find("temporal"), std::string::npos);
    bad = c, bad.problem.stencil = StencilKind::Diffusion4, bad.problem.dims = 3, bad.problem.size = { 32, 32, 8 };
    EXPECT_NE(reason(bad, { 1, 1, 2 }, 2).find("diffusion"), std::string::npos);
    bad = c, bad.problem.size = { 20, 64, 1 }, bad.problem.radius = 4; // 12 updated columns: 3 each for 4 ranks
    EXPECT_NE(reason(bad, { 4, 1 }, 4).find("thinner than the R4 ghost zone"), std::string::npos);
}

// Without --ranks: MPI_Dims_create's factors, the most ranks on the axis with the most cells; strips where the
// factors cut one axis, or where no grid can run the configuration.
TEST(RankGrid, TheDefaultGridFollowsTheDomainsShape) {
    const StencilConfig square = cpu_run(2, { 1026, 1026, 1 }, 1);
    EXPECT_EQ(default_rank_grid(square, 4), (std::vector<int> { 2, 2 }));
    EXPECT_EQ(default_rank_grid(square, 6), (std::vector<int> { 2, 3 })) << "ties go to the slower axis";
    const StencilConfig wide = cpu_run(2, { 4098, 1026, 1 }, 1);
    EXPECT_EQ(default_rank_grid(wide, 6), (std::vector<int> { 3, 2 })) << "the longest axis gets the most";
    EXPECT_EQ(default_rank_grid(wide, 8), (std::vector<int> { 4, 2 }));
    const StencilConfig cube = cpu_run(3, { 258, 258, 258 }, 1);
    EXPECT_EQ(default_rank_grid(cube, 8), (std::vector<int> { 2, 2, 2 }));
    EXPECT_EQ(default_rank_grid(cube, 4), (std::vector<int> { 1, 2, 2 }));
    EXPECT_EQ(default_rank_grid(cube, 12), (std::vector<int> { 2, 2, 3 }));
    for (int prime : { 1, 2, 3, 5, 7 })
        EXPECT_TRUE(default_rank_grid(square, prime).empty()) << prime << " ranks cut one axis: strips";
    StencilConfig temporal = square;
    temporal.policy.variant = Variant::Temporal;
    EXPECT_TRUE(default_rank_grid(temporal, 4).empty());
    const StencilConfig thin = cpu_run(2, { 10, 4098, 1 }, 4); // 2 updated columns: no cut along x
    EXPECT_TRUE(default_rank_grid(thin, 4).empty()) << "boxes thinner than R: the strips' check speaks";
}

TEST(RankGrid, CudaBoxesCompileTheirOwnDomainsText) {
    StencilConfig c = cpu_run(3, { 66, 34, 40 }, 2);
    c.placement.backend = Backend::Cuda;
    const RankDomainPlan p
        = plan_rank_domain(plan_rank_grid(c, { 2, 1, 2 }), 3, 0, described_catalogue(test::h100(), 1));
    ASSERT_TRUE(p.verdict) << p.verdict.reason;
    ASSERT_TRUE(p.kernels);
    EXPECT_EQ(p.kernels->field.problem.size, p.local.problem.size);
    EXPECT_EQ(p.kernels->kernels.problem.size, p.local.problem.size);
}

TEST(RankGrid, TheRanksOption) {
    RunOptions o;
    ASSERT_TRUE(parse_run_options({ "--ranks", "3x2", "--backend", "cpu" }, o));
    EXPECT_EQ(o.rank_grid, (std::vector<int> { 3, 2 }));
    EXPECT_TRUE(o.config.placement.overlap); // grids overlap the slowest axis, as strips overlap
    RunOptions three;
    const Status wrong = parse_run_options({ "--dims", "3", "--ranks", "2x2" }, three);
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.reason.find("2 counts for a 3D domain"), std::string::npos) << wrong.reason;
    // One process runs a grid of one rank only.
    const Status alone = check_run_request("run", { o }, DeviceCatalogue {}, 1);
    ASSERT_FALSE(alone);
    EXPECT_NE(alone.reason.find("under mpirun -np 6"), std::string::npos) << alone.reason;
    RunOptions single;
    ASSERT_TRUE(parse_run_options({ "--ranks", "1x1", "--backend", "cpu", "--size", "64x64" }, single));
    EXPECT_TRUE(check_run_request("run", { single }, DeviceCatalogue {}, 1));
}
