// SPDX-License-Identifier: MIT
#include "gpu/problem/stencil_catalog.h"

#include "gpu/problem/physics.h"

#include <array>
#include <cmath>
#include <initializer_list>
#include <set>
#include <tuple>

namespace ss {
namespace {

// A shape from a dense (2R+1)^dims table in EBISU's layout, filter[z][y][x] with offset = index - R (its
// jacobi_gold.cpp references confirm: filter[0][0] multiplies input[i-1][j-1], i the row (y), j the column (x)),
// each entry divided by `divisor`; zero entries are no point.
StencilShape from_table(
    std::string_view name, int dims, int radius, std::initializer_list<double> table, double divisor) {
    StencilShape s { std::string(name), dims, {}, {} };
    const int side = 2 * radius + 1;
    int index = 0;
    for (const double v : table) {
        const int dx = index % side - radius, dy = index / side % side - radius,
                  dz = dims == 3 ? index / (side * side) - radius : 0;
        ++index;
        if (v != 0.0) s.points.push_back({ dx, dy, dz, v / divisor });
    }
    sort_points(s.points);
    return s;
}

// A star of radius R from its weights per direction: {-x, +x, -y, +y, -z, +z} at distance d (index d - 1).
StencilShape from_arms(
    std::string_view name, int dims, double centre, std::initializer_list<std::array<double, 6>> arms, double divisor) {
    StencilShape s { std::string(name), dims, { { 0, 0, 0, centre / divisor } }, {} };
    int d = 1;
    for (const auto& w : arms) {
        s.points.push_back({ -d, 0, 0, w[0] / divisor });
        s.points.push_back({ d, 0, 0, w[1] / divisor });
        s.points.push_back({ 0, -d, 0, w[2] / divisor });
        s.points.push_back({ 0, d, 0, w[3] / divisor });
        if (dims == 3) {
            s.points.push_back({ 0, 0, -d, w[4] / divisor });
            s.points.push_back({ 0, 0, d, w[5] / divisor });
        }
        ++d;
    }
    sort_points(s.points);
    return s;
}

constexpr std::array<std::string_view, 10> kEbisuNames { "2d5pt", "2ds9pt", "2d9pt", "2d25pt", "2d49pt", "3d7pt",
    "3d13pt", "3d27pt", "3d17pt", "poisson" };

} // namespace

StencilShape box_shape(int dims, int radius) {
    StencilShape s { "box", dims, {}, {} };
    const int side = 2 * radius + 1;
    const double weight = 1.0 / std::pow(double(side), dims);
    for (int dz = dims == 3 ? -radius : 0; dz <= (dims == 3 ? radius : 0); ++dz)
        for (int dy = -radius; dy <= radius; ++dy)
            for (int dx = -radius; dx <= radius; ++dx) s.points.push_back({ dx, dy, dz, weight });
    return s; // built in canonical order
}

std::span<const std::string_view> ebisu_stencil_names() {
    return kEbisuNames;
}

// The coefficients are EBISU's own (github.com/neozhang307/EBISU-ICS23), written here as data. Where each comes from:
std::optional<StencilShape> ebisu_shape(std::string_view name) {
    // 2dstencil/2d5pt/jacobi_gold.cpp (its config.cuh holds no weights): (5 N + 12 W + 15 C + 12 E + 5 S) / 118.
    if (name == "2d5pt") return from_arms(name, 2, 15, { { 12, 12, 5, 5, 0, 0 } }, 118);
    // 2dstencil/2ds9pt/jacobi_gold.cpp: x at distance 1, 2 weigh 12, 9; y weighs 5, 7; centre 15; all / 118.
    if (name == "2ds9pt") return from_arms(name, 2, 15, { { 12, 12, 5, 5, 0, 0 }, { 9, 9, 7, 7, 0, 0 } }, 118);
    // 2dstencil/2d9pt/config.cuh, filter[3][3] / 118.
    if (name == "2d9pt") return from_table(name, 2, 1, { 7, 5, 9, 12, 15, 12, 9, 5, 7 }, 118);
    // 2dstencil/2d25pt/config.cuh, filter[5][5] / 118.
    if (name == "2d25pt")
        return from_table(
            name, 2, 2, { 1, 2, 3, 4, 5, 7, 7, 5, 7, 6, 8, 12, 15, 12, 12, 9, 9, 5, 7, 15, 10, 11, 12, 13, 14 }, 118);
    // 2dstencil/2d49pt/config.cuh, filter[7][7] / 118.
    if (name == "2d49pt")
        return from_table(name, 2, 3,
            { 1, 1, 2, 3, 4, 5, 5, 1, 1, 2, 3, 4, 5, 5, 1, 7, 7, 5, 7, 6, 5, 1, 8, 12, 15, 12, 12, 5, 1, 9, 9, 5, 7, 15,
                5, 1, 9, 9, 5, 7, 15, 5, 1, 10, 11, 12, 13, 14, 5 },
            118);
    // 3dstencil/3d7pt/config.cuh: centre -1.67; west (-x) 0.162, east (+x) 0.161, south (-y) 0.164, north (+y)
    // 0.163, bottom (-z) 0.166, top (+z) 0.165 (3d7pt_gold.cpp names the directions).
    if (name == "3d7pt") return from_arms(name, 3, -1.67, { { 0.162, 0.161, 0.164, 0.163, 0.166, 0.165 } }, 1);
    // 3dstencil/3d13pt/config.cuh: centre -0.996, every neighbour at distance 1 and 2 weighs 0.083.
    if (name == "3d13pt") {
        const std::array<double, 6> arm { 0.083, 0.083, 0.083, 0.083, 0.083, 0.083 };
        return from_arms(name, 3, -0.996, { arm, arm }, 1);
    }
    // 3dstencil/3d27pt/config.cuh, filter[3][3][3] / 159.
    if (name == "3d27pt")
        return from_table(name, 3, 1,
            { 0.5, 0.7, 0.9, 1.2, 1.5, 1.2, 0.9, 0.7, 0.5, 0.51, 0.71, 0.91, 1.21, 1.51, 1.21, 0.91, 0.71, 0.51, 0.52,
                0.72, 0.92, 1.22, 1.52, 1.22, 0.92, 0.72, 0.52 },
            159);
    // 3dstencil/3d17pt/config.cuh, filter[3][3][3] / 159: the middle plane whole, the corners of the planes beside.
    if (name == "3d17pt")
        return from_table(name, 3, 1,
            { 0.5, 0, 0.5, 0, 0, 0, 0.5, 0, 0.5, 0.51, 0.71, 0.91, 1.21, 1.51, 1.21, 0.91, 0.71, 0.51, 0.52, 0, 0.52, 0,
                0, 0, 0.52, 0, 0.52 },
            159);
    // 3dstencil/poisson/config.cuh, filter[3][3][3]: the 3x3x3 box without its eight corners.
    if (name == "poisson")
        return from_table(name, 3, 1,
            { 0, -0.0833, 0, -0.0833, -0.166, -0.0833, 0, -0.0833, 0, -0.0833, -0.166, -0.0833, -0.166, 2.666, -0.166,
                -0.0833, -0.166, -0.0833, 0, -0.0833, 0, -0.0833, -0.166, -0.0833, 0, -0.0833, 0 },
            1);
    return std::nullopt;
}

bool is_point_stencil_name(std::string_view name) {
    if (name == "box") return true;
    for (const std::string_view n : kEbisuNames)
        if (n == name) return true;
    return false;
}

Status check_shape(const StencilShape& s) {
    if (s.dims != 2 && s.dims != 3) return Status::failure("a stencil has 2 or 3 dims, got " + std::to_string(s.dims));
    if (s.points.empty()) return Status::failure("the stencil has no points");
    if (int(s.points.size()) > kMaxStencilPoints)
        return Status::failure("the stencil has " + std::to_string(s.points.size()) + " points, at most "
            + std::to_string(kMaxStencilPoints) + " are allowed (every kernel unrolls them all)");
    std::set<std::tuple<int, int, int>> seen;
    for (const StencilPoint& p : s.points) {
        const std::string at = "point (" + std::to_string(p.dx) + ", " + std::to_string(p.dy)
            + (s.dims == 3 ? ", " + std::to_string(p.dz) : std::string()) + ")";
        if (s.dims == 2 && p.dz != 0) return Status::failure(at + " has a z offset in a 2D stencil");
        if (std::abs(p.dx) > kMaxStencilRadius || std::abs(p.dy) > kMaxStencilRadius
            || std::abs(p.dz) > kMaxStencilRadius)
            return Status::failure(at + " lies beyond radius " + std::to_string(kMaxStencilRadius));
        if (!std::isfinite(p.weight)) return Status::failure(at + " has a weight that is not a finite number");
        if (!seen.insert({ p.dx, p.dy, p.dz }).second) return Status::failure(at + " is given twice");
    }
    if (s.radius() < 1)
        return Status::failure(
            "the stencil reaches no neighbour: radius must be 1.." + std::to_string(kMaxStencilRadius));
    return Status::success();
}

void use_shape(StencilProblem& p, StencilShape shape) {
    p.stencil = StencilKind::Points;
    p.dims = shape.dims;
    p.radius = shape.radius();
    p.shape = SharedShape(std::move(shape));
}

std::string stencil_name(const StencilProblem& p) {
    if (p.stencil == StencilKind::Points && p.shape) return p.shape->name;
    return std::string(to_string(p.stencil));
}

int stencil_points(const StencilProblem& p) {
    switch (p.stencil) {
    case StencilKind::Points:
        return p.shape ? int(p.shape->points.size()) : 0;
    case StencilKind::Diffusion4:
        return 13;
    case StencilKind::Star:
        break;
    }
    const bool centre = star_weights(p.rule, p.dims, p.radius).centre != 0.0;
    return 2 * p.dims * p.radius + (centre ? 1 : 0);
}

} // namespace ss
