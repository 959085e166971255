// SPDX-License-Identifier: MIT
// Continuous counters on every device of a run: one PmSampler per device and one decode thread that
// empties their hardware buffers every `decode_period` and hands each device's new samples to a sink as
// plain values (on the decode thread: the sink must only queue them, e.g. a queued Qt signal). pause()
// and resume() take PM sampling off the devices and put it back around a replayed profile: a stopped but
// enabled PM sampler made the range profiler fail with CUPTI_ERROR_HARDWARE_BUSY on the H100, so pause()
// disables it, and the caller must release_range_profiler() (collector.h) before resume(). Qt-free: the
// CLI and the GUI's engine use it.
#pragma once

#include "gpu/profiler/pm_sampler.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ss {

class PmSamplingRun {
public:
    using Sink = std::function<void(PmChunk&&)>;
    // Creates a sampler per device on the calling thread (which may then hold the devices' primary
    // contexts), starts sampling and the decode thread. nullptr with `why` when any device cannot sample
    // (the reason names the device when there are several).
    static std::unique_ptr<PmSamplingRun> start(const std::vector<int>& devices, const PmSamplerOptions&,
        std::chrono::milliseconds decode_period, Sink sink, std::string* why);
    ~PmSamplingRun(); // finish()
    PmSamplingRun(const PmSamplingRun&) = delete;
    PmSamplingRun& operator=(const PmSamplingRun&) = delete;

    // Stops sampling on every device, hands over what was sampled so far and disables PM sampling there.
    // Blocks for one decode at most.
    void pause();
    // Enables and starts sampling again (on the calling thread, as start()); false with `why` when a
    // device refuses, and the run stays paused.
    bool resume(std::string* why);
    bool paused() const;
    // Stops sampling, decodes the rest, ends the decode thread. The sink gets nothing afterwards.
    void finish();
    // The first decode failure (the run stops decoding then), or "".
    std::string error() const;
    // The samplers (empty while paused): read them on the thread that calls pause and resume.
    const std::vector<std::unique_ptr<PmSampler>>& samplers() const { return m_samplers; }

private:
    PmSamplingRun() = default;
    void decode_loop();
    void decode_all(); // with m_mutex held

    bool create_samplers(std::string* why); // with m_mutex held

    std::vector<int> m_devices;
    PmSamplerOptions m_options;
    std::vector<std::unique_ptr<PmSampler>> m_samplers; // empty while paused
    Sink m_sink;
    std::chrono::milliseconds m_period { 50 };
    mutable std::mutex m_mutex; // the samplers: the decode thread and pause/resume take turns
    std::condition_variable m_wake;
    bool m_finishing = false;
    std::string m_error;
    std::thread m_thread;
};

} // namespace ss
