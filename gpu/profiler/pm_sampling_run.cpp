// SPDX-License-Identifier: MIT
#include "gpu/profiler/pm_sampling_run.h"

namespace ss {

// The CUPTI-free part of pm_sampler.h lives here, so that a CPU-only build has it.
int PmChunk::column(const std::string& metric) const {
    for (std::size_t i = 0; i < metrics.size(); ++i)
        if (metrics[i] == metric) return int(i);
    return -1;
}

std::vector<std::string> pm_candidate_metrics() {
    return {
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "dram__bytes_read.sum.per_second",
        "dram__bytes_write.sum.per_second",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "gr__cycles_elapsed.max",
        "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum",
        "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum",
        "nvlrx__bytes.sum",
        "nvltx__bytes.sum",
        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_elapsed",
        "sm__inst_executed.sum",
        "gpc__cycles_elapsed.max",
    };
}

std::unique_ptr<PmSamplingRun> PmSamplingRun::start(const std::vector<int>& devices, const PmSamplerOptions& options,
    std::chrono::milliseconds decode_period, Sink sink, std::string* why) {
    std::unique_ptr<PmSamplingRun> run(new PmSamplingRun);
    run->m_sink = std::move(sink);
    run->m_period = decode_period;
    run->m_devices = devices;
    run->m_options = options;
    if (!run->create_samplers(why)) return nullptr;
    run->m_thread = std::thread([r = run.get()] { r->decode_loop(); });
    return run;
}

bool PmSamplingRun::create_samplers(std::string* why) {
    for (int device : m_devices) {
        std::string reason;
        auto sampler = create_pm_sampler(device, m_options, &reason);
        if (sampler && !sampler->start(&reason)) sampler.reset();
        if (!sampler) {
            if (why) *why = m_devices.size() > 1 ? "GPU " + std::to_string(device) + ": " + reason : reason;
            m_samplers.clear();
            return false;
        }
        m_samplers.push_back(std::move(sampler));
    }
    return true;
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
    m_samplers.clear(); // disables PM sampling on the devices
}

bool PmSamplingRun::resume(std::string* why) {
    const std::lock_guard lock(m_mutex);
    if (!m_samplers.empty() || m_finishing) return true;
    return create_samplers(why);
}

bool PmSamplingRun::paused() const {
    const std::lock_guard lock(m_mutex);
    return m_samplers.empty();
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
