// SPDX-License-Identifier: MIT
// The CPU backend: the same stencils and rules as the kernels, multi-threaded. In double precision it
// is the reference the kernel tests compare against; in the config's precision it is the fallback
// backend when no CUDA device is present.
#pragma once

#include "gpu/backends/simulation.h"

#include <memory>
#include <vector>

namespace ss {

std::unique_ptr<Simulation> create_cpu_simulation(const StencilConfig&);
// The current buffer of a CPU simulation as raw memory (x fastest, the config's precision), for a rank's
// ghost-row exchange (gpu/backends/rank_strip.h); it alternates with every step. nullptr for any other simulation.
unsigned char* cpu_current_buffer(Simulation&);

// `steps` steps of `config`'s stencil computed in double precision from `initial`.
std::vector<double> cpu_reference(const StencilConfig& config, const std::vector<double>& initial, int steps);

} // namespace ss

namespace ss {
// ||a - b||_2 / ||b||_2 (b the reference); 0 when both are zero, infinity on a size mismatch or NaN.
double relative_l2_error(const std::vector<double>& a, const std::vector<double>& b);
} // namespace ss
