// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/kernel_source.h"

#include "gpu/backends/cuda/point_kernel_source.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/axis_star.h"
#include "gpu/problem/physics.h"

#include <algorithm>
#include <cstdio>

namespace ss {

// Generated from gpu/kernels/*.cuh by CMake (cmake/EmbedKernels.cmake).
extern const char* const kStarKernelSource;
extern const char* const kStreamKernelSource;
extern const char* const kStreamTensorKernelSource;
extern const char* const kStreamForwardKernelSource;
extern const char* const kDiffusionKernelSource;
extern const char* const kTemporalKernelSource;
extern const char* const kPointsKernelSource;

namespace {

std::string hex_literal(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "T(%a)", v);
    return buf;
}

std::string define(const char* name, long long value) {
    return "#define " + std::string(name) + " " + std::to_string(value) + "\n";
}

int variant_index(Variant v) {
    switch (v) {
    case Variant::Base:
        return 0;
    case Variant::Smem:
        return 1;
    case Variant::SmemPadded:
        return 2;
    case Variant::Stream:
        return 3;
    case Variant::Uncoalesced:
        return 4;
    case Variant::Temporal:
        return 5;
    default:
        return -1;
    }
}

// Display path: gathers a strided nu x nv plane into floats (any axis, any precision), averaging
// k x k cells per output value; the output is ceil(nu/k) x ceil(nv/k).
constexpr const char* kSliceKernel = R"(
extern "C" __global__ void ss_slice_to_float(const T* f, float* out, long long origin, long long su, long long sv,
    int nu, int nv, int k)
{
    const int ou = (nu + k - 1) / k, ov = (nv + k - 1) / k;
    const int u = threadIdx.x + blockIdx.x * blockDim.x, v = threadIdx.y + blockIdx.y * blockDim.y;
    if (u >= ou || v >= ov) return;
    double sum = 0.0;
    int n = 0;
    for (int b = v * k; b < min(v * k + k, nv); ++b)
        for (int a = u * k; a < min(u * k + k, nu); ++a, ++n) sum += double(f[origin + a * su + b * sv]);
    out[(long long)v * ou + u] = float(sum / n);
}
)";

// weight_xm .. weight_zp (AXIS_WEIGHTS) of a point stencil run on the star's kernel (axis_star_plan.h): temporal.cuh
// weighs each direction's points with its own, each axis' pair at once where its two sides weigh the same (1).
// weight(d) stays, the -x arm's, for the helpers that name it.
std::string axis_weight_functions(const AxisStarWeights& w) {
    static const char* const kDirections[6] = { "xm", "xp", "ym", "yp", "zm", "zp" };
    std::string s = define("AXIS_WEIGHTS", w.mirrored() ? 1 : 2);
    for (int direction = 0; direction < 6; ++direction) {
        s += "__device__ __forceinline__ T weight_" + std::string(kDirections[direction])
            + "(int d)\n{\n    switch (d) {\n";
        for (int d = 1; d <= w.radius(); ++d)
            s += "    case " + std::to_string(d) + ": return "
                + hex_literal(w.arm[std::size_t(d)][std::size_t(direction)]) + ";\n";
        s += "    }\n    return T(0);\n}\n";
    }
    return s;
}

// The star's weights: its rule's, or a point stencil's per direction where the plan runs it on the star's kernel.
StarWeights weights_of(const StencilProblem& p, std::optional<AxisStarWeights>& axes) {
    if (p.shape) axes = axis_star_weights(*p.shape);
    if (!axes) return star_weights(p.rule, p.dims, p.radius);
    StarWeights w;
    w.centre = axes->centre;
    w.neighbour.assign(std::size_t(p.radius) + 1, 0.0);
    for (int d = 1; d <= p.radius && d <= axes->radius(); ++d)
        w.neighbour[std::size_t(d)] = axes->arm[std::size_t(d)][kMinusX];
    return w;
}

} // namespace

