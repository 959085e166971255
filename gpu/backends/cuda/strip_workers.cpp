// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/strip_workers.h"

namespace ss {

StripWorkers::StripWorkers(int count) {
    for (int i = 0; i < count; ++i) m_threads.emplace_back([this, i] { loop(i); });
}

StripWorkers::~StripWorkers() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_threads) t.join();
}

void StripWorkers::run(const std::function<void(int)>& job) {
    std::unique_lock lock(m_mutex);
    m_barrier = std::make_unique<std::barrier<>>(std::ptrdiff_t(m_threads.size()));
    m_job = &job;
    m_error = nullptr;
    m_running = int(m_threads.size());
    ++m_generation;
    m_wake.notify_all();
    m_done.wait(lock, [this] { return m_running == 0; });
    m_job = nullptr;
    if (m_error) std::rethrow_exception(m_error);
}

void StripWorkers::loop(int index) {
    std::uint64_t seen = 0;
    while (true) {
        const std::function<void(int)>* job = nullptr;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
            job = m_job;
        }
        std::exception_ptr error;
        try {
            (*job)(index);
        } catch (...) {
            error = std::current_exception();
            m_barrier->arrive_and_drop(); // the others must not wait for this worker at later sync points
        }
        std::lock_guard lock(m_mutex);
        if (error && !m_error) m_error = error;
        if (--m_running == 0) m_done.notify_one();
    }
}

} // namespace ss
