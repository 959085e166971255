// SPDX-License-Identifier: MIT
// The backends' factory: describe (StencilConfig) -> plan (make_launch_plan: can_implement and every decision) ->
// create -> run. It sits above every backend (the CPU reference, one GPU, strips on several), which know only the
// Simulation interface.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/validation.h"

#include <memory>
#include <string>

namespace ss {

// Runs a plan (make_launch_plan, gpu/plan/launch_plan.h): its verdict stands, and only the memory is checked again
// (check_memory) with the free memory of the devices it uses re-read, as can_implement's result could change with
// nothing else; then allocation and the build of the plan's kernels. nullptr with `why` set on failure. CUDA calls:
// the engine thread only.
std::unique_ptr<Simulation> create_simulation(const LaunchPlan&, const DeviceCatalogue&, std::string* why);
// Describe and run in one call (the studies, which try many configurations): make_launch_plan, then the above.
std::unique_ptr<Simulation> create_simulation(const StencilConfig&, const DeviceCatalogue&, std::string* why);

// The plan over `running`'s field, handed over on the GPU: no save to the host, no second set of buffers, no upload
// (what makes a turned knob cheap on one GPU, issue 40). For one GPU before and after, one device, one size and
// element type, a stencil with a Dirichlet border. `keep_previous`: the state goes on (a same_field move: the wave's
// u(t-1), the step count); otherwise the run starts from the current field at rest, as upload() does. nullptr with
// `why` empty when the handover does not apply (save and restore instead), with `why` set when the plan cannot be
// built; `running` then still runs, untouched. The caller drops `running` after a success: it holds no field.
std::unique_ptr<Simulation> create_on_field(
    const LaunchPlan&, const DeviceCatalogue&, Simulation& running, bool keep_previous, std::string* why);

// Builds and loads the kernels `plan` runs into the process's kernel caches (kernel_compiler.h), allocating
// no field, so that create_simulation of the plan then finds them built. Any thread may call it (the window
// builds on a thread of its own while the engine thread keeps stepping the previous configuration). Nothing
// to do, and success, for the CPU backend, a split run (its strips build their own texts) or a plan refused.
Status prepare_kernels(const LaunchPlan&, const DeviceCatalogue&);
// Whether prepare_kernels has work to do for `plan`: a plan accepted for one GPU.
bool plan_builds_kernels(const LaunchPlan&, const DeviceCatalogue&);

// The two describe the same field (stencil, rule, dims, size, radius, precision): repartition can move
// a run between them.
bool same_field(const StencilConfig&, const StencilConfig&);

// Moves a running simulation to `next` (another GPU count, overlap, halo mode, variant, block...) keeping
// its field, the wave's previous field and the step count: what the GUI does when the GPU count
// changes. The old simulation is released first, so that both never need memory at once. On failure
// `sim` is a new simulation of the old configuration with the state restored (null only when even
// that fails) and the reason is returned. `next` (a plan, judged once) must describe the same field: stencil, rule,
// dims, size, radius and precision.
Status repartition(std::unique_ptr<Simulation>& sim, const LaunchPlan& next, const DeviceCatalogue&);
// The same planning `next` first (make_launch_plan).
Status repartition(std::unique_ptr<Simulation>& sim, const StencilConfig& next, const DeviceCatalogue&);

} // namespace ss
