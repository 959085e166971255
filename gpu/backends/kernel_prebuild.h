// SPDX-License-Identifier: MIT
// Builds kernels nobody has asked for yet (issue 40, "ahead of the hand"): the configurations one knob away from the
// running one, a lesson's compared runs. One thread at the lowest CPU priority works down a list of configurations,
// planning each and building what a plan accepted for one GPU runs into the kernel caches (prepare_kernels); a new
// list replaces what is left of the old one. Nobody waits for it; a build it has started finishes into the cache.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace ss {

class KernelPrebuild {
public:
    explicit KernelPrebuild(DeviceCatalogue);
    ~KernelPrebuild(); // stops after the build in progress; drops the rest
    KernelPrebuild(const KernelPrebuild&) = delete;
    KernelPrebuild& operator=(const KernelPrebuild&) = delete;

    // What to build next, in this order: replaces the configurations not yet started.
    void replace(std::vector<StencilConfig>);
    // Blocks until the list is done (tests).
    void wait_idle();
    int built() const { return m_built.load(); } // configurations whose kernels were prepared since construction
    int pending() const { return m_pending.load(); } // configurations waiting or being built now

private:
    void run();

    const DeviceCatalogue m_catalogue;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_idle;
    std::deque<StencilConfig> m_waiting;
    bool m_busy = false, m_stop = false;
    std::atomic<int> m_built { 0 };
    std::atomic<int> m_pending { 0 };
    std::thread m_thread; // last: starts once the members above exist
};

} // namespace ss
