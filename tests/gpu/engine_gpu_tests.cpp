// SPDX-License-Identifier: MIT
// The CUDA backend's other duties: slices, the display path, injection, resources, validation.
#include "gpu/backends/gl_interop.h"
#include "gpu/plan/launch_policy.h"
#include "gpu_test_util.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace ss;

namespace {
StencilConfig small3d(Variant v = Variant::Smem) {
    StencilConfig c;
    c.problem.dims = 3, c.problem.radius = 2, c.policy.variant = v;
    c.problem.size = { 37, 29, 23 };
    return c;
}
} // namespace

TEST(CudaBackend, SlicesMatchTheDownloadedField) {
    SKIP_WITHOUT_GPU();
    for (StencilKind kind : { StencilKind::Star, StencilKind::Diffusion4 }) {
        StencilConfig c = small3d();
        c.problem.stencil = kind;
        std::string why;
        auto sim = create_simulation(c, test::catalogue(), &why);
        ASSERT_TRUE(sim) << why;
        sim->upload(make_initial_field(c, InitialCondition::Random, 9));
        sim->step(2);
        const auto f = sim->download();
        const Extent e = c.problem.size;
        auto at = [&](int x, int y, int z) { return float(f[(std::size_t(z) * e.ny + y) * e.nx + x]); };
        const auto xy = sim->download_slice(SliceAxis::XY, 5);
        const auto xz = sim->download_slice(SliceAxis::XZ, 7);
        const auto yz = sim->download_slice(SliceAxis::YZ, 11);
        EXPECT_EQ(xy[3 * e.nx + 4], at(4, 3, 5));
        EXPECT_EQ(xz[6 * e.nx + 9], at(9, 7, 6));
        EXPECT_EQ(yz[8 * e.ny + 10], at(11, 10, 8));
        for (SliceAxis axis : { SliceAxis::XY, SliceAxis::XZ, SliceAxis::YZ }) {
            const auto host = sim->download_slice(axis, 4);
            float* device = nullptr;
            ASSERT_EQ(cudaMalloc(&device, host.size() * sizeof(float)), cudaSuccess);
            ASSERT_TRUE(sim->slice_to_device(axis, 4, device));
            sim->synchronize();
            std::vector<float> back(host.size());
            cudaMemcpy(back.data(), device, back.size() * sizeof(float), cudaMemcpyDeviceToHost);
            cudaFree(device);
            EXPECT_EQ(back, host) << "axis " << int(axis);
        }
    }
}

