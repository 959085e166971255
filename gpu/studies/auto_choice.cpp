// SPDX-License-Identifier: MIT
// auto's candidates and what the model says of each (choose_auto, which times them, is in auto_resolve.cpp).
#include "gpu/studies/auto_choice.h"

#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/studies/ebisu_model.h"

#include <algorithm>
#include <cstdio>

namespace ss {

std::string auto_rate_text(double gcells_per_s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", gcells_per_s);
    return text;
}

namespace {

StencilConfig concrete(const StencilConfig& request, Variant v, int cf, int depth) {
    StencilConfig c = request;
    c.policy.variant = v;
    c.policy.cf = cf;
    c.policy.depth = depth_for(v, depth);
    c.policy.heuristic_block = true;
    return c;
}

// The device the candidates are described against: the selected GPU, else what the plan assumes.
DeviceInfo device_for(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    const DeviceInfo* d = catalogue.find(c.placement.device);
    return d ? *d : largest_gpu_limits();
}

struct Lists {
    const StencilConfig& request;
    const DeviceCatalogue& catalogue;
    const DeviceInfo device;
    std::vector<AutoCandidate> out;

    // Adds `c` when can_implement accepts it and it is not listed yet, with its label and why.
    void add(const StencilConfig& c, std::string why, double model, bool model_bound) {
        for (const AutoCandidate& listed : out)
            if (listed.config == c) return;
        const LaunchPlan plan = make_launch_plan(c, catalogue);
        if (!plan.verdict) return;
        AutoCandidate a;
        a.config = c;
        a.block = plan.block;
        a.label = std::string(to_string(c.policy.variant));
        if (c.policy.variant == Variant::Temporal) a.label += " depth " + std::to_string(c.policy.depth);
        a.label += ", " + format_block(plan.block);
        if (c.problem.stencil == StencilKind::Star || c.policy.variant == Variant::Stream)
            a.label += ", CF " + std::to_string(c.policy.cf);
        a.why = std::move(why);
        a.model_gcells_per_s = model;
        a.model_is_bound = model_bound;
        out.push_back(std::move(a));
    }

    // A single-step kernel: its bound is DRAM's (every cell read and written once per step).
    void add_single(Variant v, int cf, const std::string& role) {
        const StencilConfig c = concrete(request, v, cf, 1);
        const EbisuInputs in = ebisu_inputs(device, c.problem.precision, 0.0);
        const double bound = in.dram_bytes_per_s.known()
            ? in.dram_bytes_per_s.value / ideal_bytes_per_cell(c) / 1e9 * std::max(c.placement.gpus, 1)
            : 0.0;
        add(c,
            role
                + (bound > 0 ? "; one step per trip through DRAM: at most " + auto_rate_text(bound) + " GCells/s" : ""),
            bound, true);
    }

    void add_temporal(int cf, int depth, const std::string& role) {
        const StencilConfig c = concrete(request, Variant::Temporal, cf, depth);
        const EbisuPoint p = ebisu_point(c, temporal_block(c), ebisu_inputs(device, c.problem.precision, 0.0), depth);
        const double model = p.pp_gcells * std::max(c.placement.gpus, 1); // strips run side by side
        add(c,
            role
                + (model > 0 ? "; EBISU's model " + auto_rate_text(model) + " GCells/s (" + p.bottleneck + " bound)"
                             : ""),
            model, false);
    }

    // Temporal at the model's best depth and its neighbours, and the depth measured best on the H100.
    void add_temporal_around_best(int cf, int room) {
        const ModelDepth best = auto_model_depth(request, cf, device);
        StencilConfig at = concrete(request, Variant::Temporal, cf, 1);
        const std::vector<int> searched = temporal_depths(at);
        auto searchable = [&](int d) { return std::find(searched.begin(), searched.end(), d) != searched.end(); };
        const std::size_t before = out.size();
        for (int d : { best.depth, best.depth - 1, best.depth + 1, default_temporal_depth(request.problem) })
            if (int(out.size() - before) < room && searchable(d))
                add_temporal(cf, d,
                    d == best.depth ? (best.gcells_per_s > 0 ? "the model's best depth" : "the default depth")
                        : d == default_temporal_depth(request.problem) ? "the default depth (measured best on the H100)"
                                                                       : "beside the model's best depth");
    }
};

} // namespace

ModelDepth auto_model_depth(const StencilConfig& config, int cf, const DeviceInfo& device) {
    StencilConfig c = concrete(config, Variant::Temporal, cf, 1);
    ModelDepth best { default_temporal_depth(c.problem), 0.0 };
    const EbisuInputs in = ebisu_inputs(device, c.problem.precision, 0.0);
    for (int depth : temporal_depths(c)) {
        c.policy.depth = depth;
        const EbisuPoint p = ebisu_point(c, temporal_block(c), in, depth);
        if (p.pp_gcells > best.gcells_per_s) best = { depth, p.pp_gcells };
    }
    return best;
}

std::vector<AutoCandidate> auto_candidates(const StencilConfig& config, const DeviceCatalogue& catalogue) {
    if (config.placement.backend == Backend::Cpu) return {};
    Lists lists { config, catalogue, device_for(config, catalogue), {} };
    const StencilKind kind = config.problem.stencil;
    if (kind == StencilKind::Diffusion4) {
        lists.add_single(Variant::Smem, 1, "both Laplacians in shared memory, one kernel a step");
        lists.add_single(Variant::NoTemp, 1, "the second Laplacian and Euler fused, lap2 in a register");
        lists.add_single(Variant::Merged, 1, "the second Laplacian and Euler fused");
        lists.add_single(Variant::Naive, 1, "three kernels a step");
        return lists.out;
    }
    const bool star = kind == StencilKind::Star;
    // Point stencils' stream kernel was fastest at CF 2 to 8 for most of EBISU's ten on the H100 (3d27pt fp32 at
    // 384x288x2560: CF 2 273.4 GCells/s against 207.0 at CF 1; 2d49pt fp32 9000^2: CF 8 302.2; docs/PERFORMANCE.md).
    // CF 8 in 3D too since the GPU tests checked it against the CPU reference (two H200s, 2026-11-27).
    for (int cf : star ? std::vector<int> { 1, 2, 4 } : std::vector<int> { 1, 2, 4, 8 })
        lists.add_single(Variant::Stream, cf, "2.5D streaming along the slow axis");
    lists.add_single(Variant::Smem, 1, "the block's tile in shared memory");
    // Temporal: 2D tiles of 256 cells at the default CF (1 on the star's kernel, 2 on the point kernel); 3D EBISU's 32
    // x 32 tiles at CF 4 (measured best), and CF 1 at its best depth. The room left keeps the list short, with base
    // after it.
    const int singles = int(lists.out.size());
    const int room = kMaxAutoCandidates - singles - 1;
    if (temporal_on_star_kernel(config.problem) && config.problem.dims == 3) {
        lists.add_temporal_around_best(4, room - 1);
        lists.add_temporal_around_best(1, 1);
    } else { // the default CF
        lists.add_temporal_around_best(default_temporal_cf(config), room);
    }
    lists.add_single(Variant::Base, 1, "every operand from global memory (the fallback)");
    // Ranked by what the model expects, the fallback last: the tune times them in this order.
    const auto rank
        = [](const AutoCandidate& a) { return a.config.policy.variant == Variant::Base ? -1.0 : a.model_gcells_per_s; };
    std::stable_sort(lists.out.begin(), lists.out.end(),
        [&](const AutoCandidate& a, const AutoCandidate& b) { return rank(a) > rank(b); });
    return lists.out;
}

} // namespace ss
