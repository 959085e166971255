// SPDX-License-Identifier: MIT
#include "gpu/problem/axis_star.h"

#include <cstdlib>

namespace ss {

bool AxisStarWeights::mirrored() const {
    for (const std::array<double, 6>& w : arm)
        for (std::size_t minus = 0; minus < w.size(); minus += 2)
            if (w[minus] != w[minus + 1]) return false;
    return true;
}

std::optional<AxisStarWeights> axis_star_weights(const StencilShape& shape) {
    const int r = shape.radius();
    if (r < 1) return std::nullopt;
    AxisStarWeights w;
    w.arm.assign(std::size_t(r) + 1, { 0.0, 0.0, 0.0, 0.0, 0.0, 0.0 });
    for (const StencilPoint& p : shape.points) {
        const int off_axis = (p.dx != 0) + (p.dy != 0) + (p.dz != 0);
        if (off_axis == 0) {
            w.centre = p.weight;
            continue;
        }
        if (off_axis > 1) return std::nullopt; // a diagonal point: not a star
        const std::size_t minus = p.dx != 0 ? kMinusX : p.dy != 0 ? kMinusY : kMinusZ;
        const int offset = p.dx + p.dy + p.dz;
        w.arm[std::size_t(std::abs(offset))][minus + (offset > 0 ? 1 : 0)] = p.weight;
    }
    return w;
}

} // namespace ss
