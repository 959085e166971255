// SPDX-License-Identifier: MIT
// The launch plan, in the CUTLASS manner (describe -> plan -> run): a configuration resolved once against the
// device catalogue into everything the host can know before compiling: can_implement's verdict, the device it is
// planned for, the block and its check, grid, shared memory, stream layout, temporal tile, the strips, and the
// verdicts of the halo modes and split axes a user could switch to. An immutable value: the GUI shows it, the
// Session sends it with a run to the engine thread, and neither evaluates the rules again. Pure host code.
#pragma once

#include "gpu/plan/kernel_choice.h"
#include "gpu/plan/kernel_plan.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace ss {

// Another choice of one knob and whether the configuration would run with it (can_implement's verdict).
template <typename Choice> struct AlternativeVerdict {
    Choice choice {};
    Status verdict;
};

struct LaunchPlan {
    StencilConfig config;
    Status verdict; // can_implement(config, catalogue)

    // The device the launch is described against: the selected GPU, or largest_gpu_limits() where the catalogue
    // has none at that index (the CPU backend on a machine without GPUs: what a GPU would run).
    DeviceInfo device;
    bool device_present = false; // `device` is the catalogue's, not largest_gpu_limits()

    // The heuristic's block on `device` (heuristic_block with its largest thread count), whether or not the
    // configuration uses it: the panel previews it. The CUDA backend refines it with the occupancy API once the
    // kernel is compiled (KernelResources::block says what ran).
    std::optional<BlockDims> heuristic;
    BlockDims block; // the heuristic's when config.policy.heuristic_block, else the given one
    Status block_verdict; // check_block(config, block, &device), or why the heuristic finds none

    // Derived from `block`, only where the verdict and the block check pass (zero otherwise).
    GridDims grid; // tiles; the stream variant's chunks along the marching axis follow the compiled occupancy
    std::int64_t dynamic_smem = 0; // bytes per block
    // The stream variant's layout (default for the others) and the kernel a step launches and why, where the verdict
    // passes: on the CUDA backend those of kernel_plans.front(), what the backend compiles; on the CPU backend the
    // CPU loop and the layout a GPU would use.
    StreamLayout stream;
    KernelChoice kernel;
    int depth = 1; // steps fused per launch (fused_steps)
    std::optional<TemporalTile> temporal_tile; // the temporal variant's tile at `depth`

    // plan_strips(config) where the configuration runs (so check_strips passed) cut into more than one strip.
    std::optional<StripPlan> strips;
    // What the CUDA backend builds, where the verdict passes on it: one field's kernels (plan_single_gpu_kernels), or
    // one per strip in strip order (plan_strip_kernels). The NVRTC source generator and the backend read only these.
    std::vector<KernelPlan> kernel_plans;

    // Every halo mode and split axis (in enum order) with the verdict of the configuration switched to it; a
    // split along a faster axis turns overlap off, as choosing it does.
    std::array<AlternativeVerdict<HaloMode>, 3> halo_modes;
    std::array<AlternativeVerdict<SplitAxis>, 4> split_axes;
    // Every variant (in enum order) with the verdict of the configuration switched to it, at the depth choosing it
    // gives (temporal: its default depth unless it runs already; the others: 1). Auto's is its stand-in's
    // (auto_stand_in): whether the configuration has a kernel for auto to start from.
    std::array<AlternativeVerdict<Variant>, kVariantCount> variants;

    bool ok() const { return verdict.ok; }
    const Status& halo_verdict(HaloMode) const;
    const Status& split_verdict(SplitAxis) const;
    const Status& variant_verdict(Variant) const;
};

// Resolves `config` on `catalogue` (no driver call: the GUI thread may call it).
LaunchPlan make_launch_plan(const StencilConfig&, const DeviceCatalogue&);

// How many plans this process has made: tests count the evaluations a knob change costs.
std::uint64_t launch_plan_evaluations();

} // namespace ss
