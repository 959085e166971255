// SPDX-License-Identifier: MIT
// Hardware counters of a split run: nested profile() windows, one per device, and the whole run from
// the per-device launches; and the metric list the collectors ask for. No CUPTI here (the collectors hide
// it), so fake collectors can test it, and a CPU-only build has it.
#include "gpu/profiler/collector.h"

#include <algorithm>

namespace ss {

std::vector<std::string> profiled_metric_names() {
    std::vector<std::string> names;
    for (const auto& m : kernel_metrics()) names.emplace_back(m.name);
    for (const auto& r : stall_reasons()) names.push_back(stall_metric_name(r.reason));
    for (const auto& m : supporting_metrics()) names.emplace_back(m.name);
    return names;
}

namespace {

constexpr std::string_view kDuration = "gpu__time_duration.sum", kPerSecond = ".per_second", kSum = ".sum";

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

double duration_of(const ProfiledLaunch& p) {
    const auto it = p.metrics.find(kDuration);
    return it == p.metrics.end() ? 0.0 : it->second;
}

// Profiles collectors[index..] around `work`; false with the cause in `why`.
bool profile_from(std::size_t index, const std::vector<MetricsCollector*>& collectors,
    const std::function<void()>& work, std::vector<ProfiledLaunch>& per_device, std::string* why) {
    if (index == collectors.size()) {
        work(); // an exception reaches the innermost collector, which reports it
        return true;
    }
    bool inner_ok = true;
    std::string inner_why, own_why;
    const bool ok = collectors[index]->profile(
        [&] { inner_ok = profile_from(index + 1, collectors, work, per_device, &inner_why); }, &per_device[index],
        &own_why);
    if (!inner_ok) { // the outer windows only saw the inner failure's consequences
        if (why) *why = inner_why;
        return false;
    }
    if (ok) return true;
    if (why)
        *why = collectors.size() > 1 ? "GPU " + std::to_string(collectors[index]->device()) + ": " + own_why : own_why;
    return false;
}

} // namespace

bool profile_devices(const std::vector<MetricsCollector*>& collectors, const std::function<void()>& work,
    std::vector<ProfiledLaunch>* per_device, std::string* why) {
    per_device->assign(collectors.size(), ProfiledLaunch {});
    if (collectors.empty() || std::find(collectors.begin(), collectors.end(), nullptr) != collectors.end()) {
        if (why) *why = "GPU counters could not be read: no collector for a GPU of this run";
        return false;
    }
    return profile_from(0, collectors, work, *per_device, why);
}

ProfiledLaunch combine_devices(const std::vector<ProfiledLaunch>& per_device) {
    if (per_device.size() == 1) return per_device.front();
    ProfiledLaunch out;
    std::vector<KernelMetrics> metrics;
    double longest_ns = 0.0;
    for (const ProfiledLaunch& p : per_device) {
        metrics.push_back(p.metrics);
        out.kernels += p.kernels;
        out.passes = std::max(out.passes, p.passes);
        out.wall_ms = std::max(out.wall_ms, p.wall_ms);
        longest_ns = std::max(longest_ns, duration_of(p));
    }
    // as if the devices were one kernel's ranges: sums add, the rest is weighted by duration
    out.metrics = aggregate_ranges(metrics);
    if (longest_ns <= 0.0) return out;
    out.metrics[std::string(kDuration)] = longest_ns;
    for (auto& [name, value] : out.metrics) {
        if (!ends_with(name, kPerSecond)) continue;
        const std::string_view amount = std::string_view(name).substr(0, name.size() - kPerSecond.size());
        const auto total = out.metrics.find(amount);
        if (ends_with(amount, kSum) && total != out.metrics.end()) value = total->second / (longest_ns * 1e-9);
    }
    return out;
}

} // namespace ss
