// SPDX-License-Identifier: MIT
// The MetricsCollector on CUPTI's Range Profiler (the CUDA 13 API of cupti_range_profiler.h with the
// Profiler Host API); CUPTI is loaded at run time (gpu/backends/cuda/cuda_libraries.h) and called through its table.
// - Creation, once: the chip's name and counter availability; the metric list, with the metrics this chip
//   does not know dropped (and remembered); one config image with all of them added in ONE
//   ConfigAddMetrics call (a call per metric costs a replay pass each); its pass count.
// - profile(): a fresh counter-data image and the config are set on the device's range profiler with one
//   range per kernel (auto range) and kernel replay, the profiler starts, the work runs, it stops, the
//   data is decoded, every range evaluated and the ranges aggregated.
// The range profiler stays enabled on the device's primary context for the rest of the process, shared
// by all collectors. Measured on the H100 (2026-11-22): enabling costs ~0.23 s, so a per-call
// enable/disable took 335 ms per profile() against 90 ms; while enabled, unprofiled steps took 0.0906
// ms instead of 0.0897. (A second enable that reused a counter-data image sized by the first object
// crashed: each image is sized by the object it is used with.)
#include "gpu/profiler/collector.h"
#include "gpu/profiler/cupti_host.h"

#include "gpu/backends/cuda/cuda_libraries.h"

#include <cuda.h> // CUcontext only: the driver is reached through the runtime (no link to libcuda)
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <mutex>

namespace ss {

namespace {

using namespace cupti_host;

// Kernel launches one profile() call may make; more are reported, not silently dropped.
constexpr std::size_t kMaxRanges = 64;

bool cuda_ok(cudaError_t e, const char* what, std::string* why) {
    if (e == cudaSuccess) return true;
    if (why) *why = std::string("GPU counters could not be read: ") + what + ": " + cudaGetErrorString(e);
    return false;
}

// The calling thread's current context (the runtime's primary context after cudaSetDevice + cudaFree(0)).
bool current_context(CUcontext* ctx, std::string* why) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found {};
    if (!cuda_ok(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found),
            "cudaGetDriverEntryPointByVersion", why))
        return false;
    if (!fn || found != cudaDriverEntryPointSuccess
        || reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(fn)(ctx) != CUDA_SUCCESS || !*ctx) {
        if (why) *why = "GPU counters could not be read: no current CUDA context";
        return false;
    }
    return true;
}

bool device_supported(int device, std::string* why) {
    auto p = params<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
    p.cuDevice = CUdevice(device);
    p.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (!ok(cupti().cuptiProfilerDeviceSupported(&p), "cuptiProfilerDeviceSupported", why)) return false;
    if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return true;
    const char* cause = p.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? nullptr
        : p.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
        ? "this virtual GPU does not allow profiling (the host's administrator can enable it)"
        : p.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "confidential-computing mode is on"
        : p.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED                 ? "SLI is enabled"
        : p.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "crypto-mining processors cannot be profiled"
        : p.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "this WSL version does not allow profiling"
                                                          : "the driver says profiling is unsupported";
    if (why)
        *why = cause ? "GPU counters are unavailable on this device: " + std::string(cause)
                + ". Timing-based figures stay available."
                     : counters_unavailable_reason(int(CUPTI_ERROR_NOT_SUPPORTED), "CUPTI_ERROR_NOT_SUPPORTED");
    return false;
}

// The devices' range-profiler objects, enabled on first use and kept (see the file comment) until
// release_range_profiler.
struct SharedRangeProfilers {
    std::mutex mutex;
    std::map<int, CUpti_RangeProfiler_Object*> objects;
};
SharedRangeProfilers& shared_range_profilers() {
    static SharedRangeProfilers shared;
    return shared;
}

