// SPDX-License-Identifier: MIT
#include "gpu/backends/background_build.h"

#include <algorithm>
#include <exception>

namespace ss {

int BackgroundBuild::default_workers() {
    return std::clamp(int(std::thread::hardware_concurrency()) / 2, 2, 4);
}

BackgroundBuild::BackgroundBuild(int workers) {
    for (int i = 0; i < std::max(workers, 1); ++i) m_threads.emplace_back([this] { run(); });
}

BackgroundBuild::~BackgroundBuild() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_waiting.reset();
    }
    m_wake.notify_all();
    for (std::thread& t : m_threads) t.join();
}

void BackgroundBuild::post(std::uint64_t id, Job job) {
    {
        std::lock_guard lock(m_mutex);
        m_waiting.emplace(id, std::move(job));
        m_newest = std::max(m_newest, id);
        m_done.erase(m_done.begin(), m_done.lower_bound(m_newest));
    }
    m_wake.notify_one();
}

std::optional<Status> BackgroundBuild::result(std::uint64_t id) const {
    std::lock_guard lock(m_mutex);
    if (auto it = m_done.find(id); it != m_done.end()) return it->second;
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
        if (id >= m_newest) m_done.insert_or_assign(id, std::move(status)); // an older one nobody polls for
    }
}

} // namespace ss
