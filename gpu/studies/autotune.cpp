// SPDX-License-Identifier: MIT
#include "gpu/studies/autotune.h"

#include "gpu/backends/create_simulation.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"

#include <algorithm>

namespace ss {

std::vector<BlockDims> autotune_space(const StencilConfig& config, const DeviceInfo* device) {
    StencilConfig c = config;
    if (c.policy.variant == Variant::Temporal) c.policy.depth = 1;
    std::vector<BlockDims> out;
    const bool three = c.problem.dims == 3 && c.problem.stencil == StencilKind::Star;
    for (int bx = 1; bx <= 1024; bx *= 2)
        for (int by = 1; by <= bx; by *= 2)
            for (int bz = 1; bz <= (three ? by : 1); bz *= 2) {
                const BlockDims b { bx, by, bz };
                if (b.threads() < 32 || b.threads() > 1024) continue;
                if (check_block(c, b, device)) out.push_back(b);
            }
    return out;
}

std::vector<AutotuneCandidate> autotune_candidates(const StencilConfig& config, const DeviceInfo* device) {
    const bool temporal = config.policy.variant == Variant::Temporal;
    const std::vector<int> depths = temporal ? temporal_depths(config) : std::vector<int> { config.policy.depth };
    std::vector<AutotuneCandidate> out;
    for (const BlockDims& b : autotune_space(config, device))
        for (int depth : depths) {
            StencilConfig c = config;
            c.policy.depth = depth;
            if (!temporal || check_block(c, b, device)) out.push_back({ b, depth });
        }
    return out;
}

std::string describe_candidate(const StencilConfig& c, const AutotuneResult& r) {
    return format_block(r.block) + (c.policy.variant == Variant::Temporal ? " depth " + std::to_string(r.depth) : "");
}

int whole_launch_steps(const StencilConfig& c, int steps) {
    const int fused = fused_steps(c.policy);
    return (std::max(steps, 1) + fused - 1) / fused * fused;
}

double median_ms_per_step(Simulation& sim, int steps, int repeats) {
    steps = std::max(steps, 1);
    sim.step(steps); // warm-up: compilation, caches, clocks
    std::vector<double> ms;
    for (int i = 0; i < std::max(repeats, 1); ++i) ms.push_back(sim.step(steps).milliseconds / steps);
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

double gcells_per_s(const StencilConfig& c, double ms_per_step) {
    return gcells_per_second(double(updated_cells(c)), 1, ms_per_step);
}

std::vector<AutotuneResult> autotune(const StencilConfig& config, const DeviceCatalogue& catalogue,
    const std::vector<double>& field, int steps, int repeats,
    const std::function<bool(int, int, const AutotuneResult&)>& progress) {
    const DeviceInfo* device
        = config.placement.backend == Backend::Cuda ? catalogue.find(config.placement.device) : nullptr;
    const std::vector<AutotuneCandidate> space = autotune_candidates(config, device);
    std::vector<AutotuneResult> results;
    for (const AutotuneCandidate& candidate : space) {
        StencilConfig c = config;
        c.policy.heuristic_block = false;
        c.policy.block = candidate.block;
        c.policy.depth = candidate.depth;
        AutotuneResult r;
        r.block = candidate.block;
        r.depth = candidate.depth;
        std::string why;
        if (auto sim = create_simulation(c, catalogue, &why)) {
            try {
                sim->upload(field);
                r.ms_per_step = median_ms_per_step(*sim, whole_launch_steps(c, steps), repeats);
                r.gcells_per_s = gcells_per_s(c, r.ms_per_step);
            } catch (const std::exception& e) {
                r.error = e.what();
            }
        } else {
            r.error = why;
        }
        results.push_back(r);
        if (progress && !progress(int(results.size()), int(space.size()), r)) break;
    }
    return results;
}

} // namespace ss
