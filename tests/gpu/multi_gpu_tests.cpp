// SPDX-License-Identifier: MIT
// Strip partitioning must not change a single bit: for every variant, dims, rule and precision, the
// field after K steps on N strips equals the one-GPU field exactly (memcmp), with overlap on and off
// and on every halo path, remote loads included. On one GPU the testing hook (strips_per_device) puts N strips on the
// device; with more GPUs present, the strips also go to real devices.
#include "gpu_test_util.h"
#include "strip_test_util.h"

#include <cuda_runtime.h>

#include <cstring>
#include <functional>

using namespace ss;
using test::bitwise_equal;
using test::first_difference;
using test::run;

namespace {

constexpr int kSteps = 5;

// Odd extents, multiples of neither block nor CF; 3 strips of the 3D domain are exactly R planes thick,
// so they have no interior at all.
StencilConfig base_config(Variant v, int dims, UpdateRule rule, Precision p) {
    StencilConfig c;
    c.policy.variant = v, c.problem.dims = dims, c.problem.rule = rule, c.problem.precision = p, c.problem.radius = 3;
    c.policy.cf = v == Variant::Uncoalesced ? 1 : 2; // the teaching variant has no coarsening
    c.problem.size = dims == 2 ? Extent { 2 * 3 + 67, 2 * 3 + 29, 1 } : Extent { 2 * 3 + 13, 2 * 3 + 11, 2 * 3 + 9 };
    return c;
}

std::vector<StencilConfig> star_matrix() {
    std::vector<StencilConfig> out;
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced })
        for (int dims : { 2, 3 })
            for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Jacobi, UpdateRule::Wave })
                for (Precision p : { Precision::FP32, Precision::FP64 }) out.push_back(base_config(v, dims, rule, p));
    return out;
}

// The strip layouts to compare: N strips on one device, and N real GPUs where present.
std::vector<StencilConfig> splits_of(const StencilConfig& one) {
    std::vector<StencilConfig> out;
    const int devices = int(test::catalogue().devices.size());
    for (bool overlap : { true, false })
        for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote }) {
            if (halo == HaloMode::Remote && !overlap) continue; // remote mode copies nothing to overlap
            StencilConfig c = one;
            c.placement.overlap = overlap, c.placement.halo = halo;
            for (int n : { 2, 3 }) {
                c.placement.gpus = 1, c.placement.strips_per_device = n;
                out.push_back(c);
            }
            for (int g = 2; g <= devices; ++g) {
                c.placement.gpus = g, c.placement.strips_per_device = 1;
                if (halo != HaloMode::Remote || can_implement(c, test::catalogue()).ok) out.push_back(c); // peers
            }
        }
    return out;
}

} // namespace

TEST(MultiGpu, EveryStarVariantIsBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    const auto configs = star_matrix();
    std::vector<StencilConfig> warm = configs;
    for (StencilConfig c : configs) { // remote mode compiles its own kernels (they take neighbour pointers)
        c.placement.halo = HaloMode::Remote, c.placement.strips_per_device = 2;
        warm.push_back(c);
    }
    test::warm_kernel_cache(warm);
    int compared = 0;
    for (const StencilConfig& one : configs) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 7);
        std::string why;
        const auto want = run(one, initial, kSteps, &why);
        ASSERT_FALSE(want.empty()) << describe(one) << ": " << why;
        for (const StencilConfig& c : splits_of(one)) {
            const auto got = run(c, initial, kSteps, &why);
            ASSERT_FALSE(got.empty()) << describe(c) << ": " << why;
            EXPECT_TRUE(bitwise_equal(got, want)) << describe(c) << ": " << first_difference(c, got, want);
            ++compared;
        }
    }
    std::printf(
        "compared %d split runs with their one-GPU runs, %zu devices\n", compared, test::catalogue().devices.size());
}

