// SPDX-License-Identifier: MIT
// The CUPTI collector against what a kernel must do: a copy-like stencil moves its field once each
// way, a spilling kernel shows local traffic, and kernel replay leaves the field as an unprofiled step
// would; split over GPUs, each GPU's collector sees its own rows' traffic. Its own process: the range
// profiler does not share a context with other profilers.
#include "gpu_test_util.h"

#include "gpu/plan/strip_plan.h"
#include "gpu/profiler/collector.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <tuple>

using namespace ss;

namespace {

// One collector per device for the process (creation builds the config image; the GUI keeps one per
// device too), created on the test thread, which profiles.
MetricsCollector* collector(int device = 0) {
    static std::map<int, std::unique_ptr<MetricsCollector>> collectors;
    std::unique_ptr<MetricsCollector>& c = collectors[device];
    std::string why;
    if (!c) c = create_metrics_collector(device, &why);
    if (!c) ADD_FAILURE() << "no collector on device " << device << ": " << why;
    return c.get();
}

ProfiledLaunch profile_one_step(Simulation& sim) {
    ProfiledLaunch p;
    std::string why;
    EXPECT_TRUE(collector()->profile([&sim] { sim.step(1); }, &p, &why)) << why;
    return p;
}

double metric(const ProfiledLaunch& p, const std::string& name) {
    const auto it = p.metrics.find(name);
    EXPECT_NE(it, p.metrics.end()) << name << " was not collected";
    return it == p.metrics.end() ? -1.0 : it->second;
}

} // namespace

// The live view keeps stepping between profiles. Prints (does not assert) the unprofiled step time
// before the collector exists and after it has profiled once, for docs/PERFORMANCE.md.
TEST(Collector, ProfilesInTheMiddleOfARunningSimulation) {
    SKIP_WITHOUT_GPU();
    StencilConfig c;
    c.problem.size = { 4096, 4096, 1 }, c.problem.radius = 4;
    auto sim = test::make_with_random_field(c);
    ASSERT_NE(sim, nullptr);
    sim->step(10);
    const double before = sim->step(50).milliseconds / 50;
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_NE(collector(), nullptr);
    const double create_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const long long iteration = sim->iteration();
    const ProfiledLaunch p = profile_one_step(*sim);
    EXPECT_EQ(sim->iteration(), iteration + 1);
    EXPECT_EQ(p.kernels, 1);
    const double after = sim->step(50).milliseconds / 50;
    std::printf("unprofiled step: %.4f ms before the collector, %.4f ms after; collector created in %.0f ms; "
                "profile(): %d passes, %.1f ms\n",
        before, after, create_ms, p.passes, p.wall_ms);
    std::fflush(stdout);
}

TEST(Collector, ReportsItsMetricsAndPasses) {
    SKIP_WITHOUT_GPU();
    MetricsCollector* c = collector();
    ASSERT_NE(c, nullptr);
    EXPECT_GT(c->passes(), 0);
    std::printf("%zu metrics in %d passes; dropped:", c->collected_metrics().size(), c->passes());
    for (const auto& d : c->dropped_metrics()) std::printf(" %s", d.c_str());
    std::printf("\n");
    std::fflush(stdout);
    for (const auto& m : kernel_metrics()) {
        const auto collected = c->collected_metrics();
        EXPECT_NE(std::find(collected.begin(), collected.end(), std::string(m.name)), collected.end()) << m.name;
    }
}

// 2D star R1 jacobi, fp32: each cell is read once and written once. 16384^2 x 4 B = 1 GiB per buffer,
// twenty times the H100's 50 MB L2, so what the replay's memory restore leaves in L2 stays below 5 %.
TEST(Collector, CopyLikeStencilMovesItsFieldOnceEachWay) {
    SKIP_WITHOUT_GPU();
    ASSERT_NE(collector(), nullptr);
    StencilConfig c;
    c.problem.size = { 16384, 16384, 1 };
    auto sim = test::make_with_random_field(c);
    ASSERT_NE(sim, nullptr);
    sim->step(1); // warm: kernel loaded, first-touch costs paid
    const ProfiledLaunch p = profile_one_step(*sim);
    const double ideal = double(sizeof(float)) * double(c.problem.size.cells());
    const double read = metric(p, "dram__bytes_read.sum"), write = metric(p, "dram__bytes_write.sum");
    std::printf("read %.4f x, write %.4f x the field; %d kernel(s), %d passes, %.1f ms wall\n", read / ideal,
        write / ideal, p.kernels, p.passes, p.wall_ms);
    std::fflush(stdout);
    EXPECT_EQ(p.kernels, 1);
    EXPECT_NEAR(read / ideal, 1.0, 0.10);
    EXPECT_NEAR(write / ideal, 1.0, 0.10);
    EXPECT_GT(metric(p, "gpu__time_duration.sum"), 0.0);

    // A second profile of the same launch reuses the config: the same traffic again.
    const ProfiledLaunch again = profile_one_step(*sim);
    EXPECT_NEAR(metric(again, "dram__bytes_read.sum") / read, 1.0, 0.05);
    std::printf("second profile: %.1f ms wall\n", again.wall_ms);
    std::fflush(stdout);
}

