// SPDX-License-Identifier: MIT
// --variant auto (issue 35): the fastest kernel for a configuration, from a model and a measurement. A short
// ranked list of concrete candidates (auto_candidates: the single-step kernels that can run the stencil, and the
// temporal variant at the depths around EBISU's best, gpu/studies/ebisu_model.h), each timed for a few whole
// launches on the device (choose_auto, with a timing callback so that the logic is host-testable), the fastest
// kept. The result is cached like the block search (gpu/studies/autotune_cache.h), so a second run does not tune
// again. The CLI's run and bench resolve auto this way before they plan the concrete configuration.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <functional>
#include <string>
#include <vector>

namespace ss {

class AutotuneCache;

struct AutoCandidate {
    StencilConfig config; // concrete: variant, CF, depth; the heuristic block
    BlockDims block; // the block the plan gives it on the device (the CUDA backend may refine it)
    std::string label; // "temporal depth 6, 256x1x1, CF 1": what it is, with the block the plan gives it
    std::string why; // one line: why it is on the list ("model 1040 GCells/s (PP, global memory)")
    // The model's rate: EBISU's PP for temporal, DRAM's bound (a ceiling, not a prediction) for single-step
    // kernels; 0 where the device's figures are unknown.
    double model_gcells_per_s = 0.0;
    bool model_is_bound = false;
};

// The candidates for `config` (its variant, CF, depth and block are ignored), at most kMaxAutoCandidates, each
// accepted by can_implement on `catalogue`: for the star, stream at CF 1, 2 and 4, smem, then temporal at the
// model's best depth and its neighbours (2D at CF 1, 3D at CF 4 and the best depth at CF 1), base last as the
// fallback; point stencils the same without CF; diffusion4 its ladder. Empty on the CPU backend (nothing to time)
// and where nothing can run. Pure host code.
inline constexpr int kMaxAutoCandidates = 10;
std::vector<AutoCandidate> auto_candidates(const StencilConfig& config, const DeviceCatalogue& catalogue);

// The depth at which EBISU's model (PP over temporal_depths, at the heuristic tile) predicts the temporal variant
// fastest for `config` at CF `cf`, with its rate; {default_temporal_depth, 0} where the device's figures are unknown.
struct ModelDepth {
    int depth = 1;
    double gcells_per_s = 0.0;
};
ModelDepth auto_model_depth(const StencilConfig& config, int cf, const DeviceInfo& device);

// Milliseconds per step of one candidate; throws (std::exception) when it cannot run.
using AutoTimeFn = std::function<double(const StencilConfig&)>;
// Called before each candidate is timed: (index, total, candidate). Returning false cancels the tune.
using AutoProgressFn = std::function<bool(int, int, const AutoCandidate&)>;

struct AutoMeasurement {
    AutoCandidate candidate;
    double ms_per_step = 0.0;
    double gcells_per_s = 0.0;
    std::string error; // non-empty: the candidate could not run (skipped, never fatal)
};

struct AutoChoice {
    StencilConfig config; // the chosen concrete configuration (the request's, still auto, when none ran)
    Status verdict; // failure: no candidate ran, or the tune was cancelled (the reason says why)
    std::string reason; // "auto: temporal depth 6, 256x1x1, CF 1 — 1005 GCells/s measured, fastest of 7 ..."
    bool from_cache = false;
    Status saved; // why a fresh tune could not be written to the cache (it is still chosen)
    std::vector<AutoMeasurement> measurements; // in candidate order; empty on the CPU backend
};

inline constexpr int kAutoSteps = 24, kAutoRepeats = 3, kAutoMaxExactSteps = 96;
// The steps auto times each candidate over: `count` rounded up to whole launches (the steady state: the window,
// which runs on), or exactly `count`, as a run of that many takes them (a temporal depth that leaves single steps
// over pays for them). Part of the cache key.
struct AutoSteps {
    int count = kAutoSteps;
    bool exact = false;
};
// A CLI run of `run_steps` steps: exactly those, up to kAutoMaxExactSteps (past them a remainder of single steps
// weighs little, and the tune stays short).
AutoSteps auto_steps_for_run(int run_steps);

// Resolves a request for auto. The CPU backend resolves to base without timing (one loop for every variant).
// Otherwise each candidate is timed with `time_fn` (a throwing one is skipped with its error) and the fastest is
// chosen; through `cache` (may be null) a second call with the same device, problem and candidates answers
// without timing ("(cached)" in the reason), unless `reuse` is false. A configuration that is not auto is
// returned as is.
// `steps` is what `time_fn` times (it goes into the cache key and, when exact, the reason).
AutoChoice choose_auto(const StencilConfig& config, const DeviceCatalogue& catalogue, const AutoTimeFn& time_fn,
    AutotuneCache* cache = nullptr, bool reuse = true, const AutoProgressFn& progress = {}, AutoSteps steps = {});

// The production timer: create_simulation from `field`, then median_ms_per_step over `repeats` runs of `steps`
// (autotune's way of timing). It keeps references to both arguments.
AutoTimeFn simulation_timer(const DeviceCatalogue& catalogue, const std::vector<double>& field, AutoSteps steps = {},
    int repeats = kAutoRepeats);

// A rate in whole GCells/s for auto's reasons: "1005".
std::string auto_rate_text(double gcells_per_s);

// The cache key: "auto;" + the device model and problem (autotune_cache_key at the timed steps, ";exact" when
// exactly those) + the candidates' labels.
std::string auto_cache_key(const StencilConfig& config, const std::vector<AutoCandidate>& candidates,
    const DeviceCatalogue& catalogue, AutoSteps steps = {});

} // namespace ss
