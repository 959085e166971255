// SPDX-License-Identifier: MIT
#include "gpu/profiler/pm_sampling_run.h"

namespace ss {

std::unique_ptr<PmSamplingRun> PmSamplingRun::start(const std::vector<int>& devices, const PmSamplerOptions& options,
    std::chrono::milliseconds decode_period, Sink sink, std::string* why) {
    std::unique_ptr<PmSamplingRun> run(new PmSamplingRun);
    run->m_sink = std::move(sink);
    run->m_period = decode_period;
    for (int device : devices) {
        std::string reason;
        auto sampler = create_pm_sampler(device, options, &reason);
        if (sampler && !sampler->start(&reason)) sampler.reset();
        if (!sampler) {
            if (why) *why = devices.size() > 1 ? "GPU " + std::to_string(device) + ": " + reason : reason;
            return nullptr;
        }
        run->m_samplers.push_back(std::move(sampler));
    }
    run->m_thread = std::thread([r = run.get()] { r->decode_loop(); });
    return run;
}

PmSamplingRun::~PmSamplingRun() {
    finish();
}

void PmSamplingRun::decode_all() {
    for (auto& sampler : m_samplers) {
        if (!m_error.empty()) return;
        PmChunk chunk;
        std::string why;
        if (!sampler->decode(&chunk, &why)) {
            m_error = why;
            return;
        }
        if ((!chunk.samples.empty() || chunk.overflow) && m_sink) m_sink(std::move(chunk));
    }
}

void PmSamplingRun::decode_loop() {
    std::unique_lock lock(m_mutex);
    while (!m_finishing) {
        decode_all();
        m_wake.wait_for(lock, m_period, [this] { return m_finishing; });
    }
}

void PmSamplingRun::pause() {
    const std::lock_guard lock(m_mutex);
    for (auto& sampler : m_samplers) {
        std::string ignored;
        sampler->stop(&ignored);
    }
    decode_all();
}

bool PmSamplingRun::resume(std::string* why) {
    const std::lock_guard lock(m_mutex);
    for (auto& sampler : m_samplers)
        if (!sampler->start(why)) return false;
    return true;
}

void PmSamplingRun::finish() {
    {
        const std::lock_guard lock(m_mutex);
        if (m_finishing) return;
        m_finishing = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) m_thread.join();
    const std::lock_guard lock(m_mutex);
    for (auto& sampler : m_samplers) {
        std::string ignored;
        sampler->stop(&ignored);
    }
    decode_all();
    m_sink = nullptr;
}

std::string PmSamplingRun::error() const {
    const std::lock_guard lock(m_mutex);
    return m_error;
}

} // namespace ss