// Kernels that spill registers (the thesis' 3D bottleneck): local-memory traffic must show. The first
// candidate whose compiled kernel has local memory is profiled.
TEST(Collector, SpillingKernelShowsLocalMemoryTraffic) {
    SKIP_WITHOUT_GPU();
    ASSERT_NE(collector(), nullptr);
    std::vector<StencilConfig> candidates;
    for (auto [v, cf, p] : { std::tuple { Variant::Stream, 2, Precision::FP64 },
             std::tuple { Variant::Stream, 8, Precision::FP32 }, std::tuple { Variant::Stream, 4, Precision::FP64 },
             std::tuple { Variant::Smem, 8, Precision::FP64 }, std::tuple { Variant::Base, 8, Precision::FP64 } }) {
        StencilConfig c;
        c.problem.dims = 3, c.problem.radius = 16, c.policy.variant = v, c.policy.cf = cf, c.problem.precision = p,
        c.problem.size = { 256, 256, 256 };
        candidates.push_back(c);
    }
    for (const StencilConfig& c : candidates) {
        std::string why;
        auto sim = can_implement(c, test::catalogue()) ? create_simulation(c, test::catalogue(), &why) : nullptr;
        if (!sim || sim->resources().local_bytes == 0) continue;
        sim->upload(make_initial_field(c, InitialCondition::Random, 7));
        sim->step(1);
        const ProfiledLaunch p = profile_one_step(*sim);
        const double ld = metric(p, "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"),
                     st = metric(p, "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum");
        std::printf("%s: %d B local/thread, local loads %.3g B, stores %.3g B\n", describe(c).c_str(),
            sim->resources().local_bytes, ld, st);
        std::fflush(stdout);
        EXPECT_GT(ld + st, 0.0);
        EXPECT_GT(st, 0.0);
        return;
    }
    FAIL() << "none of the candidate configurations spills on this device";
}

// Kernel replay restores device memory between passes. The wave rule reads u(t-1) from the buffer it
// writes, so a replay that did not restore memory would change the result.
TEST(Collector, ProfiledStepLeavesTheFieldOfAnUnprofiledStep) {
    SKIP_WITHOUT_GPU();
    ASSERT_NE(collector(), nullptr);
    StencilConfig c;
    c.problem.rule = UpdateRule::Wave, c.problem.radius = 4, c.problem.size = { 2048, 2048, 1 };
    auto sim = test::make_with_random_field(c);
    ASSERT_NE(sim, nullptr);
    const std::vector<double> initial = make_initial_field(c, InitialCondition::Random, 7);
    sim->step(2); // u(t-1) != u(t) from here on
    const std::vector<double> before = sim->download();
    const ProfiledLaunch p = profile_one_step(*sim);
    EXPECT_GT(p.passes, 1) << "a single pass would not exercise the restore";
    const std::vector<double> profiled = sim->download();

    sim->upload(initial);
    sim->step(2);
    ASSERT_EQ(sim->download(), before);
    sim->step(1);
    const std::vector<double> plain = sim->download();
    ASSERT_EQ(profiled.size(), plain.size());
    EXPECT_EQ(std::memcmp(profiled.data(), plain.data(), plain.size() * sizeof(double)), 0)
        << "the profiled step changed the field differently";
    EXPECT_NE(plain, before) << "the step did nothing";
}

