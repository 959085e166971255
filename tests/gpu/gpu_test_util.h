// SPDX-License-Identifier: MIT
#pragma once

#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/create_simulation.h"
#include "gpu/backends/cuda/kernel_compiler.h"
#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/problem/device.h"
#include "gpu/problem/physics.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <thread>

#define SKIP_WITHOUT_GPU()                                                                                             \
    do {                                                                                                               \
        if (!ss::test::catalogue().has_cuda())                                                                         \
            GTEST_SKIP() << "no CUDA device: " << ss::test::catalogue().unavailable;                                   \
    } while (0)

namespace ss::test {

// The devices, queried once per test program (as each program's main does).
inline const DeviceCatalogue& catalogue() {
    static const DeviceCatalogue devices = query_device_catalogue();
    return devices;
}

inline double tolerance(Precision p) {
    return p == Precision::FP32 ? 1e-5 : 1e-12;
}

// Compiles every configuration's kernels on all cores first (NVRTC is the slow part of the matrix).
// Creating the simulations also compiles the stream kernels specialised for their chosen block.
inline void warm_kernel_cache(const std::vector<StencilConfig>& configs) {
    std::atomic<std::size_t> next { 0 };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < std::max(2u, std::thread::hardware_concurrency()); ++t)
        pool.emplace_back([&] {
            for (std::size_t i; (i = next++) < configs.size();) {
                std::string ignored; // failures are reported by the test that uses the configuration
                create_simulation(configs[i], catalogue(), &ignored);
            }
        });
    for (auto& t : pool) t.join();
}

// A simulation of `c` holding a random field (seed 7); null, and a test failure, when it cannot be made.
inline std::unique_ptr<Simulation> make_with_random_field(const StencilConfig& c) {
    std::string why;
    auto sim = create_simulation(c, catalogue(), &why);
    EXPECT_NE(sim, nullptr) << describe(c) << ": " << why;
    if (sim) sim->upload(make_initial_field(c, InitialCondition::Random, 7));
    return sim;
}

// The values the device really holds after upload (rounded to its precision).
inline std::vector<double> rounded(const std::vector<double>& f, Precision p) {
    if (p == Precision::FP64) return f;
    std::vector<double> out(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) out[i] = double(float(f[i]));
    return out;
}

// Cells a star step updates (every cell for diffusion).
inline std::vector<double> updated_only(const StencilConfig& c, const std::vector<double>& f) {
    if (c.problem.stencil == StencilKind::Diffusion4) return f;
    std::vector<double> out;
    const int r = c.problem.radius, nz = c.problem.dims == 3 ? c.problem.size.nz : 1;
    for (int z = (c.problem.dims == 3 ? r : 0); z < (c.problem.dims == 3 ? nz - r : 1); ++z)
        for (int y = r; y < c.problem.size.ny - r; ++y)
            for (int x = r; x < c.problem.size.nx - r; ++x)
                out.push_back(f[(std::size_t(z) * c.problem.size.ny + y) * c.problem.size.nx + x]);
    return out;
}

} // namespace ss::test
