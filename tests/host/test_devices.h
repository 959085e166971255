// SPDX-License-Identifier: MIT
// Described devices for host tests of the launch policy: no GPU needed.
#pragma once

#include "gpu/plan/launch_policy.h"
#include "gpu/problem/device.h"

namespace ss::test {

// The figures of an H100 SXM as the CUDA runtime reports them: the launch limits the engine assumes where no GPU
// is known (largest_gpu_limits), and the rest.
inline DeviceInfo h100() {
    DeviceInfo d = largest_gpu_limits();
    d.name = "NVIDIA H100 80GB HBM3 (described)";
    d.sm_count = 132;
    d.total_memory = 80ll << 30;
    d.free_memory = 79ll << 30;
    d.l2_bytes = 50ll << 20;
    return d;
}

} // namespace ss::test