TEST(CudaBackend, DecimatedSlicesAverageTheirCells) {
    SKIP_WITHOUT_GPU();
    StencilConfig c;
    c.problem.size = { 37, 23, 1 };
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    ASSERT_TRUE(sim) << why;
    sim->upload(make_initial_field(c, InitialCondition::Random, 4));
    const auto full = sim->download_slice(SliceAxis::XY, 0);
    const int k = 4, ou = (37 + k - 1) / k, ov = (23 + k - 1) / k;
    float* device = nullptr;
    ASSERT_EQ(cudaMalloc(&device, ou * ov * sizeof(float)), cudaSuccess);
    ASSERT_TRUE(sim->slice_to_device(SliceAxis::XY, 0, device, k));
    sim->synchronize();
    std::vector<float> got(ou * ov);
    cudaMemcpy(got.data(), device, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(device);
    for (int v = 0; v < ov; ++v)
        for (int u = 0; u < ou; ++u) {
            double sum = 0;
            int n = 0;
            for (int y = v * k; y < std::min(v * k + k, 23); ++y)
                for (int x = u * k; x < std::min(u * k + k, 37); ++x, ++n) sum += full[y * 37 + x];
            EXPECT_NEAR(got[v * ou + u], sum / n, 1e-6) << u << "," << v; // edge blocks average fewer cells
        }
}

TEST(CudaBackend, InjectWritesADiscInsideTheBorder) {
    SKIP_WITHOUT_GPU();
    StencilConfig c;
    c.problem.size = { 64, 64, 1 };
    c.problem.radius = 3;
    std::string why;
    auto sim = create_simulation(c, test::catalogue(), &why);
    ASSERT_TRUE(sim) << why;
    sim->upload(std::vector<double>(64 * 64, 0.0));
    sim->inject(2, 30, 0, 4, 7.0);
    const auto f = sim->download();
    EXPECT_EQ(f[30 * 64 + 5], 7.0);
    EXPECT_EQ(f[30 * 64 + 2], 0.0); // the Dirichlet border is never written
    EXPECT_EQ(f[40 * 64 + 5], 0.0); // outside the disc
}

TEST(CudaBackend, ReportsKernelResourcesAndCachesCompilation) {
    SKIP_WITHOUT_GPU();
    StencilConfig c = small3d(Variant::SmemPadded);
    c.problem.size = { 96, 64, 48 }, c.problem.radius = 3, c.policy.cf = 3 - 1;
    std::string why;
    auto first = create_simulation(c, test::catalogue(), &why);
    ASSERT_TRUE(first) << why;
    const KernelResources& k = first->resources();
    EXPECT_GT(k.registers, 0);
    EXPECT_GT(k.dynamic_smem, 0);
    EXPECT_EQ(k.dynamic_smem, dynamic_smem_bytes(c, k.block));
    EXPECT_GT(k.theoretical_occupancy, 0.0);
    EXPECT_LE(k.theoretical_occupancy, 1.0);
    EXPECT_FALSE(k.occupancy_limiter.empty());
    EXPECT_GT(k.grid_blocks, 0);
    auto second = create_simulation(c, test::catalogue(), &why);
    ASSERT_TRUE(second) << why;
    EXPECT_EQ(second->resources().compile_ms, 0.0); // came from the kernel cache
}

TEST(CudaBackend, RunsAreBitwiseReproducible) {
    SKIP_WITHOUT_GPU();
    StencilConfig c = small3d(Variant::Stream);
    c.problem.rule = UpdateRule::Wave;
    std::vector<double> results[2];
    for (auto& r : results) {
        std::string why;
        auto sim = create_simulation(c, test::catalogue(), &why);
        ASSERT_TRUE(sim) << why;
        sim->upload(make_initial_field(c, InitialCondition::Gaussian, 0));
        sim->step(10);
        r = sim->download();
    }
    EXPECT_EQ(results[0], results[1]);
}

// A timed batch is held at a gate until it is queued whole (gpu/backends/cuda/launch_gate): the held batch must give
// the field that one launch at a time gives.
TEST(CudaBackend, AGatedBatchEqualsStepsOneByOne) {
    SKIP_WITHOUT_GPU();
    for (Variant v : { Variant::Stream, Variant::Base }) {
        StencilConfig c = small3d(v);
        c.problem.rule = UpdateRule::Jacobi;
        std::vector<double> results[2];
        for (int by_one = 0; by_one < 2; ++by_one) {
            std::string why;
            auto sim = create_simulation(c, test::catalogue(), &why);
            ASSERT_TRUE(sim) << why;
            sim->upload(make_initial_field(c, InitialCondition::Random, 3));
            if (by_one)
                for (int i = 0; i < 12; ++i) sim->step(1);
            else
                EXPECT_GT(sim->step(12).milliseconds, 0.0);
            results[by_one] = sim->download();
        }
        EXPECT_EQ(results[0], results[1]) << describe(c);
    }
}

TEST(CudaBackend, ValidationAgainstTheRealDevice) {
    SKIP_WITHOUT_GPU();
    const auto devices = test::catalogue().devices;
    StencilConfig c;
    c.problem.dims = 3;
    c.problem.size = { 8192, 8192, 1024 }; // 512 GiB in fp64
    c.problem.precision = Precision::FP64;
    Status s = can_implement(c, test::catalogue());
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("of GPU memory"), std::string::npos) << s.reason;
    c = StencilConfig {};
    c.placement.gpus = int(devices.size()) + 1;
    EXPECT_FALSE(can_implement(c, test::catalogue()).ok);
    c.placement.gpus = 1;
    c.placement.device = int(devices.size());
    s = can_implement(c, test::catalogue());
    EXPECT_NE(s.reason.find("does not exist"), std::string::npos) << s.reason;
    std::string why;
    EXPECT_EQ(create_simulation(c, test::catalogue(), &why), nullptr);
    EXPECT_FALSE(why.empty());
}

// The live view's automatic colour range is reduced on the GPU, on the simulation's stream: it must see
// every value, skip the non-finite ones, and order negative numbers correctly.
TEST(CudaBackend, DisplayRangeIsTheMinAndMaxOfTheFiniteValues) {
    SKIP_WITHOUT_GPU();
    std::string why;
    auto sim = create_simulation(small3d(), test::catalogue(), &why);
    ASSERT_TRUE(sim) << why;
    const std::size_t count = 1000003; // odd, and more values than one grid pass of the kernel covers
    auto buffers = DeviceSliceBuffers::create(0, count + 16, &why);
    ASSERT_TRUE(buffers) << why;
    const auto range_of = [&](const std::vector<float>& values, std::size_t n, int slot) {
        EXPECT_EQ(cudaMemcpy(buffers->slot(slot), values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice),
            cudaSuccess);
        std::fill_n(buffers->range_host(), 2, 0x5a5a5a5au); // poisoned: a copy that never lands shows
        EXPECT_TRUE(sim->queue_display_range(buffers->slot(slot), n, buffers->range_scratch(), buffers->range_host()));
        sim->wait_marker(sim->enqueue_marker());
        return buffers->queued_range();
    };
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> value(-3.0f, 7.0f);
    std::vector<float> host(count + 16);
    for (float& v : host) v = value(rng);
    host[17] = -12.5f; // the minimum, far from the end
    host[count - 1] = 42.25f; // the maximum, the last value counted
    host[count] = 1e30f; // past `count`: ignored
    host[123] = std::numeric_limits<float>::quiet_NaN();
    host[456] = std::numeric_limits<float>::infinity();
    host[789] = -std::numeric_limits<float>::infinity();
    for (int slot = 0; slot < DeviceSliceBuffers::kSlots; ++slot)
        EXPECT_EQ(range_of(host, count, slot), std::make_pair(-12.5f, 42.25f));
    std::vector<float> negative(64, -2.0f);
    negative[3] = -0.5f;
    negative[9] = -9.0f;
    EXPECT_EQ(range_of(negative, negative.size(), 0), std::make_pair(-9.0f, -0.5f));
    const std::vector<float> none(64, std::numeric_limits<float>::quiet_NaN());
    EXPECT_EQ(range_of(none, none.size(), 1), std::make_pair(0.0f, 1.0f));
}
