// SPDX-License-Identifier: MIT
// Described devices for host tests of the launch policy: no GPU needed.
#pragma once

#include "gpu/device.h"

namespace ss::test {

// The figures of an H100 SXM as the CUDA runtime reports them.
inline DeviceInfo h100() {
    DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3 (described)";
    d.cc_major = 9;
    d.sm_count = 132;
    d.max_threads_per_block = 1024;
    d.max_threads_per_sm = 2048;
    d.max_blocks_per_sm = 32;
    d.smem_per_block_optin = 227 * 1024;
    d.smem_per_sm = 228 * 1024;
    d.total_memory = 80ll << 30;
    d.free_memory = 79ll << 30;
    d.l2_bytes = 50ll << 20;
    return d;
}

} // namespace ss::test
