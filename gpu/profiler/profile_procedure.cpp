// SPDX-License-Identifier: MIT
#include "gpu/profiler/profile_procedure.h"

#include "gpu/backends/bandwidth.h"
#include "gpu/problem/physics.h"

namespace ss {

std::vector<ProfileTarget> profile_targets(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    std::vector<ProfileTarget> targets;
    for (const DeviceShare& share : device_shares(c)) {
        ProfileTarget& t = targets.emplace_back();
        t.share = share;
        t.device_name = catalogue.name_of(share.device);
        const CopyRoofline& roofline = measure_copy_roofline(share.device);
        t.peak_bytes_per_s = roofline.bytes_per_s();
        t.roofline_note = roofline.note;
        if (const DeviceInfo* d = catalogue.find(share.device)) t.l2_bytes = double(d->l2_bytes);
    }
    return targets;
}

bool attach_collectors(const std::vector<ProfileTarget>& targets, CollectorsByDevice& collectors,
    std::vector<MetricsCollector*>* in_order, std::string* why) {
    in_order->clear();
    for (const ProfileTarget& t : targets) {
        std::unique_ptr<MetricsCollector>& collector = collectors[t.share.device];
        if (!collector) collector = create_metrics_collector(t.share.device, why);
        if (!collector) {
            collectors.erase(t.share.device);
            if (targets.size() > 1) *why = "GPU " + std::to_string(t.share.device) + ": " + *why;
            return false;
        }
        in_order->push_back(collector.get());
    }
    return true;
}

bool profile_one_launch(Simulation& sim, const std::vector<ProfileTarget>& targets, CollectorsByDevice& collectors,
    int warmup_steps, ProfiledStep* out, std::string* why) {
    std::vector<MetricsCollector*> in_order;
    if (!attach_collectors(targets, collectors, &in_order, why)) return false;
    if (warmup_steps > 0) sim.step(warmup_steps);
    out->iteration = sim.iteration() + 1;
    // One launch: a temporal kernel's fused steps (sim.step(1) would run its one-step kernel instead).
    const int steps = fused_steps(sim.config().policy);
    const auto start = std::chrono::steady_clock::now();
    const bool profiled = profile_devices(
        in_order, [&sim, steps] { sim.step_for_profiling(steps); }, &out->per_gpu, why);
    out->cost = std::chrono::steady_clock::now() - start;
    return profiled;
}

VerdictInputs target_verdict_inputs(const StencilConfig& c, const ProfileTarget& t) {
    const double cell_bytes = double(t.share.updated_cells) * ideal_bytes_per_cell(c);
    return { t.peak_bytes_per_s, cell_bytes, cell_bytes, t.l2_bytes };
}

LaunchFigures profiled_figures(
    const StencilConfig& c, std::int64_t cells, const KernelMetrics& m, const VerdictInputs& in) {
    return derive_launch_figures(m, { cells, fused_steps(c.policy), double(ideal_bytes_per_cell(c)) },
        in.dram_peak_bytes_per_s, { in.working_set_bytes, in.l2_bytes });
}

} // namespace ss
