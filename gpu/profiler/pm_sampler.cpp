// SPDX-License-Identifier: MIT
// The PmSampler on CUPTI's PM sampling API (cupti_pmsampling.h, CUDA 13) with the Profiler Host API for
// the metric set and the evaluation; CUPTI is loaded at run time (gpu/backends/cuda/cuda_libraries.h).
// - Creation: the chip and its PM-sampling counter availability; the one-pass metric set; a config image;
//   PM sampling enabled on the device; the sampling interval and the hardware buffer set; a counter-data
//   image for image_samples samples, initialised once and kept as a pristine copy.
// - decode(): the hardware buffer is decoded into the image, each completed sample is evaluated into
//   values, and the image is reset from the copy.
#include "gpu/profiler/pm_sampler.h"

#include "gpu/backends/cuda/cuda_libraries.h"
#include "gpu/profiler/cupti_host.h"
#include "gpu/profiler/metrics.h"

#include <cuda_runtime.h>

#include <mutex>

namespace ss {

namespace {

using namespace cupti_host;

// The PM-sampling API's failures name it.
bool pm_ok(CUptiResult r, const char* call, std::string* why) {
    return ok(r, call, why, "PM sampling");
}

// Passes `names` need together on `chip`; 0 when they cannot be configured at all.
int passes_of(const std::string& chip, const std::vector<std::uint8_t>& availability,
    const std::vector<std::string>& names, std::string* why) {
    ProfilerHost host(CUPTI_PROFILER_TYPE_PM_SAMPLING);
    if (!host.init(chip, availability, why) || host.add_metrics(names) != CUPTI_SUCCESS) return 0;
    std::vector<std::uint8_t> image;
    int passes = 0;
    return host.config_image(&image, &passes, why, "PM sampling") ? passes : 0;
}

class CuptiPmSampler final : public PmSampler {
public:
    CuptiPmSampler(int device, const PmSamplerOptions& options)
        : m_device(device)
        , m_options(options) { }
    ~CuptiPmSampler() override {
        std::string ignored;
        stop(&ignored);
        if (m_object) {
            auto p = params<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
            p.pPmSamplingObject = m_object;
            cupti().cuptiPmSamplingDisable(&p);
        }
    }

    int device() const override { return m_device; }
    std::string chip() const override { return m_chip; }
    const std::vector<std::string>& metrics() const override { return m_metrics; }
    const std::vector<std::string>& left_out() const override { return m_left_out; }
    bool running() const override { return m_running; }

