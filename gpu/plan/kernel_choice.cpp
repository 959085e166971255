// SPDX-License-Identifier: MIT
#include "gpu/plan/kernel_choice.h"

#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"

namespace ss {
namespace {

std::string dims_suffix(const StencilConfig& c) {
    return c.problem.dims == 3 ? "_3d" : "_2d";
}

// A temporal kernel that takes several planes (2D: rows) per barrier says how many (temporal_sync_rows).
std::string planes_per_barrier(const StencilConfig& c) {
    const int n = temporal_sync_rows(c);
    if (n <= 1) return "";
    return ", " + std::to_string(n) + (c.problem.dims == 3 ? " planes" : " rows")
        + " per barrier (STENCILSCOPE_TEMPORAL_SYNC_ROWS)";
}

KernelChoice tensor_choice(const StencilConfig& c) {
    const std::string block
        = c.policy.heuristic_block ? "the heuristic block (8 x By)" : "block " + format_block(c.policy.block);
    const std::string radius = c.problem.radius >= kStreamTensorRadius
        ? "even R >= " + std::to_string(kStreamTensorRadius)
        : "even R (STENCILSCOPE_STREAM_TC=1 from R2 on)";
    return { "ss_stream_tensor_3d", "stream, fp64 tensor cores",
        "tensor cores: fp64, CF 1, " + radius + ", " + block + " has whole 8x8 warp tiles", {} };
}

KernelChoice forward_choice(const StencilConfig& c, const StreamLayout& l) {
    // What one role's pending sums would take (the roles rule in stream_layout): 2R x CF x XB values per thread.
    const long long sums = 2ll * c.problem.radius * c.policy.cf * l.x_cells;
    const long long registers = l.one_role_registers;
    const std::string pending = "one role's 2R*CF*XB = " + std::to_string(sums) + " pending sums "
        + (l.roles == 2 ? "would take " : "take ") + std::to_string(registers) + " registers";
    const int fwd = l.forward_knob;
    std::string not_tensor; // the engine's fallback from the tensor-core kernel, said where it happens
    if (l.tensor_refused_by_block)
        not_tensor = "not the tensor cores: block " + format_block(c.policy.block)
            + " has no whole 8x8 warp tiles (Bx a multiple of 4, By of 8); ";
    if (l.roles == 2) {
        const std::string why = fwd == 2 ? "STENCILSCOPE_STREAM_FWD=2 asks for two roles"
            : registers >= 256           ? pending + " (>= 256: they would spill)"
                                         : pending + " (>= 128 at R16: they would crowd the registers)";
        return { "ss_stream_forward_two_roles_3d", "stream forward, two roles", not_tensor + why, {} };
    }
    const std::string why = fwd == 1 ? "STENCILSCOPE_STREAM_FWD=1 asks for the forward kernel with one role"
                                     : "forward accumulation (R >= " + std::to_string(kStreamForwardRadius)
            + "): " + pending + ", below 256 (128 at R16), so one role";
    return { "ss_stream_forward_3d", "stream forward, one role", not_tensor + why, {} };
}

KernelChoice stream_choice(const StencilConfig& c) {
    if (c.problem.dims == 2)
        return { "ss_stream_2d", "stream 2D", "2D: the one stream kernel, a row of Bx*CF cells marching along y", {} };
    const StreamLayout l = stream_layout(c);
    if (!l.forward)
        return { "ss_stream_gather_3d", "stream, gathering",
            l.forward_knob == 0 ? "STENCILSCOPE_STREAM_FWD=0 asks for the gathering kernel"
                                : "R" + std::to_string(c.problem.radius) + " < " + std::to_string(kStreamForwardRadius)
                    + ": gathering measured faster than forward accumulation there",
            {} };
    if (l.tensor) return tensor_choice(c);
    return forward_choice(c, l);
}

KernelChoice diffusion_choice(const StencilConfig& c) {
    switch (c.policy.variant) {
    case Variant::Naive:
        return { "ss_diffusion_lap_ring", "diffusion naive",
            "three kernels a step (Laplacian, Laplacian, Euler), every temporary through global memory",
            { "ss_diffusion_halo", "ss_diffusion_naive_lap", "ss_diffusion_naive_euler" } };
    case Variant::Merged:
        return { "ss_diffusion_lap_ring", "diffusion merged",
            "the second Laplacian and the Euler step in one kernel, which still stores lap2",
            { "ss_diffusion_halo", "ss_diffusion_merged" } };
    case Variant::NoTemp:
        return { "ss_diffusion_lap_ring", "diffusion notemp",
            "the second Laplacian and the Euler step in one kernel, lap2 kept in a register",
            { "ss_diffusion_halo", "ss_diffusion_notemp" } };
    default:
        return { "ss_diffusion_smem", "diffusion smem", "one kernel a step, both Laplacians in shared memory",
            { "ss_diffusion_halo" } };
    }
}

} // namespace

KernelChoice choose_gpu_kernel(const StencilConfig& c) {
    if (c.problem.stencil == StencilKind::Diffusion4) return diffusion_choice(c);
    const std::string d = dims_suffix(c);
    if (c.problem.stencil == StencilKind::Points) { // base, smem, stream, temporal (can_implement refuses the others)
        const std::string points
            = "a point stencil (" + std::to_string(c.problem.shape ? c.problem.shape->points.size() : 0) + " points): ";
        if (c.policy.variant == Variant::Smem)
            return { "ss_points_smem" + d, "points smem",
                points + "the block's tile with an R-wide halo on every side, corners too, in shared memory", {} };
        if (c.policy.variant == Variant::Temporal)
            return { "ss_points_temporal" + d, "points temporal, depth " + std::to_string(c.policy.depth),
                points + std::to_string(c.policy.depth)
                    + (point_temporal_forward(c)
                            ? " steps fused per launch, each stage adding an arriving plane's points to its 2R+1 "
                              "output planes' sums in registers (STENCILSCOPE_POINT_FORWARD)"
                            : " steps fused per launch, each stage keeping its 2R+1 planes of the tile in shared "
                              "memory")
                    + planes_per_barrier(c),
                {} };
        if (c.policy.variant == Variant::Stream)
            return { "ss_points_stream" + d, "points stream",
                points
                    + (point_stream_forward(c)
                            ? "2.5D: the block's tile marches along the slow axis, each arriving plane's cells loaded "
                              "once and added to its 2R+1 output planes' sums in registers (STENCILSCOPE_POINT_FORWARD)"
                            : "2.5D: the block's tile marches along the slow axis, its 2R+1 planes in a shared-memory "
                              "ring (the next one arriving through registers)"),
                {} };
        return { "ss_points" + d, "points base", points + "every operand from global memory, the points unrolled", {} };
    }
    switch (c.policy.variant) {
    case Variant::Smem:
        return { "ss_smem" + d, "smem",
            "--variant smem: a block-sized tile in shared memory, halo operands from global memory", {} };
    case Variant::SmemPadded:
        return { "ss_smem_padded" + d, "smem_padded",
            "--variant smem_padded: the tile with an R-wide padding, every operand from shared memory", {} };
    case Variant::Stream:
        return stream_choice(c);
    case Variant::Uncoalesced:
        return { "ss_uncoalesced" + d, "uncoalesced",
            "--variant uncoalesced (teaching): thread x walks the slow axis, a warp's loads hit 32 rows", {} };
    case Variant::Temporal: {
        // A point stencil planned as a star keeps its shape (gpu/plan/axis_star_plan.h).
        const std::string as_star = c.problem.shape ? c.problem.shape->name
                + " is a star (every point on an axis), so the star's kernel runs it with a weight per direction "
                  "and distance (STENCILSCOPE_POINT_AXIS_STAR); "
                                                    : "";
        return { "ss_temporal" + d, "temporal, depth " + std::to_string(c.policy.depth),
            as_star + "--variant temporal: " + std::to_string(c.policy.depth)
                + " steps fused per launch, each cell crosses DRAM once per launch" + planes_per_barrier(c),
            {} };
    }
    default:
        return { "ss_base" + d, "base", "--variant base: every operand from global memory", {} };
    }
}

KernelChoice cpu_loop_choice() {
    return { "", "CPU loop", "the CPU backend runs the reference loop on the host's cores: no GPU kernel", {} };
}

std::string kernel_title(const KernelChoice& k) {
    return k.entry.empty() ? k.label : k.entry + " (" + k.label + ")";
}

std::string kernel_reason(const KernelChoice& k) {
    std::string why = k.why;
    for (std::size_t i = 0; i < k.other_kernels.size(); ++i)
        why += (i == 0 ? "; each step also launches " : ", ") + k.other_kernels[i];
    return why;
}

KernelChoice choose_kernel(const StencilConfig& c) {
    return c.placement.backend == Backend::Cpu ? cpu_loop_choice() : choose_gpu_kernel(c);
}

} // namespace ss
