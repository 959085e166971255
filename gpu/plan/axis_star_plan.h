// SPDX-License-Identifier: MIT
// Issue 35: a point stencil that is a star, every point on an axis (gpu/problem/axis_star.h), runs the
// temporal variant on the star's temporal kernel, which keeps 2R pending sums per cell and two shared planes where
// the point kernel keeps 2R+1 planes per stage, with its weight per direction and distance written into its text. The
// plan lays out, and the kernels are written for, the star configuration this returns; the run's own configuration (its
// reports, its CPU reference, its caches) stays the point stencil's.
#pragma once

#include "gpu/problem/config.h"

namespace ss {

// The temporal variant of `p` runs the star's kernel: `p` is the star, or a point stencil whose shape is such a star
// while STENCILSCOPE_POINT_AXIS_STAR is not 0. What the temporal defaults (temporal_policy.h) follow.
bool temporal_on_star_kernel(const StencilProblem& p);
// `c` is a point stencil run by the temporal variant on the star's kernel (temporal_on_star_kernel).
bool runs_as_axis_star(const StencilConfig& c);
// What the plan lays out for `c`: where runs_as_axis_star, the star of the shape's radius (jacobi, its shape kept:
// kernel_source takes the weights from it); `c` itself otherwise.
StencilConfig planned_config(const StencilConfig& c);

} // namespace ss
