// SPDX-License-Identifier: MIT
#include "gpu/simulation.h"

#include "gpu/cpu/cpu_backend.h"
#include "gpu/cuda/cuda_simulation.h"
#include "gpu/launch_policy.h"

namespace ss {
namespace {
const std::vector<DeviceInfo>& devices_once() {
    static const std::vector<DeviceInfo> devices = query_devices();
    return devices;
}
} // namespace

Status can_implement(const StencilConfig& c) {
    if (c.backend == Backend::Cpu) return check_config(c, nullptr, 0, host_available_memory());
    const auto& devices = devices_once();
    if (devices.empty()) {
        const std::string why = cuda_unavailable_reason();
        return Status::failure("no CUDA device is available (" + why + "); use --backend cpu");
    }
    if (c.device < 0 || c.device >= int(devices.size())) return check_config(c, &devices.front(), int(devices.size()));
    DeviceInfo dev = devices[c.device];
    dev.free_memory = device_free_memory(c.device);
    return check_config(c, &dev, int(devices.size()));
}

std::unique_ptr<Simulation> create_simulation(const StencilConfig& c, std::string* why) {
    if (Status s = can_implement(c); !s) {
        if (why) *why = s.reason;
        return nullptr;
    }
    if (c.backend == Backend::Cpu) {
        try {
            return create_cpu_simulation(c);
        } catch (const std::exception& e) { // memory can shrink between the check and the allocation
            if (why) *why = std::string("cannot allocate the CPU backend's buffers: ") + e.what();
            return nullptr;
        }
    }
    return create_cuda_simulation(c, devices_once()[c.device], why);
}

} // namespace ss
