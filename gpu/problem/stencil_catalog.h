// SPDX-License-Identifier: MIT
// The named point stencils (box, EBISU's benchmarks), the checks every point stencil passes before any work, and
// how a configuration's problem takes a shape. Plain values, no Qt, no CUDA.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"

#include <optional>
#include <span>
#include <string_view>

namespace ss {

// Every kernel unrolls every point: past this many, NVRTC's compile time and the kernel's code size stop being
// useful (a 2D box R16 has 1089 points, a 3D box R5 1331).
inline constexpr int kMaxStencilPoints = 2048;

// All (2R+1)^dims points, each weighing 1/(2R+1)^dims: the weights sum to 1, so a constant field stays constant
// (jacobi-like smoothing) and the field's values stay bounded however many steps run.
StencilShape box_shape(int dims, int radius);

// EBISU's ten benchmarks (ICS '23, neozhang307/EBISU-ICS23), in its order: 2d5pt 2ds9pt 2d9pt 2d25pt 2d49pt 3d7pt
// 3d13pt 3d27pt 3d17pt poisson.
std::span<const std::string_view> ebisu_stencil_names();
std::optional<StencilShape> ebisu_shape(std::string_view name);

// Whether `name` is a point stencil's name on the command line: "box" or an EBISU benchmark.
bool is_point_stencil_name(std::string_view name);

// One line saying what is wrong with a shape, or success: dims 2 or 3, radius 1..16, at most kMaxStencilPoints
// points, finite weights, no offset twice, no z offset in 2D.
Status check_shape(const StencilShape&);

// The problem runs `shape` as a point stencil: its kind, dims and radius follow the shape. The rule is left as it
// is: a point stencil computes the jacobi form, and can_implement refuses another rule rather than hide it.
void use_shape(StencilProblem&, StencilShape shape);

// "box R2 3D, 125 points" style facts for reports: the stencil's name as the CSV's `stencil` column gives it
// ("star", "diffusion4", "box", "2d25pt", the file's name) and its point count (star: 2*dims*R + 1 where the
// centre weighs anything, diffusion4: 13, the two Laplacians' points).
std::string stencil_name(const StencilProblem&);
int stencil_points(const StencilProblem&);

} // namespace ss
