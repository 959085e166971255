// SPDX-License-Identifier: MIT
#include "gpu/problem/physics.h"

#include <array>
#include <cmath>
#include <utility>

namespace ss {

std::vector<double> second_derivative_weights(int radius) {
    // a_k = 2 (-1)^(k+1) (R!)^2 / (k^2 (R-k)! (R+k)!), a_0 = -2 sum a_k (Fornberg's closed form).
    std::vector<double> a(radius + 1, 0.0);
    double sum = 0.0;
    for (int k = 1; k <= radius; ++k) {
        double ratio = 1.0; // (R!)^2 / ((R-k)! (R+k)!) = prod_{i=1..k} (R-k+i)/(R+i)
        for (int i = 1; i <= k; ++i) ratio *= double(radius - k + i) / double(radius + i);
        a[k] = 2.0 * ((k % 2) ? 1.0 : -1.0) * ratio / double(k * k);
        sum += a[k];
    }
    a[0] = -2.0 * sum;
    return a;
}

StarWeights star_weights(UpdateRule rule, int dims, int radius) {
    StarWeights w;
    w.neighbour.assign(radius + 1, 0.0);
    if (rule == UpdateRule::Wave) {
        const auto a = second_derivative_weights(radius);
        // The most negative eigenvalue of the 1D operator is at the Nyquist mode; leapfrog is stable
        // while c2 * dims * |lambda| <= 4. Half of that keeps long fp32 runs calm.
        double lambda = a[0];
        for (int k = 1; k <= radius; ++k) lambda += 2.0 * a[k] * ((k % 2) ? -1.0 : 1.0);
        w.wave_c2 = 2.0 / (dims * std::fabs(lambda));
        for (int k = 1; k <= radius; ++k) w.neighbour[k] = w.wave_c2 * a[k];
        w.centre = 2.0 + w.wave_c2 * dims * a[0];
        return w;
    }
    const double inv = 1.0 / double(2 * dims * radius); // thesis: sum / STENCIL_COEFF, STENCIL_COEFF = 2*D*R
    for (int k = 1; k <= radius; ++k) w.neighbour[k] = inv;
    w.centre = rule == UpdateRule::Thesis ? -1.0 : 0.0;
    return w;
}

std::int64_t updated_cells(const StencilConfig& c) {
    if (c.problem.stencil == StencilKind::Diffusion4) return c.problem.size.cells();
    const int r2 = 2 * c.problem.radius;
    std::int64_t n = std::int64_t(std::max(0, c.problem.size.nx - r2)) * std::max(0, c.problem.size.ny - r2);
    if (c.problem.dims == 3) n *= std::max(0, c.problem.size.nz - r2);
    return n;
}

int ideal_bytes_per_cell(const StencilConfig& c) {
    const int reads = (c.problem.stencil == StencilKind::Star && c.problem.rule == UpdateRule::Wave) ? 2 : 1;
    return (reads + 1) * element_size(c.problem.precision);
}

namespace {
constexpr std::array kInitials { std::pair { std::string_view("gaussian"), InitialCondition::Gaussian },
    std::pair { std::string_view("random"), InitialCondition::Random },
    std::pair { std::string_view("square"), InitialCondition::Square },
    std::pair { std::string_view("hot-edges"), InitialCondition::HotEdges } };

// splitmix64: small, seedable, identical on every platform.
double uniform01(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return double(z >> 11) * (1.0 / 9007199254740992.0);
}
} // namespace

std::string_view to_string(InitialCondition v) {
    for (const auto& [n, e] : kInitials)
        if (e == v) return n;
    return "?";
}

std::optional<InitialCondition> parse_initial(std::string_view s) {
    for (const auto& [n, e] : kInitials)
        if (n == s) return e;
    return std::nullopt;
}

std::vector<double> make_initial_field(const StencilConfig& c, InitialCondition ic, std::uint64_t seed) {
    const int nx = c.problem.size.nx, ny = c.problem.size.ny, nz = c.problem.dims == 3 ? c.problem.size.nz : 1;
    const bool layered = c.problem.stencil == StencilKind::Diffusion4; // diffusion layers are independent 2D fields
    std::vector<double> f(std::size_t(nx) * ny * nz, 0.0);
    std::uint64_t state = seed;
    const double cx = 0.5 * (nx - 1), cy = 0.5 * (ny - 1), cz = 0.5 * (nz - 1);
    const double sigma = 0.08 * std::min(nx, ny);
    const int edge = has_dirichlet_border(c.problem.stencil) ? c.problem.radius : kDiffusionHalo;
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                double v = 0.0;
                switch (ic) {
                case InitialCondition::Random:
                    v = uniform01(state);
                    break;
                case InitialCondition::Gaussian: {
                    double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
                    if (nz > 1 && !layered) d2 += (z - cz) * (z - cz);
                    v = std::exp(-d2 / (2.0 * sigma * sigma));
                    break;
                }
                case InitialCondition::Square: {
                    bool in = x >= nx / 4 && x < 3 * nx / 4 && y >= ny / 4 && y < 3 * ny / 4;
                    if (nz > 1 && !layered) in = in && z >= nz / 4 && z < 3 * nz / 4;
                    v = in ? 1.0 : 0.0;
                    break;
                }
                case InitialCondition::HotEdges: {
                    bool hot = x < edge || x >= nx - edge || y < edge || y >= ny - edge;
                    if (nz > 1 && !layered) hot = hot || z < edge || z >= nz - edge;
                    v = hot ? 1.0 : 0.0;
                    break;
                }
                }
                f[(std::size_t(z) * ny + y) * nx + x] = v;
            }
    return f;
}

} // namespace ss
