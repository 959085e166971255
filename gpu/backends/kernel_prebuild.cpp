// SPDX-License-Identifier: MIT
#include "gpu/backends/kernel_prebuild.h"

#include "gpu/backends/create_simulation.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <exception>

namespace ss {

KernelPrebuild::KernelPrebuild(DeviceCatalogue catalogue)
    : m_catalogue(std::move(catalogue))
    , m_thread([this] { run(); }) { }

KernelPrebuild::~KernelPrebuild() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_waiting.clear();
    }
    m_wake.notify_all();
    m_thread.join();
}

void KernelPrebuild::replace(std::vector<StencilConfig> configs) {
    {
        std::lock_guard lock(m_mutex);
        m_waiting.assign(configs.begin(), configs.end());
        m_pending = int(m_waiting.size()) + (m_busy ? 1 : 0);
    }
    m_wake.notify_all();
}

void KernelPrebuild::wait_idle() {
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] { return m_waiting.empty() && !m_busy; });
}

void KernelPrebuild::run() {
    // The lowest priority for this thread only (Linux: a thread is a task with its own nice value), so that building
    // ahead never slows the engine thread, the GUI or a build somebody is waiting for.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 19);
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_waiting.empty(); });
        if (m_stop) return;
        const StencilConfig next = m_waiting.front();
        m_waiting.pop_front();
        m_busy = true;
        lock.unlock();
        try {
            const LaunchPlan plan = make_launch_plan(next, m_catalogue);
            if (plan_builds_kernels(plan, m_catalogue) && prepare_kernels(plan, m_catalogue)) ++m_built;
        } catch (const std::exception&) { // a configuration that cannot be built is simply not ahead
        }
        lock.lock();
        m_busy = false;
        m_pending = int(m_waiting.size());
        if (m_waiting.empty()) m_idle.notify_all();
    }
}

} // namespace ss
