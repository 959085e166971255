// SPDX-License-Identifier: MIT
// The 3D max projection reduced on the GPU (Simulation::max_projection_to_device) equals the host's reduction of the
// downloaded volume, for every axis and both precisions.
#include "gpu_test_util.h"

#include <cuda_runtime.h>

#include <cmath>

using namespace ss;

namespace {

std::vector<float> host_projection(const std::vector<double>& all, const Extent& e, SliceAxis axis) {
    const auto [nu, nv] = slice_size(e, axis);
    std::vector<float> out(std::size_t(nu) * nv, -INFINITY);
    for (int z = 0; z < e.nz; ++z)
        for (int y = 0; y < e.ny; ++y)
            for (int x = 0; x < e.nx; ++x) {
                const float v = float(all[(std::size_t(z) * e.ny + y) * e.nx + x]);
                const std::size_t i = axis == SliceAxis::XY ? x + std::size_t(y) * nu
                    : axis == SliceAxis::XZ                 ? x + std::size_t(z) * nu
                                                            : y + std::size_t(z) * nu;
                out[i] = std::max(out[i], v);
            }
    return out;
}

TEST(MaxProjection, OnTheGpuEqualsTheHostReduction) {
    SKIP_WITHOUT_GPU();
    for (Precision precision : { Precision::FP32, Precision::FP64 }) {
        StencilConfig c;
        c.problem.dims = 3;
        c.problem.radius = 2;
        c.problem.precision = precision;
        c.problem.size = { 67, 45, 38 };
        auto sim = test::make_with_random_field(c);
        ASSERT_NE(sim, nullptr);
        sim->step(3);
        const std::vector<double> all = sim->download();
        for (SliceAxis axis : { SliceAxis::XY, SliceAxis::XZ, SliceAxis::YZ }) {
            SCOPED_TRACE(describe(c) + " axis " + std::to_string(int(axis)));
            const auto [nu, nv] = slice_size(c.problem.size, axis);
            const std::size_t count = std::size_t(nu) * nv;
            float* device = nullptr;
            ASSERT_EQ(cudaMalloc(&device, count * sizeof(float)), cudaSuccess);
            ASSERT_EQ(cudaMemset(device, 0xff, count * sizeof(float)), cudaSuccess); // NaN: every value must be written
            ASSERT_TRUE(sim->max_projection_to_device(axis, device));
            sim->synchronize();
            std::vector<float> got(count);
            ASSERT_EQ(cudaMemcpy(got.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
            cudaFree(device);
            EXPECT_EQ(got, host_projection(all, c.problem.size, axis));
        }
    }
}

} // namespace
