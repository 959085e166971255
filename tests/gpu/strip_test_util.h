// SPDX-License-Identifier: MIT
// What the split-run tests (multi_gpu_tests, split_axis_tests, temporal_strips_tests) compare with.
#pragma once

#include "gpu/backends/create_simulation.h"
#include "gpu_test_util.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace ss::test {

inline bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The field after `steps` steps from `initial`; empty (and `why` said) when the simulation cannot be made.
inline std::vector<double> run(
    const StencilConfig& c, const std::vector<double>& initial, int steps, std::string* why) {
    auto sim = create_simulation(c, catalogue(), why);
    if (!sim) return {};
    sim->upload(initial);
    sim->step(steps);
    return sim->download();
}

// The first differing cell and both values, for the failure message; empty when none differs.
inline std::string first_difference(
    const StencilConfig& c, const std::vector<double>& got, const std::vector<double>& want) {
    if (got.size() != want.size()) return "sizes differ";
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::memcmp(&got[i], &want[i], sizeof(double)) != 0) {
            const std::size_t x = i % c.problem.size.nx, y = i / c.problem.size.nx % c.problem.size.ny,
                              z = i / (std::size_t(c.problem.size.nx) * c.problem.size.ny);
            return "first difference at (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z)
                + "): " + std::to_string(got[i]) + " vs " + std::to_string(want[i]);
        }
    return "";
}

// A display plane as the GUI gets it (slice_to_device into device memory, k x k averaged), copied back.
// A failure is a test failure, and the result is then empty.
inline std::vector<float> slice_via_device(Simulation& s, SliceAxis plane, int index, int k) {
    const auto [nu, nv] = slice_size(s.config().problem.size, plane);
    std::vector<float> out(std::size_t((nu + k - 1) / k) * ((nv + k - 1) / k));
    float* device = nullptr;
    if (cudaMalloc(&device, out.size() * sizeof(float)) != cudaSuccess) {
        ADD_FAILURE() << "cudaMalloc of a slice failed";
        return {};
    }
    if (!s.slice_to_device(plane, index, device, k)) ADD_FAILURE() << "slice_to_device refused";
    s.wait_marker(s.enqueue_marker());
    if (cudaMemcpy(out.data(), device, out.size() * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
        ADD_FAILURE() << "copying the slice back failed";
    cudaFree(device);
    return out;
}

// `c` (its split axis, halo mode and overlap as given) in 2 and 3 strips on one GPU, and on 2 and more GPUs where
// present and can_implement accepts it (remote halos need peer access).
inline std::vector<StencilConfig> strip_placements(StencilConfig c) {
    std::vector<StencilConfig> out;
    for (int n : { 2, 3 }) {
        c.placement.gpus = 1, c.placement.strips_per_device = n;
        out.push_back(c);
    }
    for (int g = 2; g <= catalogue().count(); ++g) {
        c.placement.gpus = g, c.placement.strips_per_device = 1;
        if (can_implement(c, catalogue()).ok) out.push_back(c);
    }
    return out;
}

} // namespace ss::test
