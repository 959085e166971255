// SPDX-License-Identifier: MIT
// The stencil editor's helpers (issue 34): symmetry by mirroring and the normalisation to sum 1, on plain points
// (no Qt), so that tests can state what each helper gives.
#pragma once

#include "gpu/problem/stencil_shape.h"

#include <vector>

namespace ss::gui {

enum class Symmetry {
    MirrorX, // symmetric under dx -> -dx
    MirrorY, // dy -> -dy
    MirrorZ, // dz -> -dz (3D)
    Full, // every mirror and every exchange of axes: the square's 8 (2D) or the cube's 48 (3D) symmetries
};

// `points` made symmetric: each offset and its images under the symmetry form one group, and every member of a group
// that holds a point gets the mean of the group's weights (an image without a point gets one, a pair of unequal
// weights their mean; a symmetric stencil stays as it is). In canonical order.
std::vector<StencilPoint> symmetrized(const std::vector<StencilPoint>& points, int dims, Symmetry);

// The weights divided by their sum, so that they sum to 1 (a constant field stays constant); false where the sum is
// zero or not finite, `points` unchanged.
bool normalise_weights(std::vector<StencilPoint>& points);

} // namespace ss::gui
