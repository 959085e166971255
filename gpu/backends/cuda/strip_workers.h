// SPDX-License-Identifier: MIT
// One persistent host thread per strip (thesis sec. 2.6.3: per-GPU threads launch in parallel and keep
// the caller free). run() hands every worker the same job and returns when all are done; inside a job,
// sync_point() is the barrier between a step's kernels and its exchange. No CUDA here.
#pragma once

#include <barrier>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ss {

class StripWorkers {
public:
    explicit StripWorkers(int count);
    ~StripWorkers();
    StripWorkers(const StripWorkers&) = delete;
    StripWorkers& operator=(const StripWorkers&) = delete;

    // Runs job(i) on worker i, for every worker at once; rethrows the first exception a job threw.
    void run(const std::function<void(int)>& job);
    // Inside a job: returns once every worker has reached it (a worker whose job threw counts as arrived).
    void sync_point() { m_barrier->arrive_and_wait(); }
    int size() const { return int(m_threads.size()); }

private:
    void loop(int index);

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    const std::function<void(int)>* m_job = nullptr;
    std::uint64_t m_generation = 0;
    int m_running = 0;
    bool m_stop = false;
    std::exception_ptr m_error;
    std::unique_ptr<std::barrier<>> m_barrier; // fresh for every run: a failed job drops out of it
};

} // namespace ss
