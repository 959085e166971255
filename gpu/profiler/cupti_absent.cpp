// SPDX-License-Identifier: MIT
// CUPTI's entry points in a CPU-only build (gpu/backends/cpu_only.h): no collector, no sampler, and the
// reason they give is the build's. The CUPTI-free parts (metric lists, per-device combining) are compiled
// in both builds (device_profiles.cpp, pm_sampling_run.cpp).
#include "gpu/backends/cpu_only.h"
#include "gpu/profiler/collector.h"
#include "gpu/profiler/pm_sampler.h"

namespace ss {
namespace {

std::string counters_refused() {
    return std::string("GPU counters: ") + kNoCudaBackend;
}

} // namespace

std::unique_ptr<MetricsCollector> create_metrics_collector(int, std::string* why) {
    if (why) *why = counters_refused();
    return nullptr;
}

void release_range_profiler(int) { }

int profiled_metric_passes(const std::string&, std::string* why) {
    if (why) *why = counters_refused();
    return -1;
}

bool pm_one_pass_metrics(const std::string&, const std::vector<std::uint8_t>&, const std::vector<std::string>&,
    PmMetricSet*, std::string* why) {
    if (why) *why = counters_refused();
    return false;
}

std::unique_ptr<PmSampler> create_pm_sampler(int, const PmSamplerOptions&, std::string* why) {
    if (why) *why = counters_refused();
    return nullptr;
}

} // namespace ss
