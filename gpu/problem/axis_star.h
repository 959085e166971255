// SPDX-License-Identifier: MIT
// A point stencil that is a star: every point on an axis (EBISU's 2d5pt, 2ds9pt, 3d7pt and 3d13pt; a user's file may
// be one too). The star's kernels can run it with a weight per direction and distance where the point kernels load
// every point (issue 35). Plain values, no Qt, no CUDA.
#pragma once

#include "gpu/problem/stencil_shape.h"

#include <array>
#include <optional>
#include <vector>

namespace ss {

// The directions of a star's arms, in from_arms' order (gpu/problem/stencil_catalog.cpp).
enum ArmDirection { kMinusX, kPlusX, kMinusY, kPlusY, kMinusZ, kPlusZ };

struct AxisStarWeights {
    double centre = 0.0; // the centre point's weight (0 where it has none)
    // arm[d][direction]: the weight of the point at distance d in that direction (index 0 unused; 0 where the shape
    // has no point there: z in 2D)
    std::vector<std::array<double, 6>> arm;
    int radius() const { return int(arm.size()) - 1; }
    // Every point at +d weighs what its mirror at -d weighs: one weight per axis and distance.
    bool mirrored() const;
};

// The shape's weights where every point lies on an axis (radius >= 1); nullopt where one lies off the axes.
std::optional<AxisStarWeights> axis_star_weights(const StencilShape&);

} // namespace ss
