// SPDX-License-Identifier: MIT
#include "gpu/plan/knob_neighbours.h"

#include "gpu/plan/launch_policy.h"

#include <algorithm>
#include <iterator>

namespace ss {

std::vector<StencilConfig> knob_neighbours(const StencilConfig& c) {
    std::vector<StencilConfig> out;
    auto add = [&](StencilConfig next) {
        if (!(next == c) && std::find(out.begin(), out.end(), next) == out.end()) out.push_back(std::move(next));
    };
    const bool star = c.problem.stencil == StencilKind::Star; // a point stencil's radius is its shape's
    for (const int radius : { c.problem.radius - 1, c.problem.radius + 1 })
        if (star && radius >= 1 && radius <= kMaxRadius) {
            StencilConfig next = c;
            next.problem.radius = radius;
            add(next);
        }
    const auto* cf = std::find(std::begin(kCoarseningFactors), std::end(kCoarseningFactors), c.policy.cf);
    if (cf != std::end(kCoarseningFactors)) {
        if (cf + 1 != std::end(kCoarseningFactors))
            add([&] {
                StencilConfig n = c;
                n.policy.cf = cf[1];
                return n;
            }());
        if (cf != std::begin(kCoarseningFactors))
            add([&] {
                StencilConfig n = c;
                n.policy.cf = cf[-1];
                return n;
            }());
    }
    if (c.policy.variant == Variant::Temporal)
        for (const int depth : { c.policy.depth - 1, c.policy.depth + 1 })
            if (depth >= 1)
                add([&] {
                    StencilConfig n = c;
                    n.policy.depth = depth;
                    return n;
                }());
    StencilConfig other = c;
    other.problem.precision = c.problem.precision == Precision::FP32 ? Precision::FP64 : Precision::FP32;
    add(other);
    if (!c.policy.heuristic_block) {
        const BlockDims b = c.policy.block;
        for (const BlockDims next : { BlockDims { b.x / 2, b.y, b.z }, BlockDims { b.x * 2, b.y, b.z },
                 BlockDims { b.x, b.y / 2, b.z }, BlockDims { b.x, b.y * 2, b.z } })
            if (next.x >= 1 && next.y >= 1 && next.threads() <= 1024)
                add([&] {
                    StencilConfig n = c;
                    n.policy.block = next;
                    return n;
                }());
    }
    return out;
}

} // namespace ss