TEST(MultiGpu, DiffusionLayersAreBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    for (Variant v : { Variant::Naive, Variant::Merged, Variant::NoTemp, Variant::Smem })
        for (Precision p : { Precision::FP32, Precision::FP64 }) {
            StencilConfig one;
            one.problem.stencil = StencilKind::Diffusion4, one.policy.variant = v, one.problem.precision = p,
            one.problem.dims = 3;
            one.problem.size = { 45, 33, 7 };
            const auto initial = make_initial_field(one, InitialCondition::Random, 3);
            std::string why;
            const auto want = run(one, initial, kSteps, &why);
            ASSERT_FALSE(want.empty()) << why;
            for (const StencilConfig& c : splits_of(one)) {
                const auto got = run(c, initial, kSteps, &why);
                ASSERT_FALSE(got.empty()) << describe(c) << ": " << why;
                EXPECT_TRUE(bitwise_equal(got, want)) << describe(c) << ": " << first_difference(c, got, want);
            }
        }
}

// Remote mode copies no ghost row: with the ghost rows poisoned (poison_output), a kernel that read them
// instead of its neighbours' rows would write NaN. Steps after the first are covered by the matrix above,
// where the never-refreshed ghost rows are stale.
TEST(MultiGpu, RemoteModeReadsTheNeighboursRowsNotGhostCopies) {
    SKIP_WITHOUT_GPU();
    int compared = 0;
    for (const StencilConfig& one : star_matrix()) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 13);
        std::vector<std::vector<double>> results;
        for (int strips : { 1, 2, 3 }) {
            StencilConfig c = one;
            c.placement.strips_per_device = strips, c.placement.halo = strips > 1 ? HaloMode::Remote : HaloMode::Auto;
            std::string why;
            auto sim = create_simulation(c, test::catalogue(), &why);
            ASSERT_TRUE(sim) << describe(c) << ": " << why;
            sim->upload(initial);
            sim->poison_output();
            sim->step(1);
            results.push_back(test::updated_only(one, sim->download()));
            if (strips == 1) continue;
            EXPECT_TRUE(bitwise_equal(results.back(), results.front()))
                << describe(c) << ": " << first_difference(c, results.back(), results.front());
            const MultiGpuStats stats = sim->multi_gpu_stats();
            EXPECT_EQ(stats.path_summary(), "remote") << describe(c);
            EXPECT_EQ(stats.halo_bytes(), 0) << describe(c);
            const Extent e = c.problem.size;
            const std::int64_t row = c.problem.dims == 3 ? std::int64_t(e.nx - 6) * (e.ny - 6) : e.nx - 6; // R 3
            EXPECT_EQ(stats.remote_bytes(), 2 * (strips - 1) * 3 * row * element_size(c.problem.precision));
            ++compared;
        }
    }
    std::printf("compared %d remote runs with their one-GPU runs\n", compared);
}

// The remote matrix: every star variant, 2D and 3D, R 1 and 4, fp32 and fp64. 4 strips of the 3D domain
// are R or R + 1 planes thick, so the rows a strip loads are (almost) all of its neighbour's rows.
std::vector<StencilConfig> remote_matrix() {
    std::vector<StencilConfig> out;
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced })
        for (int dims : { 2, 3 })
            for (int r : { 1, 4 })
                for (Precision p : { Precision::FP32, Precision::FP64 }) {
                    StencilConfig c
                        = base_config(v, dims, p == Precision::FP32 ? UpdateRule::Thesis : UpdateRule::Wave, p);
                    c.problem.radius = r;
                    c.problem.size = dims == 2 ? Extent { 2 * r + 67, 2 * r + 29, 1 }
                                               : Extent { 2 * r + 13, 2 * r + 11, 2 * r + 4 * r + 1 };
                    out.push_back(c);
                }
    return out;
}

// Runs each configuration of remote_matrix() on one GPU and as `place` puts it, K steps, and compares.
int compare_remote_runs(const std::function<void(Placement&)>& place) {
    std::vector<StencilConfig> warm;
    for (StencilConfig c : remote_matrix()) {
        warm.push_back(c);
        c.placement.halo = HaloMode::Remote;
        place(c.placement);
        warm.push_back(c);
    }
    test::warm_kernel_cache(warm);
    int compared = 0;
    for (const StencilConfig& one : remote_matrix()) {
        const auto initial = make_initial_field(one, InitialCondition::Random, 17);
        std::string why;
        const auto want = run(one, initial, kSteps, &why);
        EXPECT_FALSE(want.empty()) << describe(one) << ": " << why;
        StencilConfig c = one;
        c.placement.halo = HaloMode::Remote;
        place(c.placement);
        const auto got = run(c, initial, kSteps, &why);
        EXPECT_FALSE(got.empty()) << describe(c) << ": " << why;
        EXPECT_TRUE(bitwise_equal(got, want)) << describe(c) << ": " << first_difference(c, got, want);
        ++compared;
    }
    return compared;
}

