// SPDX-License-Identifier: MIT
#include "gpu/plan/kernel_plan.h"

#include "gpu/plan/temporal_policy.h"

#include <algorithm>

namespace ss {
namespace {

bool occupancy_rule_applies(const StencilConfig& field) {
    const Variant v = field.policy.variant;
    return fix_block_mode() == 2 && field.policy.heuristic_block && field.problem.stencil == StencilKind::Star
        && (v == Variant::Base || v == Variant::Smem || v == Variant::SmemPadded);
}

void plan_block_rule(KernelPlan& p) {
    const StencilConfig& f = p.field;
    p.specialise = specialise_for_block(f);
    if (!f.policy.heuristic_block) {
        p.block_rule = BlockRule::Given;
        return;
    }
    p.block_rule = BlockRule::Heuristic;
    if (!occupancy_rule_applies(f)) return;
    p.occupancy_block = occupancy_block(f, p.device);
    if (!p.occupancy_block) return;
    p.block_rule = BlockRule::Occupancy;
    p.occupancy_blocks_per_sm = blocks_per_sm_without_registers(f, *p.occupancy_block, p.device);
}

} // namespace

KernelPlan plan_kernels(const StencilConfig& field, const StencilConfig& kernels, const DeviceInfo& device) {
    KernelPlan p;
    p.field = field;
    p.kernels = kernels;
    p.device = device;
    p.choice = choose_gpu_kernel(kernels);
    const bool star = kernels.problem.stencil == StencilKind::Star;
    if (star) {
        if (kernels.policy.variant == Variant::Stream) p.stream = stream_layout(kernels);
        p.pipeline = stream_pipeline(kernels);
        p.max_halo = stream_max_halo(kernels);
        p.stream_min_blocks_per_sm = stream_min_blocks_per_sm();
        p.lean_addresses = p.stream.forward && (stream_lean_addresses() || p.stream.tensor);
        p.temporal_loads_ahead = temporal_loads_ahead();
        p.temporal_fast_path = temporal_fast_path();
        p.temporal_adjacent_rows = temporal_adjacent_rows();
        p.temporal_min_blocks_per_sm = temporal_min_blocks_per_sm();
        p.temporal_sync_rows = temporal_sync_rows(kernels);
    }
    p.point_forward = point_stream_forward(kernels) || point_temporal_forward(kernels);
    if (kernels.problem.stencil == StencilKind::Points) {
        p.temporal_loads_ahead = temporal_loads_ahead();
        p.temporal_min_blocks_per_sm = temporal_min_blocks_per_sm();
        p.temporal_sync_rows = temporal_sync_rows(kernels);
    }
    plan_block_rule(p);
    return p;
}

KernelPlan plan_single_gpu_kernels(const StencilConfig& c, const DeviceInfo& device) {
    StencilConfig kernels = c;
    kernels.placement.halo = HaloMode::Auto; // one field has no neighbour to read from
    return plan_kernels(c, kernels, device);
}

KernelPlan plan_strip_kernels(const StencilConfig& c, const Strip& strip, const DeviceInfo& device) {
    // Strips along the slow axis run the whole domain's text (same strides); box strips their own, and so do
    // temporal ones (its kernel takes the extent from compiled constants; its result does not depend on a cell's
    // place along the streaming axis, so any cut gives one GPU's bits).
    const bool own_text = !splits_slowest(c) || c.policy.variant == Variant::Temporal;
    StencilConfig kernels = own_text ? strip_config(c, strip) : single_gpu_equivalent(c);
    if (c.placement.halo == HaloMode::Remote) kernels.placement.halo = HaloMode::Remote; // kernels read the neighbours
    kernels.placement.split = c.placement.split; // ... along this axis
    return plan_kernels(strip_config(c, strip), kernels, device);
}

std::optional<BlockDims> heuristic_block_for(
    const KernelPlan& p, int suggested_threads, int max_threads, std::string* why) {
    // The occupancy API trades row length for blocks per SM; the 2D ring kernel measured faster with whole rows.
    if (point_stream_full_rows(p.field)) suggested_threads = max_threads;
    const auto b = heuristic_block(p.field, std::min(suggested_threads, max_threads), &p.device);
    if (!b) {
        if (why) *why = "the heuristic finds no valid block for " + describe(p.field);
        return std::nullopt;
    }
    if (Status s = check_block(p.field, *b, &p.device); !s) {
        if (why) *why = s.reason;
        return std::nullopt;
    }
    return b;
}

KernelPlan at_depth(KernelPlan p, int depth) {
    p.field.policy.depth = depth;
    p.kernels.policy.depth = depth;
    return p;
}

} // namespace ss