CUpti_RangeProfiler_Object* shared_range_profiler(int device, CUcontext ctx, std::string* why) {
    auto& [mutex, objects] = shared_range_profilers();
    const std::lock_guard lock(mutex);
    if (const auto it = objects.find(device); it != objects.end()) return it->second;
    auto enable = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    enable.ctx = ctx;
    if (!ok(cupti().cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable", why)) return nullptr;
    return objects[device] = enable.pRangeProfilerObject;
}

class CuptiCollector final : public MetricsCollector {
public:
    explicit CuptiCollector(int device)
        : m_device(device) { }

    int device() const override { return m_device; }
    std::vector<std::string> dropped_metrics() const override { return m_dropped; }
    std::vector<std::string> collected_metrics() const override { return m_metrics; }
    int passes() const override { return m_passes; }

    bool init(std::string* why) {
        if (!cuda_ok(cudaSetDevice(m_device), "cudaSetDevice", why) || !cuda_ok(cudaFree(nullptr), "cudaFree", why)
            || !current_context(&m_context, why) || !initialize_profiler_once(why) || !device_supported(m_device, why))
            return false;
        auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
        chip.deviceIndex = std::size_t(m_device);
        if (!ok(cupti().cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName", why)) return false;
        m_chip = chip.pChipName;
        auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(
            CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
        avail.ctx = m_context;
        if (!ok(cupti().cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability", why))
            return false;
        m_availability.assign(avail.counterAvailabilityImageSize, 0);
        avail.pCounterAvailabilityImage = m_availability.data();
        if (!ok(cupti().cuptiProfilerGetCounterAvailability(&avail), "cuptiProfilerGetCounterAvailability", why))
            return false;
        return choose_metrics(why) && m_host.config_image(&m_config_image, &m_passes, why) && attach(why)
            && start_session(why) && stop_session(nullptr, why);
    }

    bool profile(const std::function<void()>& work, ProfiledLaunch* out, std::string* why) override {
        const auto t0 = std::chrono::steady_clock::now();
        if (!cuda_ok(cudaSetDevice(m_device), "cudaSetDevice", why) || !start_session(why)) return false;
        std::string work_error;
        try {
            work();
        } catch (const std::exception& e) {
            work_error = e.what();
        }
        // The work may leave another device current (a nested collector's profile(), a split run).
        const cudaError_t selected = cudaSetDevice(m_device);
        const cudaError_t synced = selected != cudaSuccess ? selected : cudaDeviceSynchronize();
        auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
        const bool stopped = stop_session(&decode, why); // always stop, so the next profile() can start
        if (!work_error.empty()) {
            if (why) *why = "the profiled work failed: " + work_error;
            return false;
        }
        if (!cuda_ok(synced, "the profiled work", why) || !stopped) return false;
        if (decode.numOfRangeDropped > 0) {
            if (why)
                *why = "the profiled work launched more than " + std::to_string(kMaxRanges)
                    + " kernels; profile fewer steps at a time";
            return false;
        }
        std::vector<KernelMetrics> ranges;
        if (!evaluate_ranges(&ranges, why)) return false;
        if (ranges.empty()) {
            if (why) *why = "the profiled work launched no kernel on CUDA device " + std::to_string(m_device);
            return false;
        }
        out->metrics = aggregate_ranges(ranges);
        out->kernels = int(ranges.size());
        out->passes = m_passes;
        out->wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return true;
    }

private:
    // Metrics the chip does not know are dropped; the rest must go into one config together. Should
    // that still fail, each metric is tried alone on a fresh host object (a failed add may leave the
    // object unusable) and only those that pass are kept.
    bool choose_metrics(std::string* why) {
        if (!m_host.init(m_chip, m_availability, why)) return false;
        for (const auto& name : profiled_metric_names()) (m_host.knows(name) ? m_metrics : m_dropped).push_back(name);
        if (m_host.add_metrics(m_metrics) == CUPTI_SUCCESS) return !m_metrics.empty() || no_metrics(why);
        std::vector<std::string> usable;
        for (const auto& name : m_metrics) {
            ProfilerHost probe(CUPTI_PROFILER_TYPE_RANGE_PROFILER);
            if (probe.init(m_chip, m_availability, why) && probe.add_metrics({ name }) == CUPTI_SUCCESS)
                usable.push_back(name);
            else
                m_dropped.push_back(name);
        }
        m_metrics = usable;
        if (m_metrics.empty()) return no_metrics(why);
        return m_host.init(m_chip, m_availability, why)
            && ok(m_host.add_metrics(m_metrics), "cuptiProfilerHostConfigAddMetrics", why);
    }

    bool no_metrics(std::string* why) const {
        if (why) *why = "GPU counters are unavailable: chip " + m_chip + " supports none of StencilScope's metrics";
        return false;
    }

    // The device's range profiler (enabled on first use: ~0.25 s) and a counter-data image sized by it.
    // Done at creation so that the first profile() is as quick as the rest.
    bool attach(std::string* why) {
        m_object = shared_range_profiler(m_device, m_context, why);
        if (!m_object) return false;
        const std::vector<const char*> names = c_names(m_metrics);
        auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
        size.pRangeProfilerObject = m_object;
        size.pMetricNames = const_cast<const char**>(names.data());
        size.numMetrics = names.size();
        size.maxNumOfRanges = kMaxRanges;
        size.maxNumRangeTreeNodes = kMaxRanges;
        if (!ok(cupti().cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize", why))
            return false;
        m_counter_data.assign(size.counterDataSize, 0);
        return true;
    }

    // A fresh counter-data image for this call's ranges, the config (auto range, kernel replay), start.
    // Creation runs one empty start/stop: without the privilege to read counters, starting is what fails.
    bool start_session(std::string* why) {
        auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
        init.pRangeProfilerObject = m_object;
        init.counterDataSize = m_counter_data.size();
        init.pCounterData = m_counter_data.data();
        if (!ok(cupti().cuptiRangeProfilerCounterDataImageInitialize(&init),
                "cuptiRangeProfilerCounterDataImageInitialize", why))
            return false;
        auto config = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
        config.pRangeProfilerObject = m_object;
        config.configSize = m_config_image.size();
        config.pConfig = m_config_image.data();
        config.counterDataImageSize = m_counter_data.size();
        config.pCounterDataImage = m_counter_data.data();
        config.range = CUPTI_AutoRange;
        config.replayMode = CUPTI_KernelReplay;
        config.maxRangesPerPass = kMaxRanges;
        config.numNestingLevels = 1; // auto range: one level
        config.minNestingLevel = 1;
        config.passIndex = 0;
        config.targetNestingLevel = 1;
        if (!ok(cupti().cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig", why)) return false;
        auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
        start.pRangeProfilerObject = m_object;
        return ok(cupti().cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart", why);
    }

    // Stop; with `decode`, also decode the counter data into the image (kernel replay submits every
    // pass within the work, so one stop ends the session).
    bool stop_session(CUpti_RangeProfiler_DecodeData_Params* decode, std::string* why) {
        auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
        stop.pRangeProfilerObject = m_object;
        if (!ok(cupti().cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop", why)) return false;
        if (!decode) return true;
        if (!stop.isAllPassSubmitted) {
            if (why) *why = "GPU counters could not be read: kernel replay did not complete every pass";
            return false;
        }
        decode->pRangeProfilerObject = m_object;
        return ok(cupti().cuptiRangeProfilerDecodeData(decode), "cuptiRangeProfilerDecodeData", why);
    }

    bool evaluate_ranges(std::vector<KernelMetrics>* ranges, std::string* why) {
        auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
            CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
        info.pCounterDataImage = m_counter_data.data();
        info.counterDataImageSize = m_counter_data.size();
        if (!ok(cupti().cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo", why))
            return false;
        const std::vector<const char*> names = c_names(m_metrics);
        std::vector<double> values(names.size());
        for (std::size_t r = 0; r < info.numTotalRanges; ++r) {
            auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
                CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
            eval.pHostObject = m_host.get();
            eval.pCounterDataImage = m_counter_data.data();
            eval.counterDataImageSize = m_counter_data.size();
            eval.rangeIndex = r;
            eval.ppMetricNames = const_cast<const char**>(names.data());
            eval.numMetrics = names.size();
            eval.pMetricValues = values.data();
            if (!ok(cupti().cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues", why))
                return false;
            KernelMetrics m;
            for (std::size_t i = 0; i < names.size(); ++i) m[m_metrics[i]] = values[i];
            ranges->push_back(std::move(m));
        }
        return true;
    }

    int m_device;
    CUcontext m_context = nullptr;
    std::string m_chip;
    std::vector<std::uint8_t> m_availability;
    ProfilerHost m_host { CUPTI_PROFILER_TYPE_RANGE_PROFILER };
    std::vector<std::string> m_metrics, m_dropped;
    std::vector<std::uint8_t> m_config_image, m_counter_data;
    int m_passes = 0;
    CUpti_RangeProfiler_Object* m_object = nullptr;
};

} // namespace

int profiled_metric_passes(const std::string& chip, std::string* why) {
    if (!loadable(why)) return -1;
    ProfilerHost host(CUPTI_PROFILER_TYPE_RANGE_PROFILER);
    std::vector<std::string> known;
    if (!host.init(chip, {}, why)) return -1;
    for (const auto& name : profiled_metric_names())
        if (host.knows(name)) known.push_back(name);
    if (!ok(host.add_metrics(known), "cuptiProfilerHostConfigAddMetrics", why)) return -1;
    std::vector<std::uint8_t> image;
    int passes = 0;
    return host.config_image(&image, &passes, why) ? passes : -1;
}

void release_range_profiler(int device) {
    if (!loadable(nullptr)) return;
    auto& [mutex, objects] = shared_range_profilers();
    const std::lock_guard lock(mutex);
    const auto it = objects.find(device);
    if (it == objects.end()) return;
    auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = it->second;
    cupti().cuptiRangeProfilerDisable(&p);
    objects.erase(it);
}

std::unique_ptr<MetricsCollector> create_metrics_collector(int device, std::string* why) {
    if (!device_reachable(device, why)) return nullptr;
    auto collector = std::make_unique<CuptiCollector>(device);
    if (!collector->init(why)) return nullptr;
    return collector;
}

} // namespace ss