    bool init(std::string* why) {
        if (cudaSetDevice(m_device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
            if (why) *why = "GPU counters could not be read: CUDA device " + std::to_string(m_device) + " is unusable";
            return false;
        }
        if (!initialize_profiler_once(why) || !supported(why)) return false;
        auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
        chip.deviceIndex = std::size_t(m_device);
        if (!pm_ok(cupti().cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName", why)) return false;
        m_chip = chip.pChipName;
        auto avail = params<CUpti_PmSampling_GetCounterAvailability_Params>(
            CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
        avail.deviceIndex = std::size_t(m_device);
        if (!pm_ok(cupti().cuptiPmSamplingGetCounterAvailability(&avail), "cuptiPmSamplingGetCounterAvailability", why))
            return false;
        m_availability.assign(avail.counterAvailabilityImageSize, 0);
        avail.pCounterAvailabilityImage = m_availability.data();
        if (!pm_ok(cupti().cuptiPmSamplingGetCounterAvailability(&avail), "cuptiPmSamplingGetCounterAvailability", why))
            return false;
        PmMetricSet set;
        if (!pm_one_pass_metrics(m_chip, m_availability, pm_candidate_metrics(), &set, why)) return false;
        m_metrics = set.metrics;
        m_left_out = set.left_out;
        if (!m_host.init(m_chip, m_availability, why)) return false;
        int passes = 0;
        if (m_host.add_metrics(m_metrics) != CUPTI_SUCCESS
            || !m_host.config_image(&m_config, &passes, why, "PM sampling") || passes != 1) {
            if (why && why->empty()) *why = "GPU counters: the PM-sampling metric set does not fit one pass";
            return false;
        }
        return enable(why);
    }

    bool start(std::string* why) override {
        if (m_running) return true;
        auto p = params<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
        p.pPmSamplingObject = m_object;
        if (!pm_ok(cupti().cuptiPmSamplingStart(&p), "cuptiPmSamplingStart", why)) return false;
        m_running = true;
        return true;
    }

    bool stop(std::string* why) override {
        if (!m_running) return true;
        auto p = params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
        p.pPmSamplingObject = m_object;
        m_running = false;
        return ok(cupti().cuptiPmSamplingStop(&p), "cuptiPmSamplingStop", why);
    }

    // The image is emptied after every decode: on the H100 (2026-11-24) an image that filled up lost the
    // records decoded meanwhile (a gap of 1-75 ms after every 1000 samples), so it is sized for several
    // decode periods and never allowed to fill; if it does anyway, the chunk says samples were lost.
    bool decode(PmChunk* out, std::string* why) override {
        out->device = m_device;
        out->metrics = m_metrics;
        auto d = params<CUpti_PmSampling_DecodeData_Params>(CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
        d.pPmSamplingObject = m_object;
        d.pCounterDataImage = m_image.data();
        d.counterDataImageSize = m_image.size();
        const CUptiResult r = cupti().cuptiPmSamplingDecodeData(&d);
        if (r == CUPTI_ERROR_OUT_OF_MEMORY) { // the hardware buffer overflowed: what it held is lost
            out->overflow = true;
            std::string ignored;
            const bool was = m_running;
            stop(&ignored);
            m_image = m_pristine;
            return !was || start(why);
        }
        if (!pm_ok(r, "cuptiPmSamplingDecodeData", why)) return false;
        out->overflow = d.overflow || d.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
        const bool taken = take_completed(out, why);
        m_image = m_pristine;
        return taken;
    }

private:
    bool supported(std::string* why) const {
        auto p = params<CUpti_Profiler_DeviceSupported_Params>(CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
        p.cuDevice = CUdevice(m_device);
        p.api = CUPTI_PROFILER_PM_SAMPLING;
        if (!pm_ok(cupti().cuptiProfilerDeviceSupported(&p), "cuptiProfilerDeviceSupported", why)) return false;
        if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return true;
        if (why)
            *why = "This GPU does not support continuous counter sampling (CUPTI PM sampling needs Turing or newer, "
                   "and no vGPU, confidential-computing or SLI restriction)";
        return false;
    }

    bool enable(std::string* why) {
        auto e = params<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
        e.deviceIndex = std::size_t(m_device);
        if (!pm_ok(cupti().cuptiPmSamplingEnable(&e), "cuptiPmSamplingEnable", why)) return false;
        m_object = e.pPmSamplingObject;
        auto c = params<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
        c.pPmSamplingObject = m_object;
        c.configSize = m_config.size();
        c.pConfig = m_config.data();
        c.hardwareBufferSize = m_options.hardware_buffer_bytes;
        c.samplingInterval = m_options.interval_ns;
        c.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
        c.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
        if (!pm_ok(cupti().cuptiPmSamplingSetConfig(&c), "cuptiPmSamplingSetConfig", why)) return false;
        const std::vector<const char*> names = c_names(m_metrics);
        auto size = params<CUpti_PmSampling_GetCounterDataSize_Params>(
            CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
        size.pPmSamplingObject = m_object;
        size.pMetricNames = const_cast<const char**>(names.data());
        size.numMetrics = names.size();
        size.maxSamples = m_options.image_samples;
        if (!pm_ok(cupti().cuptiPmSamplingGetCounterDataSize(&size), "cuptiPmSamplingGetCounterDataSize", why))
            return false;
        m_pristine.assign(size.counterDataSize, 0);
        auto init = params<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
            CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
        init.pPmSamplingObject = m_object;
        init.counterDataSize = m_pristine.size();
        init.pCounterData = m_pristine.data();
        if (!pm_ok(cupti().cuptiPmSamplingCounterDataImageInitialize(&init),
                "cuptiPmSamplingCounterDataImageInitialize", why))
            return false;
        m_image = m_pristine;
        return true;
    }

    // Evaluates the samples the last decode completed.
    bool take_completed(PmChunk* out, std::string* why) {
        auto info = params<CUpti_PmSampling_GetCounterDataInfo_Params>(
            CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
        info.pCounterDataImage = m_image.data();
        info.counterDataImageSize = m_image.size();
        if (!pm_ok(cupti().cuptiPmSamplingGetCounterDataInfo(&info), "cuptiPmSamplingGetCounterDataInfo", why))
            return false;
        const std::vector<const char*> names = c_names(m_metrics);
        for (std::size_t i = 0; i < info.numCompletedSamples; ++i) {
            PmSample s;
            auto when = params<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
                CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
            when.pPmSamplingObject = m_object;
            when.pCounterDataImage = m_image.data();
            when.counterDataImageSize = m_image.size();
            when.sampleIndex = i;
            if (!pm_ok(cupti().cuptiPmSamplingCounterDataGetSampleInfo(&when),
                    "cuptiPmSamplingCounterDataGetSampleInfo", why))
                return false;
            s.start_ns = when.startTimestamp;
            s.end_ns = when.endTimestamp;
            s.values.assign(names.size(), 0.0);
            auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
                CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
            eval.pHostObject = m_host.get();
            eval.pCounterDataImage = m_image.data();
            eval.counterDataImageSize = m_image.size();
            eval.rangeIndex = i;
            eval.ppMetricNames = const_cast<const char**>(names.data());
            eval.numMetrics = names.size();
            eval.pMetricValues = s.values.data();
            if (!pm_ok(
                    cupti().cuptiProfilerHostEvaluateToGpuValues(&eval), "cuptiProfilerHostEvaluateToGpuValues", why))
                return false;
            out->samples.push_back(std::move(s));
        }
        return true;
    }

    int m_device;
    PmSamplerOptions m_options;
    std::string m_chip;
    std::vector<std::uint8_t> m_availability, m_config, m_pristine, m_image;
    std::vector<std::string> m_metrics, m_left_out;
    ProfilerHost m_host { CUPTI_PROFILER_TYPE_PM_SAMPLING };
    CUpti_PmSampling_Object* m_object = nullptr;
    bool m_running = false;
};

} // namespace

bool pm_one_pass_metrics(const std::string& chip, const std::vector<std::uint8_t>& availability,
    const std::vector<std::string>& candidates, PmMetricSet* out, std::string* why) {
    if (!loadable(why)) return false;
    {
        ProfilerHost probe(CUPTI_PROFILER_TYPE_PM_SAMPLING); // is the chip known at all?
        if (!probe.init(chip, availability, why)) return false;
    }
    out->metrics.clear();
    out->left_out.clear();
    for (const std::string& name : candidates) {
        std::vector<std::string> trial = out->metrics;
        trial.push_back(name);
        std::string ignored;
        (passes_of(chip, availability, trial, &ignored) == 1 ? out->metrics : out->left_out).push_back(name);
    }
    if (!out->metrics.empty()) return true;
    if (why) *why = "GPU counters: none of StencilScope's continuous metrics can be sampled on chip " + chip;
    return false;
}

std::unique_ptr<PmSampler> create_pm_sampler(int device, const PmSamplerOptions& options, std::string* why) {
    if (!device_reachable(device, why)) return nullptr;
    auto sampler = std::make_unique<CuptiPmSampler>(device, options);
    if (!sampler->init(why)) return nullptr;
    return sampler;
}

} // namespace ss
