// SPDX-License-Identifier: MIT
#include "gpu/problem/stencil_shape.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace ss {

int StencilShape::radius() const {
    int r = 0;
    for (const StencilPoint& p : points) r = std::max({ r, std::abs(p.dx), std::abs(p.dy), std::abs(p.dz) });
    return r;
}

void sort_points(std::vector<StencilPoint>& points) {
    std::stable_sort(points.begin(), points.end(), [](const StencilPoint& a, const StencilPoint& b) {
        return std::tie(a.dz, a.dy, a.dx) < std::tie(b.dz, b.dy, b.dx);
    });
}

} // namespace ss
