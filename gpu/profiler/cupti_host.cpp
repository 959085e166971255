// SPDX-License-Identifier: MIT
#include "gpu/profiler/cupti_host.h"

#include "gpu/backends/sanitizer_build.h"
#include "gpu/problem/device.h"
#include "gpu/profiler/metrics.h"

#include <cuda_runtime.h>

#include <mutex>

namespace ss::cupti_host {

const CuptiApi& cupti() {
    return *cupti_api();
}

bool ok(CUptiResult r, const char* call, std::string* why, const char* api) {
    if (r == CUPTI_SUCCESS) return true;
    if (!why) return false;
    const char* name = nullptr;
    if (cupti().cuptiGetResultString(r, &name) != CUPTI_SUCCESS || !name) name = "CUPTI_ERROR_UNKNOWN";
    *why = counters_unavailable_reason(int(r), name) + " [" + (api ? std::string(api) + ": " : std::string()) + call
        + "]";
    return false;
}

bool loadable(std::string* why) {
    if (kAddressSanitizer) {
        if (why) *why = "GPU counters are unavailable in an AddressSanitizer build (CUPTI's host library cannot load)";
        return false;
    }
    if (cupti_api()) return true;
    if (why) *why = "GPU counters are unavailable: " + cupti_unavailable_reason();
    return false;
}

bool device_reachable(int device, std::string* why) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        if (why) *why = "GPU counters need a CUDA device: " + cuda_unavailable_reason();
        return false;
    }
    if (device < 0 || device >= count) {
        if (why) *why = "GPU counters: CUDA device " + std::to_string(device) + " does not exist";
        return false;
    }
    return loadable(why);
}

bool initialize_profiler_once(std::string* why) {
    static std::once_flag once;
    static CUptiResult result = CUPTI_SUCCESS;
    std::call_once(once, [] {
        auto p = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
        result = cupti().cuptiProfilerInitialize(&p);
    });
    return ok(result, "cuptiProfilerInitialize", why);
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
    std::vector<const char*> out;
    for (const auto& n : names) out.push_back(n.c_str());
    return out;
}

bool ProfilerHost::init(const std::string& chip, const std::vector<std::uint8_t>& availability, std::string* why) {
    reset();
    auto p = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    p.profilerType = m_type;
    p.pChipName = chip.c_str();
    p.pCounterAvailabilityImage = availability.empty() ? nullptr : availability.data();
    if (!ok(cupti().cuptiProfilerHostInitialize(&p), "cuptiProfilerHostInitialize", why)) return false;
    m_object = p.pHostObject;
    return true;
}

void ProfilerHost::reset() {
    if (!m_object) return;
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = m_object;
    cupti().cuptiProfilerHostDeinitialize(&p);
    m_object = nullptr;
}

bool ProfilerHost::knows(const std::string& metric) const {
    auto p = params<CUpti_Profiler_Host_GetMetricProperties_Params>(
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
    p.pHostObject = m_object;
    p.pMetricName = metric.c_str();
    return cupti().cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS;
}

CUptiResult ProfilerHost::add_metrics(const std::vector<std::string>& names) const {
    const std::vector<const char*> c = c_names(names);
    auto p
        = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    p.pHostObject = m_object;
    p.ppMetricNames = const_cast<const char**>(c.data());
    p.numMetrics = c.size();
    return cupti().cuptiProfilerHostConfigAddMetrics(&p);
}

bool ProfilerHost::config_image(
    std::vector<std::uint8_t>* image, int* passes, std::string* why, const char* api) const {
    auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = m_object;
    if (!ok(cupti().cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize", why, api))
        return false;
    image->assign(size.configImageSize, 0);
    auto get = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    get.pHostObject = m_object;
    get.configImageSize = image->size();
    get.pConfigImage = image->data();
    if (!ok(cupti().cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage", why, api)) return false;
    auto count
        = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    count.configImageSize = image->size();
    count.pConfigImage = image->data();
    if (!ok(cupti().cuptiProfilerHostGetNumOfPasses(&count), "cuptiProfilerHostGetNumOfPasses", why, api)) return false;
    *passes = int(count.numOfPasses);
    return true;
}

} // namespace ss::cupti_host
