// SPDX-License-Identifier: MIT
#include "widgets/stencil_symmetry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace ss::gui {
namespace {

using Offset = std::tuple<int, int, int>;

// The images of `o` under the symmetry: mirrors along the chosen axes, and for Full every order of the axes too.
std::set<Offset> images(const Offset& o, int dims, Symmetry symmetry) {
    const auto [x, y, z] = o;
    std::array<int, 3> axes { x, y, z };
    std::set<Offset> out;
    const bool full = symmetry == Symmetry::Full;
    const bool flip_x = full || symmetry == Symmetry::MirrorX, flip_y = full || symmetry == Symmetry::MirrorY,
               flip_z = dims == 3 && (full || symmetry == Symmetry::MirrorZ);
    std::array<int, 3> order { 0, 1, 2 };
    do {
        if (dims == 2 && order[2] != 2) continue; // a 2D stencil exchanges x and y only
        for (int sx = 1; sx >= (flip_x ? -1 : 1); sx -= 2)
            for (int sy = 1; sy >= (flip_y ? -1 : 1); sy -= 2)
                for (int sz = 1; sz >= (flip_z ? -1 : 1); sz -= 2)
                    out.insert({ sx * axes[std::size_t(order[0])], sy * axes[std::size_t(order[1])],
                        sz * axes[std::size_t(order[2])] });
    } while (full && std::next_permutation(order.begin(), order.end()));
    return out;
}

} // namespace

std::vector<StencilPoint> symmetrized(const std::vector<StencilPoint>& points, int dims, Symmetry symmetry) {
    std::map<Offset, double> weights;
    for (const StencilPoint& p : points) weights[{ p.dx, p.dy, p.dz }] = p.weight;
    std::map<Offset, double> out;
    for (const auto& [offset, weight] : weights) {
        if (out.count(offset)) continue; // its group is done
        const std::set<Offset> group = images(offset, dims, symmetry);
        double sum = 0.0;
        int held = 0;
        for (const Offset& o : group)
            if (const auto it = weights.find(o); it != weights.end()) sum += it->second, ++held;
        for (const Offset& o : group) out[o] = sum / held;
    }
    std::vector<StencilPoint> result;
    for (const auto& [offset, weight] : out)
        result.push_back({ std::get<0>(offset), std::get<1>(offset), std::get<2>(offset), weight });
    sort_points(result);
    return result;
}

bool normalise_weights(std::vector<StencilPoint>& points) {
    double sum = 0.0;
    for (const StencilPoint& p : points) sum += p.weight;
    if (sum == 0.0 || !std::isfinite(sum)) return false;
    for (StencilPoint& p : points) p.weight /= sum;
    return true;
}

} // namespace ss::gui
