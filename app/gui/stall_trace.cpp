// SPDX-License-Identifier: MIT
#include "app/gui/stall_trace.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace ss::gui {
namespace {

std::atomic<int> g_trace_fd { -1 }; // the file the handler writes to (one StallTrace at a time)

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// backtrace() and backtrace_symbols_fd() allocate nothing once libgcc is loaded (the constructor's first call loads
// it), which is what lets them run in a handler.
void write_stack(int) {
    const int fd = g_trace_fd.load();
    if (fd < 0) return;
    void* frames[48];
    const int n = backtrace(frames, 48);
    backtrace_symbols_fd(frames, n, fd);
    static const char end[] = "--\n";
    [[maybe_unused]] const ssize_t written = write(fd, end, sizeof end - 1);
}

} // namespace

StallTrace::StallTrace(const std::string& path, double threshold_ms)
    : m_threshold_ns(std::int64_t(threshold_ms * 1e6))
    , m_gui(pthread_self()) {
    m_fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) return;
    void* warm[2];
    backtrace(warm, 2);
    g_trace_fd = m_fd;
    struct sigaction action { };
    action.sa_handler = write_stack;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGUSR2, &action, nullptr);
    m_last_beat_ns = now_ns();
    m_watcher = std::thread([this] { watch(); });
}

StallTrace::~StallTrace() {
    m_stop = true;
    if (m_watcher.joinable()) m_watcher.join();
    g_trace_fd = -1;
    if (m_fd >= 0) close(m_fd);
}

void StallTrace::beat() {
    m_last_beat_ns = now_ns();
}

void StallTrace::watch() {
    std::int64_t stall_start = 0, next_sample = 0;
    int taken = 0;
    while (!m_stop) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const std::int64_t beat = m_last_beat_ns, now = now_ns();
        if (now - beat < m_threshold_ns) continue;
        if (beat != stall_start) { // a new stall
            stall_start = beat;
            next_sample = now;
            taken = 0;
        }
        if (taken >= 4 || now < next_sample) continue;
        char header[96];
        const int length = std::snprintf(
            header, sizeof header, "stall: the GUI thread has been away %.0f ms\n", double(now - beat) / 1e6);
        [[maybe_unused]] const ssize_t written = write(m_fd, header, std::size_t(length));
        pthread_kill(m_gui, SIGUSR2);
        ++taken;
        ++m_stacks;
        next_sample = now + m_threshold_ns / 2;
    }
}

} // namespace ss::gui