std::string kernel_source(const KernelPlan& plan, const BlockDims* fixed_block, int min_blocks_per_sm) {
    const StencilConfig& c = plan.kernels;
    std::string s = "// StencilScope generated kernel: " + describe(c) + "\n";
    s += c.problem.precision == Precision::FP64 ? "typedef double T;\n" : "typedef float T;\n";
    // 32-bit indices while every offset fits; they save registers and address arithmetic.
    const long long padded = (long long)(c.problem.size.nx + 4) * (c.problem.size.ny + 4)
        * (c.problem.dims == 3 ? c.problem.size.nz + 4 : 1);
    s += padded < (1ll << 31) ? "typedef int idx_t;\n" : "typedef long long idx_t;\n";
    if (c.problem.stencil == StencilKind::Diffusion4) {
        s += "#define ALPHA " + hex_literal(kDiffusionAlpha) + "\n";
        return s + kSliceKernel + kDiffusionKernelSource;
    }
    if (c.problem.stencil == StencilKind::Points) // star.cuh's helpers and ss_inject, then the point kernel
        return s + point_preamble(plan, fixed_block, min_blocks_per_sm) + kSliceKernel + kStarKernelSource
            + point_sum_source(
                *c.problem.shape, c.policy.variant, c.placement.halo == HaloMode::Remote, plan.point_forward)
            + kPointsKernelSource;
    std::optional<AxisStarWeights> axes; // a point stencil on the star's kernel (gpu/plan/axis_star_plan.h)
    const StarWeights w = weights_of(c.problem, axes);
    s += define("R", c.problem.radius) + define("CF", c.policy.cf) + define("DIMS", c.problem.dims)
        + define("VARIANT", variant_index(c.policy.variant));
    s += "#define SS_ENTRY " + plan.choice.entry + "\n"; // the name the backend looks the kernel up by
    s += define("RULE_WAVE", c.problem.rule == UpdateRule::Wave) + define("HAS_CENTRE", w.centre != 0.0);
    s += define("REMOTE", c.placement.halo == HaloMode::Remote); // kernels take neighbour pointers (star.cuh)
    if (c.placement.halo == HaloMode::Remote) s += define("SPLIT", split_axis(c)); // whose loads choose a pointer
    s += "#define W_CENTRE " + hex_literal(w.centre) + "\n";
    // The row and plane strides as constants (the source is per domain size anyway): the neighbours' offsets
    // fold into the loads' immediates. Strips cut along the slow axis share them; strips cut along x or y (3D) are
    // boxes and compile their own (plan_strip_kernels).
    s += define("SNX", c.problem.size.nx) + define("SNY", c.problem.size.ny);
    const bool temporal = c.policy.variant == Variant::Temporal;
    if (temporal)
        s += define("DEPTH", c.policy.depth) + define("TEMPORAL_AHEAD", plan.temporal_loads_ahead)
            + define("TEMPORAL_FAST", plan.temporal_fast_path)
            + define("TEMPORAL_ADJACENT_ROWS", plan.temporal_adjacent_rows)
            + define("TEMPORAL_SYNC_ROWS", plan.temporal_sync_rows);
    if (fixed_block && temporal) s += define("TBX", fixed_block->x) + define("TBY", fixed_block->y);
    if (fixed_block && temporal && plan.temporal_min_blocks_per_sm > 0)
        s += define("TMINB", plan.temporal_min_blocks_per_sm);
    if (fixed_block && c.policy.variant == Variant::Stream) {
        s += define("SBX", fixed_block->x) + define("SBY", c.problem.dims == 3 ? fixed_block->y : 1);
        s += define("MAX_HALO", stream_halo_per_thread(c, *fixed_block)); // what this block needs
        s += define("SMINB", plan.stream_min_blocks_per_sm);
    } else {
        if (fixed_block && !temporal) // base, smem, smem_padded specialised for their block
            s += define("SBX", fixed_block->x) + define("SBY", fixed_block->y) + define("SBZ", fixed_block->z)
                + define("SMINB", std::max(min_blocks_per_sm, 1));
        s += define("MAX_HALO", plan.max_halo);
    }
    s += define("PIPE", plan.pipeline);
    const StreamLayout& layout = plan.stream;
    s += define("STREAM_FWD", layout.forward) + define("XB", layout.x_cells) + define("ROLES", layout.roles)
        + define("STREAM_TC", layout.tensor);
    if (plan.lean_addresses) s += define("LEAN_ADDR", 1); // a knob, or the tensor-core kernel
    s += "__device__ __forceinline__ T weight(int d)\n{\n    switch (d) {\n";
    for (int d = 1; d <= c.problem.radius; ++d)
        s += "    case " + std::to_string(d) + ": return " + hex_literal(w.neighbour[d]) + ";\n";
    s += "    }\n    return T(0);\n}\n";
    if (axes) s += axis_weight_functions(*axes);
    return s + kSliceKernel + kStarKernelSource + kStreamKernelSource + kStreamTensorKernelSource
        + kStreamForwardKernelSource + (temporal ? kTemporalKernelSource : "");
}

} // namespace ss
