// SPDX-License-Identifier: MIT
#include "gpu/simulation.h"

#include "gpu/cpu/cpu_backend.h"
#include "gpu/cuda/cuda_simulation.h"
#include "gpu/cuda/multi_gpu_simulation.h"
#include "gpu/fault_injection.h"
#include "gpu/launch_policy.h"
#include "gpu/physics.h"

namespace ss {
namespace {
const std::vector<DeviceInfo>& devices_once() {
    static const std::vector<DeviceInfo> devices = query_devices();
    return devices;
}
} // namespace

bool same_field(const StencilConfig& a, const StencilConfig& b) {
    return a.problem == b.problem;
}

MultiGpuStats Simulation::multi_gpu_stats() const {
    const StencilConfig& c = config();
    MultiGpuStats stats;
    StripStats whole;
    whole.device = c.placement.device;
    whole.end_row = split_extent(c);
    whole.updated_cells = updated_cells(c);
    stats.strips.push_back(whole);
    return stats;
}

FieldState Simulation::save_state() {
    return { download(), {}, iteration() };
}

void Simulation::restore_state(const FieldState& state) {
    upload(state.current); // backends that keep more override this
}

Status can_implement(const StencilConfig& c) {
    if (c.placement.backend == Backend::Cpu) return check_config(c, nullptr, 0, host_available_memory());
    const auto& devices = devices_once();
    if (devices.empty()) {
        const std::string why = cuda_unavailable_reason();
        return Status::failure("no CUDA device is available (" + why + "); use --backend cpu");
    }
    if (c.placement.device < 0 || c.placement.device >= int(devices.size()))
        return check_config(c, &devices.front(), int(devices.size()));
    DeviceInfo dev = devices[c.placement.device];
    dev.free_memory = device_free_memory(c.placement.device);
    if (Status s = check_config(c, &dev, int(devices.size())); !s) return s;
    // check_config assumed every GPU is like the first; each one's free memory decides.
    const std::vector<std::int64_t> need = device_bytes_per_gpu(c);
    for (std::size_t i = 1; i < need.size(); ++i) {
        const int d = c.placement.device + int(i);
        const std::int64_t free = device_free_memory(d);
        if (need[i] > free)
            return Status::failure("GPU " + std::to_string(d) + "'s strips need " + bytes_text(need[i])
                + " of GPU memory but " + devices[d].name + " has " + bytes_text(free) + " free");
    }
    return Status::success();
}

namespace {

std::unique_ptr<Simulation> create_backend_simulation(const StencilConfig& c, std::string* why) {
    if (Status s = can_implement(c); !s) {
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
    if (strip_count(c.placement) > 1) return create_multi_gpu_simulation(c, devices_once(), why);
    return create_cuda_simulation(c, devices_once()[c.placement.device], why);
}

} // namespace

std::unique_ptr<Simulation> create_simulation(const StencilConfig& c, std::string* why) {
    return with_fault_injection(create_backend_simulation(c, why));
}

Status repartition(std::unique_ptr<Simulation>& sim, const StencilConfig& next) {
    if (!sim) return Status::failure("there is no simulation to repartition");
    const StencilConfig previous = sim->config();
    if (!same_field(previous, next))
        return Status::failure("repartition keeps the field: stencil, rule, dims, size, radius and precision must "
                               "stay the same");
    if (Status s = can_implement(next); !s) return s; // refused before anything is released
    FieldState state;
    try {
        state = sim->save_state();
    } catch (const std::exception& e) {
        return Status::failure(std::string("cannot save the field: ") + e.what());
    }
    sim.reset(); // free the old buffers before the new ones are allocated
    std::string why;
    for (const StencilConfig* c : { &next, &previous }) {
        sim = create_simulation(*c, &why);
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

} // namespace ss
