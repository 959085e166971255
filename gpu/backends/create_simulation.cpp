// SPDX-License-Identifier: MIT
#include "gpu/backends/create_simulation.h"

#include "gpu/backends/cpu/cpu_backend.h"
#ifdef STENCILSCOPE_CPU_ONLY
#include "gpu/backends/cpu_only.h" // create_cuda_simulation without the CUDA headers
#else
#include "gpu/backends/cuda/cuda_simulation.h"
#endif
#include "gpu/backends/cuda/multi_gpu_simulation.h"
#include "gpu/backends/fault_injection.h"
#include "gpu/problem/physics.h"

namespace ss {
bool same_field(const StencilConfig& a, const StencilConfig& b) {
    return a.problem == b.problem;
}

std::unique_ptr<Simulation> create_simulation(
    const StencilConfig& c, const DeviceCatalogue& catalogue, std::string* why) {
    return create_simulation(make_launch_plan(c, catalogue), catalogue, why);
}

std::unique_ptr<Simulation> create_simulation(const LaunchPlan& plan, const DeviceCatalogue& known, std::string* why) {
    const StencilConfig& c = plan.config;
    if (!plan.verdict) {
        if (why) *why = plan.verdict.reason;
        return nullptr;
    }
    if (injected_allocation_failure(c, why)) return nullptr;
    DeviceCatalogue catalogue = known; // memory may have been taken since it was queried
    const bool cuda = c.placement.backend == Backend::Cuda;
    refresh_free_memory(catalogue, c.placement.device, cuda ? c.placement.gpus : 0);
    if (Status s = check_memory(c, catalogue); !s) {
        if (why) *why = s.reason;
        return nullptr;
    }
    if (!cuda) {
        try {
            return with_fault_injection(create_cpu_simulation(c));
        } catch (const std::exception& e) { // memory can shrink between the check and the allocation
            if (why) *why = std::string("cannot allocate the CPU backend's buffers: ") + e.what();
            return nullptr;
        }
    }
    if (plan.kernel_plans.empty()) { // make_launch_plan gives an accepted CUDA plan its kernels
        if (why) *why = "the launch plan holds no kernel plan";
        return nullptr;
    }
    if (plan.strips) return with_fault_injection(create_multi_gpu_simulation(c, *plan.strips, plan.kernel_plans, why));
    return with_fault_injection(create_cuda_simulation(plan.kernel_plans.front(), why));
}

std::unique_ptr<Simulation> create_on_field(
    const LaunchPlan& plan, const DeviceCatalogue&, Simulation& running, bool keep_previous, std::string* why) {
    const StencilConfig& c = plan.config;
    if (!plan.verdict) {
        if (why) *why = plan.verdict.reason;
        return nullptr;
    }
    const Placement& was = running.config().placement;
    if (c.placement.backend != Backend::Cuda || was.backend != Backend::Cuda || plan.strips
        || plan.kernel_plans.size() != 1 || strip_count(c.placement) != 1 || strip_count(was) != 1)
        return nullptr;
    if (injected_allocation_failure(c, why)) return nullptr;
    return with_fault_injection(
        create_cuda_simulation_on_field(plan.kernel_plans.front(), running, keep_previous, why));
}

bool plan_builds_kernels(const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = plan.config;
    return plan.verdict && c.placement.backend == Backend::Cuda && strip_count(c.placement) == 1
        && c.placement.device >= 0 && std::size_t(c.placement.device) < catalogue.devices.size();
}

Status prepare_kernels(const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    if (!plan_builds_kernels(plan, catalogue) || plan.kernel_plans.empty()) return Status::success();
    std::string why;
    if (!prepare_cuda_kernels(plan.kernel_plans.front(), &why)) return Status::failure(why);
    return Status::success();
}

namespace {

// repartition's work once `next` is planned: the old configuration is the fallback.
Status move_simulation(std::unique_ptr<Simulation>& sim, const LaunchPlan& next, const DeviceCatalogue& catalogue) {
    if (!sim) return Status::failure("there is no simulation to repartition");
    const StencilConfig previous = sim->config();
    if (!same_field(previous, next.config))
        return Status::failure("repartition keeps the field: stencil, rule, dims, size, radius and precision must "
                               "stay the same");
    if (!next.verdict) return next.verdict; // refused before anything is released
    FieldState state;
    try {
        state = sim->save_state();
    } catch (const std::exception& e) {
        return Status::failure(std::string("cannot save the field: ") + e.what());
    }
    sim.reset(); // free the old buffers before the new ones are allocated
    std::string why;
    for (const bool moving : { true, false }) {
        sim = moving ? create_simulation(next, catalogue, &why) : create_simulation(previous, catalogue, &why);
        if (!sim) continue;
        try {
            sim->restore_state(state);
        } catch (const std::exception& e) {
            why = e.what();
            sim.reset();
            continue;
        }
        if (moving) return Status::success();
        return Status::failure(
            "cannot move to " + describe(next.config) + " (" + why + "); kept " + describe(previous));
    }
    return Status::failure(
        "cannot move to " + describe(next.config) + " and cannot restore " + describe(previous) + ": " + why);
}

} // namespace

Status repartition(std::unique_ptr<Simulation>& sim, const StencilConfig& next, const DeviceCatalogue& catalogue) {
    if (!sim) return Status::failure("there is no simulation to repartition");
    return move_simulation(sim, make_launch_plan(next, catalogue), catalogue);
}

Status repartition(std::unique_ptr<Simulation>& sim, const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    return move_simulation(sim, plan, catalogue);
}

} // namespace ss
