// SPDX-License-Identifier: MIT
// The generated parts of a point stencil's NVRTC text (gpu/kernels/points.cuh): the preamble's definitions and the
// unrolled point_sum. kernel_source() (kernel_source.cpp) puts them around the embedded kernel files.
#pragma once

#include "gpu/plan/kernel_plan.h"

#include <string>

namespace ss {

// R, CF, DIMS, VARIANT (6: points base, 7: points smem, 8: points stream, 9: points temporal, with DEPTH), SS_ENTRY,
// the strides and, for a fixed block, SBX/SBY/SBZ/SMINB; REMOTE (with SPLIT) for strips in remote halo mode; the star
// kernels' switches that do not apply (RULE_WAVE, HAS_CENTRE) set to 0.
std::string point_preamble(const KernelPlan&, const BlockDims* fixed_block, int min_blocks_per_sm);
// point_sum(in, idx, sy, sz) for base, point_sum_tile(tile, s, tsy, tsz) for smem (the shared-memory tile's
// strides), point_sum_ring(ring, plane, s, tsy) for stream and temporal (a ring of planes): one fused multiply-add per
// point, in the shape's order, weights as exact hex literals. `remote`: base's point_sum also takes the neighbours'
// buffers and the cell's coordinates, and loads each operand from the buffer that holds it (star.cuh's CELL_SRC).
// `forward` (stream and temporal, POINT_FORWARD): point_forward(tile, s, tsy, centre, acc), one arriving plane added
// to the 2R+1 output planes' sums, each in-plane operand loaded once, the cell's own (`centre`) from the caller.
std::string point_sum_source(const StencilShape&, Variant, bool remote, bool forward = false);

} // namespace ss
