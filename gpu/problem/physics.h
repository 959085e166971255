// SPDX-License-Identifier: MIT
// The mathematics shared by every backend: stencil weights, the wave's Courant factor, the bytes a
// step must move at best, and initial conditions. The CPU reference and the kernel generator both
// read these, so the GPU and the reference can never disagree on a coefficient.
#pragma once

#include "gpu/problem/config.h"

#include <cstdint>
#include <vector>

namespace ss {

// Diffusion study: explicit Euler step out = in - alpha * lap(lap(in)).
inline constexpr double kDiffusionAlpha = 1.0 / 32.0;
// Halo width of the periodic diffusion layers: two Laplacians of radius 1.
inline constexpr int kDiffusionHalo = 2;

// Star weights along one axis at distance d = 1..R, and the centre weight.
// thesis/jacobi: every neighbour weighs 1/(2*D*R); wave: order-2R central second difference.
struct StarWeights {
    std::vector<double> neighbour; // index d = 0..R (entry 0 unused)
    double centre = 0.0; // the coefficient of `in` at the centre in the update
    double wave_c2 = 0.0; // c^2 dt^2 / dx^2 for the wave rule
};
StarWeights star_weights(UpdateRule, int dims, int radius);

// Standard central-difference weights of d2/dx2 of order 2R: a[0..R].
std::vector<double> second_derivative_weights(int radius);

// Cells whose value a step computes (the Dirichlet border of width R stays fixed; diffusion
// updates every cell). Throughput figures (GCells/s) count these.
std::int64_t updated_cells(const StencilConfig&);
// Bytes one step must move between DRAM and the SMs at best, per updated cell:
// read in + write out, plus reading u(t-1) for the wave.
int ideal_bytes_per_cell(const StencilConfig&);

// x fastest, then y, then z; nz == 1 in 2D.
std::vector<double> make_initial_field(const StencilConfig&, InitialCondition, std::uint64_t seed);
// The field the problem starts from: its own initial condition and seed.
inline std::vector<double> initial_field(const StencilConfig& c) {
    return make_initial_field(c, c.problem.initial, c.problem.seed);
}

} // namespace ss
