// SPDX-License-Identifier: MIT
// kernel_texts: the source texts the CUDA backend compiles for a plan (cuda_simulation.cpp's order: the occupancy
// rule's block first, else the generic kernel, then the heuristic's block where the plan specialises).
#include "gpu/backends/cuda/kernel_listing.h"

#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/plan/axis_star_plan.h"

namespace ss {
namespace {

std::string architecture_words(const DeviceInfo& d) {
    return "sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor);
}

void add_specialised(const KernelPlan& k, KernelTexts& t) {
    const Variant v = k.kernels.policy.variant;
    const bool thesis_variant = v == Variant::Base || v == Variant::Smem || v == Variant::SmemPadded;
    switch (k.block_rule) {
    case BlockRule::Occupancy:
        t.specialised = kernel_source(k, &*k.occupancy_block, k.occupancy_blocks_per_sm);
        t.specialised_note = "specialised for the plan's block " + format_block(*k.occupancy_block)
            + " with launch bounds for " + std::to_string(k.occupancy_blocks_per_sm)
            + " blocks per SM: what the backend compiles (where that kernel spills registers or reaches fewer blocks "
              "per SM, the backend falls back to the generic text and the occupancy API's block)";
        return;
    case BlockRule::Given:
        if (!k.specialise) {
            t.specialised_note = "the generic text is what runs: the backend does not specialise this kernel";
            return;
        }
        t.specialised = kernel_source(k, &k.field.policy.block, 1);
        t.specialised_note = "specialised for the given block " + format_block(k.field.policy.block)
            + (thesis_variant ? ": what the backend compiles, except SMINB (blocks per SM in the launch bounds), which "
                                "the backend reads from the generic kernel's occupancy on the GPU; shown as 1"
                              : ": what the backend compiles");
        return;
    case BlockRule::Heuristic:
        t.specialised_note = k.specialise
            ? "the occupancy API picks the block on the GPU once the generic text is compiled; the backend then "
              "compiles the text again for that block, so no specialised text can be shown before a run"
            : "the generic text is what runs; the occupancy API picks its block on the GPU";
        return;
    }
}

} // namespace

KernelTexts kernel_texts(const LaunchPlan& plan) {
    KernelTexts t;
    if (!plan.ok()) {
        t.problem = "this configuration does not run: " + plan.verdict.reason;
        return t;
    }
    KernelPlan k;
    if (!plan.kernel_plans.empty()) {
        k = plan.kernel_plans.front();
        t.about = "the CUDA backend's kernels on GPU " + std::to_string(k.device.index) + " (" + k.device.name + ", "
            + architecture_words(k.device) + ")";
        if (plan.kernel_plans.size() > 1) t.about += ", strip 1 of " + std::to_string(plan.kernel_plans.size());
    } else {
        StencilConfig on_gpu = plan.config;
        on_gpu.placement.backend = Backend::Cuda;
        on_gpu.placement.gpus = 1, on_gpu.placement.strips_per_device = 1;
        k = plan_single_gpu_kernels(planned_config(on_gpu), plan.device);
        t.about = "what one GPU (" + plan.device.name + ", " + architecture_words(plan.device)
            + ") would compile for this configuration"
            + (plan.config.placement.backend == Backend::Cuda ? "" : "; the CPU backend runs its own C++ loop instead");
    }
    t.entry = k.choice.entry;
    t.cc_major = k.device.cc_major;
    t.cc_minor = k.device.cc_minor;
    t.generic = kernel_source(k);
    if (k.kernels.problem.stencil == StencilKind::Star)
        add_specialised(k, t);
    else
        t.specialised_note = "the generic text is what runs";
    return t;
}

} // namespace ss
