// SPDX-License-Identifier: MIT
#include "gpu/studies/experiments.h"

#include "gpu/backends/bandwidth.h"
#include "gpu/backends/create_simulation.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/profiler/collector.h"
#include "gpu/profiler/launch_figures.h"
#include "gpu/studies/autotune_cache.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

namespace ss {
namespace {

// One entry of the plan: a configuration timed as it is, or a block search (one CF of an Autotuned
// variant); the variant's last search turns the best block found into the "(autotuned)" point.
struct PlanItem {
    StencilConfig config;
    std::string series;
    bool search = false;
    bool last_search = false;
};

std::string series_name(Variant v, int cf) {
    return std::string(to_string(v)) + (cf == 1 ? "" : " CF" + std::to_string(cf));
}

// A box follows the radius (all (2R+1)^dims points), so a sweep over R is a sweep over boxes.
bool sweeps_boxes(const ExperimentSpec& spec) {
    return spec.base.problem.stencil == StencilKind::Points && stencil_name(spec.base.problem) == "box";
}

std::vector<PlanItem> plan_items(const ExperimentSpec& spec) {
    std::vector<Variant> variants = spec.variants;
    std::stable_partition(variants.begin(), variants.end(), [](Variant v) { return v == Variant::Base; });
    std::vector<PlanItem> items;
    for (int radius : spec.radii) {
        auto at = [&](Variant v, int cf) {
            StencilConfig c = spec.base;
            c.problem.radius = radius, c.policy.variant = v, c.policy.cf = cf, c.policy.heuristic_block = true;
            if (sweeps_boxes(spec)) use_shape(c.problem, box_shape(c.problem.dims, radius)); // the box of this R
            return c;
        };
        items.push_back({ at(Variant::Base, 1), "base" });
        if (spec.kind == ExperimentKind::Depth) {
            for (int cf : spec.cfs) {
                StencilConfig c = at(Variant::Temporal, cf);
                for (int depth : spec.depths.empty() ? temporal_depths(c) : spec.depths) {
                    c.policy.depth = depth;
                    items.push_back({ c, series_name(Variant::Temporal, cf) });
                }
            }
            continue;
        }
        for (Variant v : variants) {
            if (spec.kind == ExperimentKind::Coarsening) {
                for (int cf : spec.cfs)
                    if (v != Variant::Base || cf != 1) items.push_back({ at(v, cf), series_name(v, cf) });
                continue;
            }
            if (v != Variant::Base) items.push_back({ at(v, 1), series_name(v, 1) });
            if (spec.kind != ExperimentKind::Autotuned) continue;
            for (int cf : spec.cfs) {
                StencilConfig c = at(v, cf);
                c.policy.heuristic_block = false;
                items.push_back({ c, std::string(to_string(v)) + " (autotuned)", true, cf == spec.cfs.back() });
            }
        }
    }
    return items;
}

template <typename T> bool has_duplicates(const std::vector<T>& values) {
    return std::set<T>(values.begin(), values.end()).size() != values.size();
}

// What every measurement of one run_experiment shares.
struct Bench {
    const ExperimentSpec& spec;
    const DeviceCatalogue& catalogue;
    const std::vector<double>& field;
    MetricsCollector* collector = nullptr; // null: no counters
    std::vector<std::string>* warnings = nullptr;
    bool profile_failure_reported = false;
};

ExperimentPoint measure(Bench& bench, const StencilConfig& config, const std::string& series, bool autotuned) {
    const ExperimentSpec& spec = bench.spec;
    ExperimentPoint p;
    p.config = config;
    p.series = series;
    p.autotuned = autotuned;
    if (spec.counters) p.bottleneck_metric = config.problem.dims == 3 ? "local_gbs" : "dram_write_gbs";
    std::string why;
    auto sim = create_simulation(config, bench.catalogue, &why);
    if (!sim) {
        p.error = why;
        return p;
    }
    if (config.placement.backend == Backend::Cuda)
        p.config.policy.block = sim->resources().block; // the heuristic's choice
    try {
        sim->upload(bench.field);
        p.ms_per_step = median_ms_per_step(*sim, whole_launch_steps(config, spec.steps), spec.repeats);
        p.gcells_per_s = gcells_per_s(config, p.ms_per_step);
        ProfiledLaunch launch;
        // Profiled after the timed runs: the replays must not count in the time.
        // One launch: the temporal variant's fused steps.
        const int fused = fused_steps(config.policy);
        if (bench.collector && bench.collector->profile([&sim, fused] { sim->step(fused); }, &launch, &why)) {
            p.bottleneck_gbs
                = config.problem.dims == 3 ? local_memory_gbs(launch.metrics) : dram_write_gbs(launch.metrics);
            p.dram_bytes_per_cell = derive_launch_figures(
                launch.metrics, { updated_cells(config), fused, double(ideal_bytes_per_cell(config)) }, 0.0)
                                        .dram_bytes_per_cell;
        } else if (bench.collector && bench.warnings && !bench.profile_failure_reported) {
            bench.warnings->push_back("counters of " + describe(config) + " could not be read: " + why);
            bench.profile_failure_reported = true;
        }
    } catch (const std::exception& e) {
        p.error = e.what();
    }
    return p;
}

std::unique_ptr<MetricsCollector> counters_for(const ExperimentSpec& spec, std::vector<std::string>* warnings) {
    if (!spec.counters) return nullptr;
    std::string why;
    std::unique_ptr<MetricsCollector> collector;
    if (spec.base.placement.backend == Backend::Cpu)
        why = "hardware counters need the CUDA backend";
    else if (spec.base.placement.gpus > 1)
        why = "hardware counters are read on one GPU: use one GPU for the bottleneck metric";
    else
        collector = create_metrics_collector(spec.base.placement.device, &why);
    if (!collector && warnings) warnings->push_back("no bottleneck metric: " + why);
    return collector;
}

// The depth sweep's own rules: depths 1..32 once each, the temporal variant's rule and one GPU, and at least
// one depth the radius allows when the defaults are used.
Status check_depths(const ExperimentSpec& spec) {
    for (int d : spec.depths)
        if (d < 1 || d > kMaxTemporalDepth)
            return Status::failure(
                "depth must be 1.." + std::to_string(kMaxTemporalDepth) + ", got " + std::to_string(d));
    if (has_duplicates(spec.depths)) return Status::failure("a depth is listed twice");
    if (spec.base.problem.rule == UpdateRule::Wave)
        return Status::failure("the depth sweep runs the temporal variant, which does not run the wave rule: use the "
                               "thesis or jacobi rule");
    if (strip_count(spec.base.placement) > 1) return Status::failure("the depth sweep runs on one GPU: use --gpus 1");
    if (!spec.depths.empty()) return Status::success(); // a depth the radius refuses: that point says why
    for (int r : spec.radii)
        for (int cf : spec.cfs) {
            StencilConfig c = spec.base;
            c.problem.radius = r, c.policy.cf = cf;
            if (temporal_depths(c).empty())
                return Status::failure("temporal runs no depth at R" + std::to_string(r) + " CF" + std::to_string(cf)
                    + " " + std::string(to_string(c.problem.precision))
                    + " (its halo or registers): leave that radius out");
        }
    return Status::success();
}

} // namespace

std::string_view to_string(ExperimentKind k) {
    switch (k) {
    case ExperimentKind::Radius:
        return "radius";
    case ExperimentKind::Coarsening:
        return "cf";
    case ExperimentKind::Autotuned:
        return "autotuned";
    case ExperimentKind::Depth:
        return "depth";
    }
    return "?";
}

std::optional<ExperimentKind> parse_experiment(std::string_view s) {
    for (ExperimentKind k :
        { ExperimentKind::Radius, ExperimentKind::Coarsening, ExperimentKind::Autotuned, ExperimentKind::Depth })
        if (to_string(k) == s) return k;
    return std::nullopt;
}

Status check_experiment(const ExperimentSpec& spec) {
    const bool boxes = sweeps_boxes(spec);
    if (spec.base.problem.stencil != StencilKind::Star && !boxes)
        return Status::failure("experiments sweep the radius, variants and CFs of the star stencil or a box: "
            + stencil_name(spec.base.problem) + " has one radius; use --stencil star or box");
    if (spec.radii.empty()) return Status::failure("the experiment has no radius to run");
    for (int r : spec.radii)
        if (!radius_in_range(r))
            return Status::failure("radius must be " + radius_range_text() + ", got " + std::to_string(r));
    if (has_duplicates(spec.radii)) return Status::failure("a radius is listed twice");
    for (int r : spec.radii) // a sweep's CSV is read back: every row must describe a stencil the reader accepts
        if (const Status s = check_shape(box_shape(spec.base.problem.dims, r)); boxes && !s)
            return Status::failure("the box of radius " + std::to_string(r) + ": " + s.reason + "; drop that radius");
    if (boxes && spec.base.problem.rule != UpdateRule::Jacobi)
        return Status::failure("a box computes out = sum of weight x neighbour: sweep it with the jacobi rule");
    if (spec.kind == ExperimentKind::Depth) {
        if (Status s = check_depths(spec); !s) return s;
    } else if (spec.variants.empty()) {
        return Status::failure("the experiment has no kernel variant to run");
    }
    for (Variant v : spec.variants) // a box's refused variants run as points that carry can_implement's reason
        if (!variant_applies(spec.base.problem.stencil, v))
            return Status::failure("variant " + std::string(to_string(v)) + " does not apply to the "
                + stencil_name(spec.base.problem) + " stencil");
    if (has_duplicates(spec.variants)) return Status::failure("a variant is listed twice");
    if (spec.kind != ExperimentKind::Radius) {
        if (spec.cfs.empty()) return Status::failure("the experiment has no coarsening factor to run");
        for (int cf : spec.cfs)
            if (std::find(std::begin(kCoarseningFactors), std::end(kCoarseningFactors), cf)
                == std::end(kCoarseningFactors))
                return Status::failure("coarsening factor must be 1, 2, 4 or 8, got " + std::to_string(cf));
        if (has_duplicates(spec.cfs)) return Status::failure("a coarsening factor is listed twice");
    }
    if (spec.steps < 1) return Status::failure("steps per timed run must be at least 1");
    if (spec.repeats < 1) return Status::failure("timed runs per point must be at least 1");
    if (spec.kind == ExperimentKind::Autotuned && spec.base.placement.backend == Backend::Cpu)
        return Status::failure("autotuning tunes CUDA block dims: use the CUDA backend");
    return Status::success();
}

std::vector<StencilConfig> experiment_plan(const ExperimentSpec& spec) {
    std::vector<StencilConfig> out;
    for (const PlanItem& item : plan_items(spec)) out.push_back(item.config);
    return out;
}

std::vector<ExperimentPoint> run_experiment(const ExperimentSpec& spec, const DeviceCatalogue& catalogue,
    const std::function<bool(int, int, const std::string&)>& progress, AutotuneCache* cache,
    std::vector<std::string>* warnings, const std::function<void(const ExperimentPoint&)>& point) {
    std::vector<ExperimentPoint> points;
    if (!check_experiment(spec)) return points;
    const std::vector<PlanItem> items = plan_items(spec);
    const DeviceInfo* device
        = spec.base.placement.backend == Backend::Cuda ? catalogue.find(spec.base.placement.device) : nullptr;
    // Units of work: a timed point, each candidate of a search, and re-timing each search's winner.
    std::vector<int> candidates(items.size(), 0);
    int total = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].search) candidates[i] = int(autotune_candidates(items[i].config, device).size());
        total += items[i].search ? candidates[i] + (items[i].last_search ? 1 : 0) : 1;
    }
    int done = 0;
    auto report = [&](const std::string& what) { return !progress || progress(done, total, what); };
    const std::vector<double> field = make_initial_field(spec.base, InitialCondition::Random, 1);
    const auto collector = counters_for(spec, warnings);
    Bench bench { spec, catalogue, field, collector.get(), warnings };
    double copy_bytes_per_s = std::numeric_limits<double>::quiet_NaN();
    if (spec.kind == ExperimentKind::Depth && device) {
        const CopyRoofline& roofline = measure_copy_roofline(device->index); // the roofline every program uses
        if (roofline.measured.error.empty()) copy_bytes_per_s = roofline.bytes_per_s();
    }
    auto measured = [&] {
        points.back().copy_bytes_per_s = copy_bytes_per_s;
        if (point) point(points.back());
    };
    // The best block over the CFs of the variant being tuned.
    std::optional<StencilConfig> best;
    double best_gcells = 0.0;
    std::string first_error;
    bool cache_failure_reported = false;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const PlanItem& item = items[i];
        if (!item.search) {
            points.push_back(measure(bench, item.config, item.series, false));
            measured();
            ++done;
            const int depth = fused_steps(item.config.policy);
            if (!report(item.series + " R" + std::to_string(item.config.problem.radius)
                    + (item.config.policy.variant == Variant::Temporal ? " depth " + std::to_string(depth) : "")))
                break;
            continue;
        }
        const int start = done;
        const CachedAutotune tuned = autotune_cached(
            item.config, catalogue, field, spec.steps, spec.repeats,
            [&](int, int, const AutotuneResult& r) {
                ++done;
                return report(describe(item.config) + ": block " + describe_candidate(item.config, r));
            },
            cache);
        if (tuned.cancelled) break;
        done = start + candidates[i]; // a cache hit skips the candidates
        if (!tuned.saved && warnings && !cache_failure_reported) {
            warnings->push_back(tuned.saved.reason);
            cache_failure_reported = true;
        }
        for (const AutotuneResult& r : tuned.results) {
            if (!r.error.empty() && first_error.empty()) first_error = r.error;
            if (r.error.empty() && r.gcells_per_s > best_gcells) {
                best = item.config;
                best->policy.block = r.block;
                best->policy.depth = r.depth;
                best_gcells = r.gcells_per_s;
            }
        }
        if (!item.last_search) continue;
        if (best) {
            points.push_back(measure(bench, *best, item.series, true)); // timed again, like the others
        } else {
            ExperimentPoint failed;
            failed.config = item.config;
            failed.series = item.series;
            failed.autotuned = true;
            failed.error = first_error.empty() ? "no block of the autotuning space meets the launch rules"
                                               : "no block of the autotuning space ran: " + first_error;
            points.push_back(failed);
        }
        measured();
        best.reset();
        best_gcells = 0.0;
        first_error.clear();
        ++done;
        if (!report(item.series + " R" + std::to_string(item.config.problem.radius))) break;
    }
    normalise_to_base(points);
    return points;
}

void normalise_to_base(std::vector<ExperimentPoint>& points) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto is_base = [](const ExperimentPoint& p) {
        return p.config.policy.variant == Variant::Base && p.config.policy.cf == 1 && p.config.policy.heuristic_block
            && !p.autotuned;
    };
    for (ExperimentPoint& p : points) {
        p.improvement = p.bottleneck_improvement = nan;
        const auto base = std::find_if(points.begin(), points.end(), [&](const ExperimentPoint& b) {
            return is_base(b) && same_field(b.config, p.config) && b.config.placement.gpus == p.config.placement.gpus;
        });
        if (base == points.end() || !base->error.empty() || !(base->gcells_per_s > 0) || !p.error.empty()) continue;
        p.improvement = p.gcells_per_s / base->gcells_per_s;
        if (base->bottleneck_gbs > 0 && std::isfinite(p.bottleneck_gbs))
            p.bottleneck_improvement = p.bottleneck_gbs / base->bottleneck_gbs;
    }
}

} // namespace ss
