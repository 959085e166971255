// SPDX-License-Identifier: MIT
// Hardware counters for one sampled launch, through CUPTI's Range Profiler (kernel replay). The GUI's
// engine thread and `stencilscope-cli profile` both use it; neither ever profiles the display kernel:
// only the work passed to profile() is inside the profiled window.
#pragma once

#include "gpu/profiler/metrics.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ss {

// The metrics of one profiled piece of work (usually one simulation step = one kernel launch).
struct ProfiledLaunch {
    KernelMetrics metrics; // by Nsight Compute metric name (kernel_metrics() and stall_metric_name())
    int kernels = 0; // kernel launches the work made (ranges); .sum metrics add up over them
    int passes = 0; // replay passes CUPTI needed for the metric set
    double wall_ms = 0.0; // host time of the whole profile() call: the work with its replays, decoding
};

// Every metric name the collector asks for, in one configuration (one ConfigAddMetrics call).
std::vector<std::string> profiled_metric_names();

// Replay passes the profiled metric set needs on `chip` (CUPTI's chip name, e.g. "GH100"), from CUPTI's
// host API alone: no GPU needed. -1 with `why` when the host API cannot tell (unknown chip, no libnvperf).
int profiled_metric_passes(const std::string& chip, std::string* why);

class MetricsCollector {
public:
    virtual ~MetricsCollector() = default;
    // Runs `work` (which must launch kernels on `device` and may synchronise) inside a profiled window
    // with kernel replay: each kernel runs `passes` times with its memory restored, so the work's effect
    // on the field is the same as unprofiled. Returns false with `why` in plain words on failure.
    virtual bool profile(const std::function<void()>& work, ProfiledLaunch* out, std::string* why) = 0;
    virtual int device() const = 0;
    // The metrics each profile() reports (profiled_metric_names() less those the chip does not support),
    // the ones dropped, and the replay passes the configuration needs. Defaults suit a fake collector.
    virtual std::vector<std::string> collected_metrics() const { return profiled_metric_names(); }
    virtual std::vector<std::string> dropped_metrics() const { return {}; }
    virtual int passes() const { return 0; }
};

// nullptr with `why` (plain words, what to do: see counters_unavailable_reason) when counters cannot be
// read: no CUDA device, no CUPTI, insufficient privileges, another profiler attached.
// Creates or uses the device's primary context; call from the thread that will call profile(). From the
// first collector on, CUPTI's range profiler stays enabled on that context for the rest of the process
// (enabling costs ~0.25 s once; unprofiled launches ran 1 % slower at most on the H100), shared by later
// collectors: keep one collector per device at a time. Creation took 0.94 s on the H100.
std::unique_ptr<MetricsCollector> create_metrics_collector(int device, std::string* why);

// Disables `device`'s range profiler, which otherwise stays enabled for the process: CUPTI's PM sampling
// (pm_sampler.h) cannot start on a device while it is (CUPTI_ERROR_HARDWARE_BUSY, seen on the H100). Drop
// that device's collectors first; a later collector enables it again (~0.25 s).
void release_range_profiler(int device);

// Runs `work` once, profiled on several devices: collectors[0]'s window encloses collectors[1]'s, and so
// on, one collector per distinct device. CUPTI's range profiler works per context and kernel replay runs
// inside each launch, so every kernel the work launches on device d — from any thread, such as the strip
// workers of a split run — lands in device d's ranges. Fills (*per_device)[i] from collectors[i]. On
// failure `why` says which device failed (the innermost failure: the cause) and `per_device` is unusable.
bool profile_devices(const std::vector<MetricsCollector*>& collectors, const std::function<void()>& work,
    std::vector<ProfiledLaunch>* per_device, std::string* why);

// The whole run of devices that stepped concurrently: ".sum" metrics add up, except the duration, which
// is the longest device's (the step ends with the slowest GPU); ".per_second" rates are that total over
// that duration; the rest (ratios, percentages) is averaged weighted by each device's duration. Kernels
// add up; passes and wall_ms are the largest. One device's launch is returned unchanged.
ProfiledLaunch combine_devices(const std::vector<ProfiledLaunch>& per_device);

} // namespace ss
