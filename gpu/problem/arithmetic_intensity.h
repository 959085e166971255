// SPDX-License-Identifier: MIT
// How much arithmetic a step does per cell, and per byte it must move: the x axis of a roofline. One definition
// for the roofline chart, the stencil editor and the reports, so they never disagree on a stencil's intensity.
#pragma once

#include "gpu/problem/config.h"

namespace ss {

// Floating-point operations one step does per updated cell, counted as Nsight Compute counts a chain of fused
// multiply-adds (an FMA counts two): a stencil of n points of non-zero weight is one product and n - 1 multiply-adds,
// 2n - 1. The wave rule subtracts u(t-1) once more; the diffusion step is two radius-1 Laplacians and the update.
int flops_per_cell(const StencilConfig&);

// flops_per_cell over ideal_bytes_per_cell (gpu/problem/physics.h): the intensity of a single-step kernel that moves
// each cell's bytes exactly once. Temporal blocking raises the real intensity about depth-fold.
double ideal_arithmetic_intensity(const StencilConfig&);

} // namespace ss
