// SPDX-License-Identifier: MIT
#include "gpu/problem/arithmetic_intensity.h"

#include "gpu/problem/physics.h"

namespace ss {
namespace {

int fma_chain_flops(int points) {
    return points > 0 ? 2 * points - 1 : 0;
}

// The star's points that weigh something: the jacobi rule gives its centre no weight.
int star_points(UpdateRule rule, int dims, int radius) {
    return 2 * dims * radius + (star_weights(rule, dims, radius).centre != 0.0 ? 1 : 0);
}

} // namespace

int flops_per_cell(const StencilConfig& c) {
    const StencilProblem& p = c.problem;
    switch (p.stencil) {
    case StencilKind::Diffusion4:
        return 2 * fma_chain_flops(2 * p.dims + 1) + 2;
    case StencilKind::Points:
        return p.shape ? fma_chain_flops(int(p.shape->points.size())) : 0;
    case StencilKind::Star:
        break;
    }
    return fma_chain_flops(star_points(p.rule, p.dims, p.radius)) + (p.rule == UpdateRule::Wave ? 1 : 0);
}

double ideal_arithmetic_intensity(const StencilConfig& c) {
    const int bytes = ideal_bytes_per_cell(c);
    return bytes > 0 ? double(flops_per_cell(c)) / bytes : 0.0;
}

} // namespace ss