TEST(MultiGpu, RemoteModeOnStripsOfOneGpuIsBitwiseEqualToOneGpuForRadius1And4) {
    SKIP_WITHOUT_GPU();
    int compared = 0;
    for (int strips : { 2, 3 })
        compared += compare_remote_runs([strips](Placement& p) { p.gpus = 1, p.strips_per_device = strips; });
    EXPECT_EQ(compared, 2 * int(remote_matrix().size()));
    std::printf("compared %d remote runs on strips of GPU 0 with their one-GPU runs\n", compared);
}

// Real devices: the kernels load the neighbour's rows over NVLink or PCIe. Two strips per GPU mix both kinds
// of neighbour (the same device, a peer).
TEST(MultiGpu, RemoteModeOnTwoGpusIsBitwiseEqualToOneGpu) {
    SKIP_WITHOUT_GPU();
    const DeviceCatalogue& devices = test::catalogue();
    if (devices.count() < 2)
        GTEST_SKIP() << "remote mode across GPUs needs 2 GPUs; this machine has " << devices.count();
    StencilConfig probe = remote_matrix().front();
    probe.placement.gpus = 2, probe.placement.halo = HaloMode::Remote;
    if (!devices.can_read(0, 1) || !devices.can_read(1, 0)) {
        const Status s = can_implement(probe, devices);
        EXPECT_FALSE(s.ok);
        EXPECT_NE(s.reason.find("peer access"), std::string::npos) << s.reason;
        GTEST_SKIP() << "GPU 0 and GPU 1 have no peer access: remote mode is refused (" << s.reason << ")";
    }
    int compared = 0;
    for (int strips : { 1, 2 })
        compared += compare_remote_runs([strips](Placement& p) { p.gpus = 2, p.strips_per_device = strips; });
    std::printf("compared %d remote runs on 2 GPUs with their one-GPU runs\n", compared);
}

TEST(MultiGpu, UploadDownloadInjectAndStateRoundTripAcrossStrips) {
    SKIP_WITHOUT_GPU();
    for (int dims : { 2, 3 }) {
        StencilConfig one = base_config(Variant::Stream, dims, UpdateRule::Wave, Precision::FP32);
        StencilConfig split = one;
        split.placement.strips_per_device = 3;
        const auto initial = make_initial_field(one, InitialCondition::Random, 11);
        std::string why;
        auto a = create_simulation(one, test::catalogue(), &why);
        auto b = create_simulation(split, test::catalogue(), &why);
        ASSERT_TRUE(a && b) << why;
        a->upload(initial);
        b->upload(initial);
        EXPECT_TRUE(bitwise_equal(b->download(), test::rounded(initial, one.problem.precision)));
        // A ball across the first strip boundary, and one touching the Dirichlet border.
        const int boundary = plan_strips(split).strips[0].end_row;
        for (Simulation* s : { a.get(), b.get() }) {
            s->step(2);
            if (dims == 2)
                s->inject(20, boundary, 0, 4, 3.5);
            else
                s->inject(9, 8, boundary, 3, 3.5);
            s->inject(2, 2, dims == 3 ? 2 : 0, 3, -1.0);
            s->step(3);
        }
        const auto want = a->download();
        EXPECT_TRUE(bitwise_equal(b->download(), want))
            << describe(split) << ": " << first_difference(one, b->download(), want);
        // Move the split run to one GPU and the single run to 2 strips: the wave's u(t-1) goes along.
        StencilConfig two = one;
        two.placement.strips_per_device = 2;
        two.placement.overlap = false;
        ASSERT_TRUE(repartition(a, two, test::catalogue()).ok);
        ASSERT_TRUE(repartition(b, one, test::catalogue()).ok);
        EXPECT_EQ(a->config(), two);
        EXPECT_EQ(a->iteration(), 5);
        a->step(2);
        b->step(2);
        EXPECT_TRUE(bitwise_equal(a->download(), b->download())) << "after repartition, " << describe(two);
        StencilConfig other_field = one;
        other_field.problem.radius = 2;
        EXPECT_FALSE(repartition(a, other_field, test::catalogue()).ok);
        EXPECT_NE(a, nullptr); // refused before anything was released
    }
}

