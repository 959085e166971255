// SPDX-License-Identifier: MIT
// A few threads that run the newest build asked for (issue 40: a turned knob must not stop the picture while
// NVRTC builds the next kernel). A job already running cannot be stopped (NVRTC has no cancel) and finishes into
// the kernel cache, where a later request finds it; so that the newest request never queues behind such a stale
// job, it starts on an idle worker at once, and only when every worker is busy does it wait, replacing any job
// that had not started. Nobody waits for a job: the owner polls result().
#pragma once

#include "gpu/problem/config.h" // Status

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace ss {

class BackgroundBuild {
public:
    using Job = std::function<Status()>;
    // Room for two or three stale builds and the newest beside them, within half the machine's cores (NVRTC
    // compiles on one core; the engine and GUI threads keep theirs).
    static int default_workers();
    explicit BackgroundBuild(int workers = default_workers());
    ~BackgroundBuild(); // waits for the jobs in progress, drops the one waiting
    BackgroundBuild(const BackgroundBuild&) = delete;
    BackgroundBuild& operator=(const BackgroundBuild&) = delete;

    // `id` grows with every request; a job waiting to start is dropped for this one.
    void post(std::uint64_t id, Job job);
    // The status of job `id` once it has run, else nothing. A dropped job never has one, nor a job older than the
    // newest posted one (nobody asks for those).
    std::optional<Status> result(std::uint64_t id) const;

private:
    void run();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<std::pair<std::uint64_t, Job>> m_waiting;
    std::map<std::uint64_t, Status> m_done; // finished jobs, none older than m_newest
    std::uint64_t m_newest = 0;
    bool m_stop = false;
    std::vector<std::thread> m_threads; // last: they start once the members above exist
};

} // namespace ss
