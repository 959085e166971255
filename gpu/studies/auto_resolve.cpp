// SPDX-License-Identifier: MIT
// choose_auto: auto's short tune over its candidates (auto_choice.cpp), through the block search's cache file.
// A cached tune is one AutotuneResult per candidate, in candidate order: the candidate's planned block, its time and
// rate, its error, its depth; the key names the candidates, so the order is the key's.
#include "gpu/backends/create_simulation.h"
#include "gpu/plan/validation.h"
#include "gpu/studies/auto_choice.h"
#include "gpu/studies/autotune.h"
#include "gpu/studies/autotune_cache.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>

namespace ss {
namespace {

std::vector<AutoMeasurement> from_cache(const std::vector<AutoCandidate>& candidates, const AutotuneCache::Entry& e) {
    std::vector<AutoMeasurement> out;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        out.push_back({ candidates[i], e.results[i].ms_per_step, e.results[i].gcells_per_s, e.results[i].error });
    return out;
}

std::vector<AutotuneResult> to_cache(const std::vector<AutoMeasurement>& measured) {
    std::vector<AutotuneResult> out;
    for (const AutoMeasurement& m : measured)
        out.push_back({ m.candidate.block, m.ms_per_step, m.gcells_per_s, m.error, m.candidate.config.policy.depth });
    return out;
}

AutoMeasurement time_one(const AutoCandidate& candidate, const AutoTimeFn& time_fn) {
    AutoMeasurement m { candidate, 0.0, 0.0, {} };
    try {
        m.ms_per_step = time_fn(candidate.config);
        m.gcells_per_s = gcells_per_s(candidate.config, m.ms_per_step);
        if (!(m.gcells_per_s > 0) || !std::isfinite(m.gcells_per_s)) m.error = "no time was measured";
    } catch (const std::exception& e) {
        m.error = e.what();
    }
    if (m.error.empty()) return m;
    m.ms_per_step = m.gcells_per_s = 0.0;
    return m;
}

// "auto: temporal depth 6, 256x1x1, CF 1 at 1005 GCells/s measured, fastest of 7 (model 1040); stream, ... 812;
// ...": the winner, then the others by rate (four at most), and how many failed.
std::string reason_for(const AutoMeasurement& best, std::vector<AutoMeasurement> all, bool cached) {
    const auto ran = std::count_if(all.begin(), all.end(), [](auto& m) { return m.error.empty(); });
    std::string s = "auto: " + best.candidate.label + " at " + auto_rate_text(best.gcells_per_s)
        + " GCells/s measured, fastest of " + std::to_string(ran);
    if (best.candidate.model_gcells_per_s > 0)
        s += std::string(best.candidate.model_is_bound ? " (DRAM bound " : " (model ")
            + auto_rate_text(best.candidate.model_gcells_per_s) + ")";
    std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.gcells_per_s > b.gcells_per_s; });
    int listed = 0;
    for (const AutoMeasurement& m : all) {
        if (!m.error.empty() || m.candidate.config == best.candidate.config) continue;
        if (++listed > 4) break;
        s += "; " + m.candidate.label + " " + auto_rate_text(m.gcells_per_s);
    }
    if (listed > 4) s += "; ...";
    if (const auto failed = std::ptrdiff_t(all.size()) - ran; failed > 0)
        s += "; " + std::to_string(failed) + " could not run";
    return s + (cached ? " (cached)" : "");
}

} // namespace

AutoSteps auto_steps_for_run(int run_steps) {
    return { std::clamp(run_steps, 1, kAutoMaxExactSteps), true };
}

std::string auto_cache_key(const StencilConfig& config, const std::vector<AutoCandidate>& candidates,
    const DeviceCatalogue& catalogue, AutoSteps steps) {
    const DeviceInfo* device
        = config.placement.backend == Backend::Cuda ? catalogue.find(config.placement.device) : nullptr;
    StencilConfig keyed = config; // the policy is what is chosen: only the candidates name it
    keyed.policy = KernelPolicy {};
    keyed.policy.variant = Variant::Auto;
    std::string key
        = "auto;" + autotune_cache_key(keyed, steps.count, device) + (steps.exact ? ";exact" : "") + ";candidates=";
    for (std::size_t i = 0; i < candidates.size(); ++i) key += (i ? "|" : "") + candidates[i].label;
    return key;
}

AutoChoice choose_auto(const StencilConfig& config, const DeviceCatalogue& catalogue, const AutoTimeFn& time_fn,
    AutotuneCache* cache, bool reuse, const AutoProgressFn& progress, AutoSteps steps) {
    AutoChoice out;
    out.config = config;
    if (config.policy.variant != Variant::Auto) return out;
    if (config.placement.backend == Backend::Cpu) {
        out.config = auto_stand_in(config);
        out.reason = "auto: " + std::string(to_string(out.config.policy.variant))
            + ": the CPU backend runs one loop for every variant";
        return out;
    }
    const std::vector<AutoCandidate> candidates = auto_candidates(config, catalogue);
    if (candidates.empty()) {
        const Status why = can_implement(auto_stand_in(config), catalogue);
        out.verdict = Status::failure("auto has no kernel to choose from" + (why ? "" : ": " + why.reason));
        return out;
    }
    const std::string key = auto_cache_key(config, candidates, catalogue, steps);
    if (cache && reuse)
        if (auto hit = cache->lookup(key); hit && hit->results.size() == candidates.size()) {
            out.measurements = from_cache(candidates, *hit);
            out.from_cache = true;
        }
    if (!out.from_cache)
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (progress && !progress(int(i), int(candidates.size()), candidates[i])) {
                out.verdict = Status::failure("auto's tune was cancelled: nothing chosen");
                return out;
            }
            out.measurements.push_back(time_one(candidates[i], time_fn));
        }
    const AutoMeasurement* best = nullptr;
    for (const AutoMeasurement& m : out.measurements)
        if (m.error.empty() && (!best || m.gcells_per_s > best->gcells_per_s)) best = &m;
    if (!best) {
        const AutoMeasurement& first = out.measurements.front();
        out.verdict = Status::failure("no candidate of auto ran (" + std::to_string(out.measurements.size())
            + " tried); " + first.candidate.label + ": " + first.error);
        return out;
    }
    out.config = best->candidate.config;
    out.reason = reason_for(*best, out.measurements, out.from_cache);
    if (steps.exact) out.reason += " (timed over runs of " + std::to_string(steps.count) + " steps)";
    if (cache && !out.from_cache) out.saved = cache->store(key, to_cache(out.measurements));
    return out;
}

AutoTimeFn simulation_timer(
    const DeviceCatalogue& catalogue, const std::vector<double>& field, AutoSteps steps, int repeats) {
    return [&catalogue, &field, steps, repeats](const StencilConfig& c) {
        std::string why;
        auto sim = create_simulation(c, catalogue, &why);
        if (!sim) throw std::runtime_error(why);
        sim->upload(field);
        return median_ms_per_step(*sim, steps.exact ? steps.count : whole_launch_steps(c, steps.count), repeats);
    };
}

} // namespace ss
