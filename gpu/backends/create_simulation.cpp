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

namespace {

// `check` decides on the catalogue with the free memory re-read: can_implement, or for a plan check_memory.
// `strips`: the plan's partition where there is one (null: plan_strips of the configuration, which the check passed).
template <typename Check>
std::unique_ptr<Simulation> create_backend_simulation(const StencilConfig& c, const DeviceCatalogue& known,
    std::string* why, Check check, const StripPlan* strips = nullptr) {
    DeviceCatalogue catalogue = known; // memory may have been taken since it was queried
    const bool cuda = c.placement.backend == Backend::Cuda;
    refresh_free_memory(catalogue, c.placement.device, cuda ? c.placement.gpus : 0);
    if (Status s = check(c, catalogue); !s) {
        if (why) *why = s.reason;
        return nullptr;
    }
    if (c.placement.backend == Backend::Cpu) {
        try {
            return create_cpu_simulation(c);
        } catch (const std::exception& e) { // memory can shrink between the check and the allocation
            if (why) *why = std::string("cannot allocate the CPU backend's buffers: ") + e.what();
            return nullptr;
        }
    }
    if (strip_count(c.placement) > 1)
        return create_multi_gpu_simulation(c, strips ? *strips : plan_strips(c), catalogue.devices, why);
    return create_cuda_simulation(c, catalogue.devices[std::size_t(c.placement.device)], why);
}

} // namespace

std::unique_ptr<Simulation> create_simulation(
    const StencilConfig& c, const DeviceCatalogue& catalogue, std::string* why) {
    if (injected_allocation_failure(c, why)) return nullptr;
    return with_fault_injection(create_backend_simulation(c, catalogue, why, can_implement));
}

std::unique_ptr<Simulation> create_simulation(
    const LaunchPlan& plan, const DeviceCatalogue& catalogue, std::string* why) {
    if (!plan.verdict) {
        if (why) *why = plan.verdict.reason;
        return nullptr;
    }
    if (injected_allocation_failure(plan.config, why)) return nullptr;
    const StripPlan* strips = plan.strips ? &*plan.strips : nullptr;
    return with_fault_injection(create_backend_simulation(plan.config, catalogue, why, check_memory, strips));
}

bool plan_builds_kernels(const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = plan.config;
    return plan.verdict && c.placement.backend == Backend::Cuda && strip_count(c.placement) == 1
        && c.placement.device >= 0 && std::size_t(c.placement.device) < catalogue.devices.size();
}

Status prepare_kernels(const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    if (!plan_builds_kernels(plan, catalogue)) return Status::success();
    std::string why;
    if (!prepare_cuda_kernels(plan.config, catalogue.devices[std::size_t(plan.config.placement.device)], &why))
        return Status::failure(why);
    return Status::success();
}

namespace {

// repartition's work once `next` is judged (`verdict`): `create_next` builds it, the old configuration is the fallback.
template <typename Create>
Status move_simulation(std::unique_ptr<Simulation>& sim, const StencilConfig& next, const Status& verdict,
    const DeviceCatalogue& catalogue, Create create_next) {
    if (!sim) return Status::failure("there is no simulation to repartition");
    const StencilConfig previous = sim->config();
    if (!same_field(previous, next))
        return Status::failure("repartition keeps the field: stencil, rule, dims, size, radius and precision must "
                               "stay the same");
    if (!verdict) return verdict; // refused before anything is released
    FieldState state;
    try {
        state = sim->save_state();
    } catch (const std::exception& e) {
        return Status::failure(std::string("cannot save the field: ") + e.what());
    }
    sim.reset(); // free the old buffers before the new ones are allocated
    std::string why;
    for (const StencilConfig* c : { &next, &previous }) {
        sim = c == &next ? create_next(&why) : create_simulation(*c, catalogue, &why);
        if (!sim) continue;
        try {
            sim->restore_state(state);
        } catch (const std::exception& e) {
            why = e.what();
            sim.reset();
            continue;
        }
        if (c == &next) return Status::success();
        return Status::failure("cannot move to " + describe(next) + " (" + why + "); kept " + describe(previous));
    }
    return Status::failure(
        "cannot move to " + describe(next) + " and cannot restore " + describe(previous) + ": " + why);
}

} // namespace

Status repartition(std::unique_ptr<Simulation>& sim, const StencilConfig& next, const DeviceCatalogue& catalogue) {
    const Status verdict = sim ? can_implement(next, catalogue) : Status::success();
    return move_simulation(
        sim, next, verdict, catalogue, [&](std::string* why) { return create_simulation(next, catalogue, why); });
}

Status repartition(std::unique_ptr<Simulation>& sim, const LaunchPlan& plan, const DeviceCatalogue& catalogue) {
    return move_simulation(sim, plan.config, plan.verdict, catalogue,
        [&](std::string* why) { return create_simulation(plan, catalogue, why); });
}

} // namespace ss
