// SPDX-License-Identifier: MIT
// The thesis' studies (ch. 4.3.2, 5.1) as sweeps that the CLI (`stencilscope-cli sweep`) and the GUI's
// Experiments window both run: performance vs radius per variant (fig. 5.1), the coarsening-factor
// sweep (figs. 5.4/5.5) and heuristic vs autotuned blocks (fig. 5.6); and EBISU's temporal blocking
// (seed 002) as a sweep over the depth t (GCells/s and DRAM bytes per cell and step). Every point's improvement is
// "relative to the given dimension's baseline kernel, normalized by the stencil radius": divided by
// base (CF 1, heuristic block) at the same radius. Qt-free.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/studies/autotune.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

enum class ExperimentKind {
    Radius, // fig. 5.1: every variant x radius, CF 1, heuristic blocks
    Coarsening, // figs. 5.4/5.5: every variant x radius x CF, heuristic blocks
    Autotuned, // fig. 5.6: uncoarsened heuristic vs the best CF with autotuned blocks, per variant x radius
    Depth, // temporal blocking: the temporal variant per radius x CF x depth, heuristic blocks
};
std::string_view to_string(ExperimentKind);
std::optional<ExperimentKind> parse_experiment(std::string_view); // "radius", "cf", "autotuned", "depth"

struct ExperimentSpec {
    ExperimentKind kind = ExperimentKind::Radius;
    // Stencil, rule, dims, size, precision, backend and device come from here; radius, variant, cf and
    // block are what the sweep varies.
    StencilConfig base;
    std::vector<int> radii { 1, 2, 4, 8, 16 };
    std::vector<Variant> variants { Variant::Base, Variant::Smem, Variant::SmemPadded };
    std::vector<int> cfs { 1, 2, 4, 8 }; // Coarsening, Autotuned and Depth only
    // Depth only: the depths t to run; empty: temporal_depths (1..12 in 2D, 1..6 in 3D, those valid for the
    // radius and CF). Variants are not used: the sweep runs temporal (and base, the reference).
    std::vector<int> depths;
    int steps = 8; // per timed run (the thesis' eight iterations)
    int repeats = 5; // timed runs per point after one warm-up; the median counts
    // Also read the bottleneck metric (CUPTI) for each point; points get NaN when counters are unavailable.
    bool counters = false;
};

// Refuses an empty or impossible spec with the first problem in plain words (no radius, CF < 1, ...).
Status check_experiment(const ExperimentSpec&);

// One measured configuration.
struct ExperimentPoint {
    StencilConfig config; // as run: its block is the one used (heuristic or autotuned)
    std::string series; // the legend entry: "smem", "smem CF4", "smem (autotuned)"
    bool autotuned = false;
    double ms_per_step = 0.0;
    double gcells_per_s = 0.0;
    // Over base (CF 1, heuristic) at the same radius; NaN when that base point is missing or failed.
    double improvement = std::numeric_limits<double>::quiet_NaN();
    // The thesis' bottleneck: DRAM write throughput in 2D, local-memory throughput in 3D (GB/s), and its
    // improvement over the base point's; NaN without counters.
    std::string bottleneck_metric; // "dram_write_gbs" or "local_gbs"
    double bottleneck_gbs = std::numeric_limits<double>::quiet_NaN();
    double bottleneck_improvement = std::numeric_limits<double>::quiet_NaN();
    // DRAM bytes read + written per updated cell and step of one profiled launch (a temporal launch's bytes over
    // its depth); NaN without counters.
    double dram_bytes_per_cell = std::numeric_limits<double>::quiet_NaN();
    // A depth sweep on CUDA: the device's copy roofline, measured once in the same process before the points
    // (EBISU's B_gm for the model chart); NaN otherwise (and in a CSV, which does not keep it).
    double copy_bytes_per_s = std::numeric_limits<double>::quiet_NaN();
    std::string error; // non-empty: refused or failed (kept, so a table shows why a bar is missing)
};

// The configurations a spec sweeps, in run order. Every radius starts with base (CF 1, heuristic),
// added when the variants or CFs leave it out: every improvement is relative to it. Radius: one per
// variant; Coarsening: one per variant x CF; Autotuned: per variant the CF 1 heuristic configuration,
// then one block search per CF (heuristic_block false; the best of them becomes "<variant> (autotuned)");
// Depth: per CF one temporal point per depth ("temporal", "temporal CF2").
// Configurations that can_implement refuses are planned too: their points carry the reason.
std::vector<StencilConfig> experiment_plan(const ExperimentSpec&);

// Runs the plan; an invalid spec (check_experiment) gives no points. Each point is timed like autotune():
// one warm-up run, then `repeats` runs of `steps` steps, the median counts. progress(done, total, what)
// after each unit of work (a point, or one candidate block of a search, so that a bar moves during
// autotuning); returning false cancels (the points so far come back). `cache` (may be null) serves and
// stores the Autotuned kind's block searches. `warnings` (may be null) receives what the user should
// know that is not a point's error: counters unavailable, the cache not writable. `point` (may be empty)
// receives each point as it is measured, before the progress report that follows it (improvements not
// yet filled: normalise_to_base over the points so far does that), so a window can chart it at once.
class AutotuneCache;
std::vector<ExperimentPoint> run_experiment(const ExperimentSpec&, const DeviceCatalogue&,
    const std::function<bool(int done, int total, const std::string& what)>& progress = {},
    AutotuneCache* cache = nullptr, std::vector<std::string>* warnings = nullptr,
    const std::function<void(const ExperimentPoint&)>& point = {});

// Fills improvement and bottleneck_improvement from the base points (run_experiment calls it).
void normalise_to_base(std::vector<ExperimentPoint>&);

} // namespace ss