// A copy-like split run (2D R1 jacobi, fp32): profiled with one collector per GPU, nested, each GPU's DRAM
// traffic must be that of its own rows — each updated cell read and written once — within a sane factor
// (kernel replay's memory restore and the ghost rows add a little; another GPU's rows would double it).
void expect_each_gpu_moves_its_rows(const StencilConfig& c) {
    auto sim = test::make_with_random_field(c);
    ASSERT_NE(sim, nullptr);
    sim->step(1); // warm: kernels loaded, peer access enabled, first-touch costs paid
    const std::vector<DeviceShare> shares = device_shares(c);
    std::vector<MetricsCollector*> collectors;
    for (const DeviceShare& share : shares) {
        collectors.push_back(collector(share.device));
        ASSERT_NE(collectors.back(), nullptr);
    }
    const long long iteration = sim->iteration();
    std::vector<ProfiledLaunch> per_gpu;
    std::string why;
    ASSERT_TRUE(profile_devices(
        collectors, [&] { sim->step(1); }, &per_gpu, &why))
        << why;
    EXPECT_EQ(sim->iteration(), iteration + 1);
    ASSERT_EQ(per_gpu.size(), shares.size());
    for (std::size_t g = 0; g < shares.size(); ++g) {
        const ProfiledLaunch& p = per_gpu[g];
        const double ideal = double(sizeof(float)) * double(shares[g].updated_cells); // one way
        const double read = metric(p, "dram__bytes_read.sum"), write = metric(p, "dram__bytes_write.sum");
        const double ms = metric(p, "gpu__time_duration.sum") * 1e-6;
        std::printf("GPU %d (%d strip%s, %lld cells): %d kernels, read %.4f x, write %.4f x its rows' ideal bytes, "
                    "%.4f ms, DRAM %.0f GB/s read + %.0f GB/s write, %.1f ms wall\n",
            shares[g].device, shares[g].strips, shares[g].strips == 1 ? "" : "s",
            static_cast<long long>(shares[g].updated_cells), p.kernels, read / ideal, write / ideal, ms,
            read / (ms * 1e6), write / (ms * 1e6), p.wall_ms);
        std::fflush(stdout);
        EXPECT_GE(p.kernels, shares[g].strips) << "every strip on GPU " << shares[g].device << " launches a kernel";
        EXPECT_GT(write / ideal, 0.8) << "GPU " << shares[g].device;
        EXPECT_LT(write / ideal, 1.5) << "GPU " << shares[g].device;
        EXPECT_GT(read / ideal, 0.8) << "GPU " << shares[g].device;
        EXPECT_LT(read / ideal, 1.5) << "GPU " << shares[g].device;
    }
}

TEST(Collector, SplitRunGivesEachGpuTheTrafficOfItsRows) {
    SKIP_WITHOUT_GPU();
    const std::size_t devices = test::catalogue().devices.size();
    if (devices < 2) GTEST_SKIP() << "needs 2 CUDA devices, found " << devices << " (the next test splits one GPU)";
    StencilConfig c;
    c.problem.size = { 16384, 16384, 1 }; // 512 MiB of each GPU's buffers: ten times the L2
    c.placement.gpus = 2;
    expect_each_gpu_moves_its_rows(c);
}

// The testing hook on one GPU: both strips' kernels land in that GPU's one collector, counted together.
TEST(Collector, StripsSharingOneGpuAreCountedTogether) {
    SKIP_WITHOUT_GPU();
    StencilConfig c;
    c.problem.size = { 16384, 16384, 1 };
    c.placement.strips_per_device = 2;
    expect_each_gpu_moves_its_rows(c);
}

// A split run's profiled step (what the metrics panel and `profile --gpus N` take) must leave the field of
// an unprofiled step: kernel replay restores a GPU's memory between passes, so a halo copy landing in that
// memory while a kernel is replayed would be undone. Wave rule (it reads u(t-1) from the buffer it
// writes), every halo mode, overlap on and off; two GPUs when present, else strips sharing one GPU.
TEST(Collector, ProfiledSplitStepLeavesTheFieldOfAnUnprofiledStep) {
    SKIP_WITHOUT_GPU();
    const bool two = test::catalogue().devices.size() >= 2;
    for (HaloMode halo : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote })
        for (bool overlap : { true, false }) {
            if (halo == HaloMode::Remote && overlap) continue; // remote mode has nothing to overlap
            StencilConfig c;
            c.problem.rule = UpdateRule::Wave, c.problem.radius = 4, c.problem.size = { 2048, 2050, 1 };
            c.placement.gpus = two ? 2 : 1;
            c.placement.strips_per_device = two ? 1 : 3;
            c.placement.halo = halo, c.placement.overlap = overlap;
            SCOPED_TRACE(describe(c));
            auto sim = test::make_with_random_field(c);
            ASSERT_NE(sim, nullptr);
            const std::vector<double> initial = make_initial_field(c, InitialCondition::Random, 7);
            sim->step(2);
            std::vector<MetricsCollector*> collectors;
            for (const DeviceShare& share : device_shares(c)) collectors.push_back(collector(share.device));
            std::vector<ProfiledLaunch> per_gpu;
            std::string why;
            for (int i = 0; i < 2; ++i) // twice: a step right after a profiled one is checked too
                ASSERT_TRUE(profile_devices(
                    collectors, [&] { sim->step_for_profiling(1); }, &per_gpu, &why))
                    << why;
            sim->step(1);
            const std::vector<double> profiled = sim->download();

            sim->upload(initial);
            sim->step(5);
            const std::vector<double> plain = sim->download();
            ASSERT_EQ(profiled.size(), plain.size());
            EXPECT_EQ(std::memcmp(profiled.data(), plain.data(), plain.size() * sizeof(double)), 0)
                << "the profiled steps changed the field differently";
        }
}
