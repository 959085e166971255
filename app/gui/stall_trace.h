// SPDX-License-Identifier: MIT
// Where the GUI thread is when it stays away from its event loop (STENCILSCOPE_STALL_TRACE, for the soak): a watcher
// thread signals the GUI thread once it has missed its heartbeat for a while, and the signal handler writes the
// GUI thread's call stack to a file. A diagnostic for the GPU machine, where no profiler runs beside the window.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include <pthread.h>

namespace ss::gui {

class StallTrace {
public:
    // Samples the calling thread (the GUI thread) when it has not called beat() for `threshold_ms`, then every
    // `threshold_ms / 2` while the stall lasts, at most four stacks per stall. Writes to `path` (truncated).
    StallTrace(const std::string& path, double threshold_ms);
    ~StallTrace();
    StallTrace(const StallTrace&) = delete;
    StallTrace& operator=(const StallTrace&) = delete;

    bool ok() const { return m_fd >= 0; }
    void beat(); // from the GUI thread's event loop, often (a 1 ms timer)
    int stacks() const { return m_stacks.load(); }

private:
    void watch();

    int m_fd = -1;
    std::int64_t m_threshold_ns;
    pthread_t m_gui;
    std::atomic<std::int64_t> m_last_beat_ns { 0 };
    std::atomic<bool> m_stop { false };
    std::atomic<int> m_stacks { 0 };
    std::thread m_watcher;
};

} // namespace ss::gui
