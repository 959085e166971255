// SPDX-License-Identifier: MIT
// The profiling procedure of both programs, the GUI's metrics sampler and `stencilscope-cli profile`, one
// code path in this order:
//  1. profile_targets: the run's GPUs (device_shares), each with its copy roofline (measure_copy_roofline:
//     the same measurement in both programs, taken before a collector attaches) and its L2;
//  2. attach_collectors: one collector per GPU, created on the calling thread, kept between launches;
//  3. profile_one_launch: the warm-up steps, unprofiled, then one launch (the variant's fused steps)
//     profiled on every GPU at once (profile_devices);
//  4. profiled_figures: a launch's figures and verdict against the roofline, cells and L2 of its GPU(s).
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/device.h"
#include "gpu/profiler/collector.h"
#include "gpu/profiler/launch_figures.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ss {

// One GPU of the profiled run and what its figures are judged against.
struct ProfileTarget {
    DeviceShare share;
    std::string device_name;
    double peak_bytes_per_s = 0.0; // its copy roofline; 0: not measured
    std::string roofline_note; // CopyRoofline::note: why it is smaller or missing; empty when full
    double l2_bytes = 0.0; // its L2 cache; 0: unknown
};

// Step 1. Measures each GPU's roofline on the first call for it (then cached for the process).
std::vector<ProfileTarget> profile_targets(const StencilConfig&, const DeviceCatalogue&);

// Collectors by device, kept by the caller between launches (collector.h: one per device at a time).
using CollectorsByDevice = std::map<int, std::unique_ptr<MetricsCollector>>;

// Step 2. Fills `in_order` with one collector per target, in the targets' order, creating the missing ones
// in `collectors`. False with `why` (prefixed "GPU n: " on a run of several GPUs) when one cannot be made.
bool attach_collectors(const std::vector<ProfileTarget>&, CollectorsByDevice& collectors,
    std::vector<MetricsCollector*>* in_order, std::string* why);

struct ProfiledStep {
    std::vector<ProfiledLaunch> per_gpu; // in the targets' order
    long long iteration = 0; // the simulation's iteration the profiled launch started from, plus 1
    std::chrono::steady_clock::duration cost {}; // host time of the profiled launch with its replays
};

// Steps 2 and 3: `warmup_steps` unprofiled steps, then one profiled launch of `sim` on every target GPU.
// False with `why` when a collector cannot be made or the profile fails.
bool profile_one_launch(Simulation& sim, const std::vector<ProfileTarget>&, CollectorsByDevice& collectors,
    int warmup_steps, ProfiledStep* out, std::string* why);

// What one GPU's figures and verdict are judged against: its roofline, its cells' ideal bytes (each read
// and written once, also its working set) and its L2.
VerdictInputs target_verdict_inputs(const StencilConfig&, const ProfileTarget&);

// Step 4. The figures of one launch that updated `cells` cells of `c` per step (a fused launch advances
// fused_steps), against `in`'s roofline, working set and L2.
LaunchFigures profiled_figures(const StencilConfig&, std::int64_t cells, const KernelMetrics&, const VerdictInputs&);

} // namespace ss
