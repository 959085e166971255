// SPDX-License-Identifier: MIT
// One thread that runs the newest build asked for (issue 40: a turned knob must not stop the picture while
// NVRTC builds the next kernel). post() replaces a job that has not started, so only the newest request
// is built next; a job already running cannot be stopped (NVRTC has no cancel) and finishes into the kernel
// cache, where a later request finds it. Nobody waits for a job: the owner polls result().
#pragma once

#include "gpu/problem/config.h" // Status

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace ss {

class BackgroundBuild {
public:
    using Job = std::function<Status()>;
    BackgroundBuild();
    ~BackgroundBuild(); // waits for the job in progress, drops the one waiting
    BackgroundBuild(const BackgroundBuild&) = delete;
    BackgroundBuild& operator=(const BackgroundBuild&) = delete;

    // `id` grows with every request; a job waiting to start is dropped for this one.
    void post(std::uint64_t id, Job job);
    // The status of job `id` once it has run, else nothing. A dropped job never has one.
    std::optional<Status> result(std::uint64_t id) const;

private:
    void run();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<std::pair<std::uint64_t, Job>> m_waiting;
    std::optional<std::pair<std::uint64_t, Status>> m_done; // the newest job that finished
    bool m_stop = false;
    std::thread m_thread; // last: starts once the members above exist
};

} // namespace ss
