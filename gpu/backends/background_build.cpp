// SPDX-License-Identifier: MIT
#include "gpu/backends/background_build.h"

#include <exception>

namespace ss {

BackgroundBuild::BackgroundBuild()
    : m_thread([this] { run(); }) { }

BackgroundBuild::~BackgroundBuild() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_waiting.reset();
    }
    m_wake.notify_all();
    m_thread.join();
}

void BackgroundBuild::post(std::uint64_t id, Job job) {
    {
        std::lock_guard lock(m_mutex);
        m_waiting.emplace(id, std::move(job));
    }
    m_wake.notify_all();
}

std::optional<Status> BackgroundBuild::result(std::uint64_t id) const {
    std::lock_guard lock(m_mutex);
    if (m_done && m_done->first == id) return m_done->second;
    return std::nullopt;
}

void BackgroundBuild::run() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || m_waiting; });
        if (m_stop) return;
        auto [id, job] = std::move(*m_waiting);
        m_waiting.reset();
        lock.unlock();
        Status status = Status::success();
        try {
            status = job();
        } catch (const std::exception& e) {
            status = Status::failure(e.what());
        }
        lock.lock();
        m_done.emplace(id, std::move(status));
    }
}

} // namespace ss
