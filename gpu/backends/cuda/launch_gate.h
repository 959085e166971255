// SPDX-License-Identifier: MIT
// A gate in front of a timed batch of launches. A one-thread kernel holds the stream until the host has
// queued the whole batch, so the events around the batch time the GPU's work and not the CPU's launch
// rate: with 5 µs steps (1024², R1) the GPU would otherwise wait for each launch and the "kernel" rate
// would be a third of what the kernel does. The kernel lets go by itself after 100 ms, so a host that
// never opens the gate cannot hang the stream.
#pragma once

#include <cuda_runtime.h>

namespace ss {

class LaunchGate {
public:
    LaunchGate() = default;
    LaunchGate(const LaunchGate&) = delete;
    LaunchGate& operator=(const LaunchGate&) = delete;
    ~LaunchGate();

    // Queues the holding kernel on `stream` (the current device's); false when the gate could not be set
    // up (then nothing was queued and open() does nothing).
    bool close(cudaStream_t stream);
    // Lets the holding kernel finish: everything queued behind it runs back to back.
    void open();

private:
    volatile int* m_flag = nullptr; // pinned, mapped: the kernel reads it
};

} // namespace ss
