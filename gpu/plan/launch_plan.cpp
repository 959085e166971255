// SPDX-License-Identifier: MIT
#include "gpu/plan/launch_plan.h"

#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/validation.h"

#include <atomic>

namespace ss {
namespace {

std::atomic<std::uint64_t> g_evaluations { 0 };

// The rules can_implement would apply with one knob switched; the configuration's own setting reuses its verdict.
Status verdict_with(const StencilConfig& with, const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    return with == plan.config ? plan.verdict : can_implement(with, catalogue);
}

// Whether the block rules can be asked at all: they divide by the radius and size blocks by the dims, which
// check_problem may still refuse (the panel previews the heuristic for a domain too small for its radius too).
bool block_describable(const StencilConfig& c) {
    return (c.problem.dims == 2 || c.problem.dims == 3)
        && (!has_dirichlet_border(c.problem.stencil) || radius_in_range(c.problem.radius));
}

// `c`: planned_config(plan.config), what the block, launch and kernels are laid out for.
void plan_block(LaunchPlan& plan, const StencilConfig& c) {
    if (!block_describable(c)) {
        plan.block_verdict = Status::failure("no block is described for this problem");
        return;
    }
    plan.heuristic = heuristic_block(c, plan.device.max_threads_per_block, &plan.device);
    if (!c.policy.heuristic_block) {
        plan.block = c.policy.block;
        plan.block_verdict = check_block(c, plan.block, &plan.device);
    } else if (plan.heuristic) {
        plan.block = *plan.heuristic;
        plan.block_verdict = check_block(c, plan.block, &plan.device);
    } else {
        plan.block_verdict = Status::failure("the heuristic finds no valid block on " + plan.device.name);
    }
}

void plan_launch(LaunchPlan& plan, const StencilConfig& c) {
    if (plan.verdict) plan.kernel = choose_kernel(c);
    if (!plan.verdict || !plan.block_verdict) return;
    plan.grid = grid_dims(c, plan.block);
    plan.dynamic_smem = dynamic_smem_bytes(c, plan.block);
    const bool star = c.problem.stencil == StencilKind::Star;
    if (star && c.policy.variant == Variant::Stream) plan.stream = stream_layout(c);
    if (has_dirichlet_border(c.problem.stencil) && c.policy.variant == Variant::Temporal)
        plan.temporal_tile = temporal_tile(c, plan.block, plan.depth);
}

// The CUDA backend's kernels, once the verdict has checked the devices the strips name.
void plan_kernel_builds(LaunchPlan& plan, const StencilConfig& c, const DeviceCatalogue& catalogue) {
    if (!plan.verdict || c.placement.backend != Backend::Cuda || !plan.device_present) return;
    if (!plan.strips) {
        plan.kernel_plans.push_back(plan_single_gpu_kernels(c, plan.device));
    } else {
        for (const Strip& s : plan.strips->strips) {
            const DeviceInfo* d = catalogue.find(s.device);
            if (!d) { // can_implement counted the devices: not reached
                plan.kernel_plans.clear();
                return;
            }
            plan.kernel_plans.push_back(plan_strip_kernels(c, s, *d));
        }
    }
    plan.kernel = plan.kernel_plans.front().choice;
    plan.stream = plan.kernel_plans.front().stream;
}

} // namespace

const Status& LaunchPlan::halo_verdict(HaloMode mode) const {
    return halo_modes[std::size_t(mode)].verdict;
}

const Status& LaunchPlan::split_verdict(SplitAxis axis) const {
    return split_axes[std::size_t(axis)].verdict;
}

const Status& LaunchPlan::variant_verdict(Variant v) const {
    return variants[std::size_t(v)].verdict;
}

LaunchPlan make_launch_plan(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    ++g_evaluations;
    LaunchPlan plan;
    plan.config = c;
    plan.verdict = can_implement(c, catalogue);
    const DeviceInfo* present = catalogue.find(c.placement.device);
    plan.device = present ? *present : largest_gpu_limits();
    plan.device_present = present != nullptr;
    plan.depth = fused_steps(c.policy);
    const StencilConfig planned = planned_config(c); // a point stencil may run on the star's kernel
    plan_block(plan, planned);
    plan_launch(plan, planned);
    if (plan.verdict && strip_count(c.placement) > 1) plan.strips = plan_strips(planned); // the verdict checked them
    plan_kernel_builds(plan, planned, catalogue);

    for (const HaloMode mode : { HaloMode::Auto, HaloMode::Staged, HaloMode::Remote }) {
        StencilConfig with = c;
        with.placement.halo = mode;
        plan.halo_modes[std::size_t(mode)] = { mode, verdict_with(with, plan, catalogue) };
    }
    for (const SplitAxis axis : { SplitAxis::Slowest, SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
        StencilConfig with = c;
        with.placement.split = axis;
        if (!splits_slowest(with)) with.placement.overlap = false; // what choosing it does
        plan.split_axes[std::size_t(axis)] = { axis, verdict_with(with, plan, catalogue) };
    }
    for (std::size_t i = 0; i < plan.variants.size(); ++i) {
        StencilConfig with = c;
        with.policy.variant = Variant(i);
        // Temporal's default depth divides by the radius: a radius out of range (refused anyway) keeps depth 1.
        const bool temporal_default = with.policy.variant == Variant::Temporal && radius_in_range(c.problem.radius);
        if (with.policy.variant != c.policy.variant)
            with.policy.depth = temporal_default ? default_temporal_depth(c.problem) : 1;
        plan.variants[i] = { with.policy.variant, verdict_with(auto_stand_in(with), plan, catalogue) };
    }
    return plan;
}

std::uint64_t launch_plan_evaluations() {
    return g_evaluations.load();
}

} // namespace ss