TEST(MultiGpu, SlicesComeFromEveryStripOntoTheFirstGpu) {
    SKIP_WITHOUT_GPU();
    for (int dims : { 2, 3 }) {
        StencilConfig one = base_config(Variant::Base, dims, UpdateRule::Jacobi, Precision::FP64);
        StencilConfig split = one;
        split.placement.strips_per_device = 3;
        std::string why;
        auto a = create_simulation(one, test::catalogue(), &why);
        auto b = create_simulation(split, test::catalogue(), &why);
        ASSERT_TRUE(a && b) << why;
        const auto initial = make_initial_field(one, InitialCondition::Random, 5);
        for (Simulation* s : { a.get(), b.get() }) {
            s->upload(initial);
            s->step(3);
        }
        const std::vector<SliceAxis> axes
            = dims == 2 ? std::vector { SliceAxis::XY } : std::vector { SliceAxis::XY, SliceAxis::XZ, SliceAxis::YZ };
        for (SliceAxis axis : axes)
            for (int k : { 1, 2, 4 }) { // k - 1 <= R: a block past a strip boundary reads only ghost rows
                const int index = dims == 3 ? 7 : 0;
                const std::vector<float> want = test::slice_via_device(*a, axis, index, k);
                const std::vector<float> got = test::slice_via_device(*b, axis, index, k);
                EXPECT_EQ(got, want) << "axis " << int(axis) << " k " << k << " " << describe(split);
                if (k == 1) {
                    EXPECT_EQ(b->download_slice(axis, index), want) << "axis " << int(axis);
                }
            }
    }
}

TEST(MultiGpu, ReportsStripsPathsAndTimes) {
    SKIP_WITHOUT_GPU();
    StencilConfig c = base_config(Variant::Base, 2, UpdateRule::Jacobi, Precision::FP32);
    c.problem.size = { 512, 301, 1 };
    c.placement.strips_per_device = 3;
    for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged }) {
        c.placement.halo = halo;
        std::string why;
        auto sim = create_simulation(c, test::catalogue(), &why);
        ASSERT_TRUE(sim) << why;
        MultiGpuStats stats = sim->multi_gpu_stats();
        EXPECT_FALSE(stats.timed);
        ASSERT_EQ(stats.strips.size(), 3u);
        EXPECT_EQ(stats.strips.front().first_row, 0);
        EXPECT_EQ(stats.strips.back().end_row, 301);
        EXPECT_EQ(stats.path_summary(), halo == HaloMode::Staged ? "staged through host" : "same device");
        EXPECT_EQ(stats.strips[1].halo_bytes, 2 * 3 * 512 * 4); // R rows from each side
        sim->upload(std::vector<double>(std::size_t(c.problem.size.cells()), 1.0));
        sim->step(4);
        stats = sim->multi_gpu_stats();
        EXPECT_TRUE(stats.timed);
        std::int64_t cells = 0;
        for (const StripStats& s : stats.strips) cells += s.updated_cells;
        EXPECT_EQ(cells, updated_cells(c));
    }
    const auto devices = test::catalogue().devices;
    if (devices.size() >= 2) {
        c.placement.strips_per_device = 1, c.placement.gpus = 2, c.placement.halo = HaloMode::Auto;
        std::string why;
        auto sim = create_simulation(c, test::catalogue(), &why);
        ASSERT_TRUE(sim) << why;
        int can = 0;
        cudaDeviceCanAccessPeer(&can, 1, 0);
        EXPECT_EQ(sim->multi_gpu_stats().path_summary(), can ? "peer-to-peer" : "staged through host");
        std::printf("2 GPUs: halo path %s\n", sim->multi_gpu_stats().path_summary().c_str());
    }
}

TEST(MultiGpu, OneGpuReportsOneUntimedStrip) {
    SKIP_WITHOUT_GPU();
    StencilConfig c;
    c.problem.size = { 64, 48, 1 };
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    ASSERT_TRUE(sim) << why;
    const MultiGpuStats stats = sim->multi_gpu_stats();
    ASSERT_EQ(stats.strips.size(), 1u);
    EXPECT_EQ(stats.strips[0].end_row, 48);
    EXPECT_EQ(stats.path_summary(), "none");
}
