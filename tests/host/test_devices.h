// SPDX-License-Identifier: MIT
// Described devices and configurations for host tests of the launch policy: no GPU needed.
#pragma once

#include "gpu/plan/launch_policy.h"
#include "gpu/problem/device.h"

namespace ss::test {

// A small star configuration for policy tests: 64^3 in 3D, 256^2 in 2D.
inline StencilConfig star_config(int dims, int radius, Variant v, int cf = 1, Precision p = Precision::FP32) {
    StencilConfig c;
    c.problem.dims = dims;
    c.problem.size = dims == 3 ? Extent { 64, 64, 64 } : Extent { 256, 256, 1 };
    c.problem.radius = radius;
    c.policy.variant = v;
    c.policy.cf = cf;
    c.problem.precision = p;
    return c;
}

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
