// SPDX-License-Identifier: MIT
#include "app/cli/sweep_command.h"

#include "app/cli/autotune_command.h"
#include "app/cli/cli_common.h"
#include "gpu/autotune_cache.h"
#include "gpu/simulation.h"
#include "reports/experiment_report.h"
#include "reports/run_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

namespace ss {
namespace {

std::optional<int> parse_whole(const std::string& s) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// Parses every item of a comma list with `parse`; the reason names the list and what it expects.
template <typename T, typename Parse>
Status parse_list(
    const std::string& option, const std::string& list, const std::string& expected, Parse parse, std::vector<T>& out) {
    out.clear();
    for (const std::string& item : split_fields(list, ',')) {
        const std::optional<T> v = parse(item);
        if (!v)
            return Status::failure("invalid item '" + item + "' in " + option + " " + list + ": expected " + expected);
        out.push_back(*v);
    }
    return Status::success();
}

std::string ratio_text(double v) {
    if (!std::isfinite(v)) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", v);
    return buf;
}

} // namespace

Status parse_sweep_options(const std::vector<std::string>& args, SweepOptions& out, bool cuda_present) {
    out = {};
    ExperimentSpec& spec = out.spec;
    bool kind_given = false, repeats_given = false;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string key = args[i], value;
        const auto eq = key.find('=');
        if (eq != std::string::npos) value = key.substr(eq + 1), key = key.substr(0, eq);
        const bool ours = key == "--experiment" || key == "--radius" || key == "--variant" || key == "--cf"
            || key == "--counters" || key == "--block";
        repeats_given = repeats_given || key == "--repeats";
        if (!ours) {
            rest.push_back(args[i]);
            continue;
        }
        if (eq == std::string::npos) {
            if (i + 1 >= args.size()) return Status::failure("option " + key + " needs a value");
            value = args[++i];
        }
        if (key == "--experiment") {
            const auto k = parse_experiment(value);
            if (!k)
                return Status::failure(
                    "invalid value '" + value + "' for --experiment: expected radius, cf or autotuned");
            spec.kind = *k;
            kind_given = true;
        } else if (key == "--radius") {
            const auto radius = [](const std::string& s) {
                const auto v = parse_whole(s);
                return v && *v >= 1 && *v <= 16 ? v : std::nullopt;
            };
            if (Status s = parse_list(key, value, "integers 1..16", radius, spec.radii); !s) return s;
        } else if (key == "--variant") {
            const auto star_variant = [](const std::string& s) {
                const auto v = parse_variant(s);
                return v && variant_applies(StencilKind::Star, *v) ? v : std::nullopt;
            };
            if (Status s
                = parse_list(key, value, "base, smem, smem_padded, stream or uncoalesced", star_variant, spec.variants);
                !s)
                return s;
        } else if (key == "--cf") {
            const auto cf = [](const std::string& s) {
                const auto v = parse_whole(s);
                return v && (*v == 1 || *v == 2 || *v == 4 || *v == 8) ? v : std::nullopt;
            };
            if (Status s = parse_list(key, value, "1, 2, 4 or 8", cf, spec.cfs); !s) return s;
        } else if (key == "--counters") {
            if (value != "on" && value != "off")
                return Status::failure("invalid value '" + value + "' for --counters: expected on or off");
            spec.counters = value == "on";
        } else {
            return Status::failure("--block: a sweep chooses its blocks (the heuristic, or autotuned)");
        }
    }
    if (!kind_given) return Status::failure("sweep needs --experiment radius, cf or autotuned");
    if (Status s = parse_run_options(rest, out.run); !s) return s;
    // As run and bench: the CPU when no device is present, except for a search of CUDA blocks.
    if (!out.run.backend_given && spec.kind != ExperimentKind::Autotuned && !cuda_present)
        out.run.config.placement.backend = Backend::Cpu;
    spec.base = out.run.config;
    spec.steps = out.run.steps;
    if (repeats_given) spec.repeats = out.run.repeats;
    return check_experiment(spec);
}

std::string format_sweep_table(const std::vector<ExperimentPoint>& points) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-24s %3s %3s %-10s %10s %12s  %s\n", "series", "R", "CF", "block", "GCells/s",
        "improvement", "bottleneck");
    std::string out = buf;
    for (const ExperimentPoint& p : points) {
        const StencilConfig& c = p.config;
        if (!p.error.empty()) {
            std::snprintf(buf, sizeof buf, "%-24s %3d %3d %-10s refused or failed: %s\n", p.series.c_str(),
                c.problem.radius, c.policy.cf, "-", p.error.c_str());
            out += buf;
            continue;
        }
        std::string bottleneck = "-";
        if (!p.bottleneck_metric.empty()) {
            bottleneck = p.bottleneck_metric + " ";
            if (std::isfinite(p.bottleneck_gbs)) {
                std::snprintf(
                    buf, sizeof buf, "%.1f GB/s (%s)", p.bottleneck_gbs, ratio_text(p.bottleneck_improvement).c_str());
                bottleneck += buf;
            } else {
                bottleneck += "n/a";
            }
        }
        const std::string block = c.placement.backend == Backend::Cuda ? format_block(c.policy.block) : "-";
        std::snprintf(buf, sizeof buf, "%-24s %3d %3d %-10s %10.2f %12s  %s\n", p.series.c_str(), c.problem.radius,
            c.policy.cf, block.c_str(), p.gcells_per_s, ratio_text(p.improvement).c_str(), bottleneck.c_str());
        out += buf;
    }
    return out;
}

int run_sweep_command(const SweepOptions& o, const DeviceCatalogue& catalogue) {
    using cli::fail;
    std::unique_ptr<AutotuneCache> cache;
    if (Status s = open_autotune_cache(o.run, cache); !s) return fail(2, s.reason);
    if (!o.run.csv.empty())
        if (Status s = check_csv_path(o.run.csv); !s) return fail(2, s.reason);
    const StencilConfig& base = o.spec.base;
    std::string device = "CPU";
    if (base.placement.backend == Backend::Cuda) {
        if (!catalogue.has_cuda()) return fail(2, "no CUDA device is available (" + catalogue.unavailable + ")");
        if (!catalogue.find(base.placement.device))
            return fail(2, "CUDA device " + std::to_string(base.placement.device) + " does not exist");
        device = catalogue.name_of(base.placement.device);
    }
    std::printf("sweep    %s: %s %s %dD %s %s, %d steps x %d timed runs (median)\ndevice   %s\n",
        std::string(to_string(o.spec.kind)).c_str(), std::string(to_string(base.problem.stencil)).c_str(),
        std::string(to_string(base.problem.rule)).c_str(), base.problem.dims,
        format_extent(base.problem.size, base.problem.dims).c_str(),
        std::string(to_string(base.problem.precision)).c_str(), o.spec.steps, o.spec.repeats, device.c_str());
    std::fflush(stdout);
    std::vector<std::string> warnings;
    const std::vector<ExperimentPoint> points = run_experiment(
        o.spec, catalogue,
        [](int done, int total, const std::string& what) {
            std::fprintf(stderr, "\r[%d/%d] %-70.70s", done, total, what.c_str());
            return true;
        },
        cache.get(), &warnings);
    std::fprintf(stderr, "\n");
    for (const std::string& w : warnings) std::fprintf(stderr, "note: %s\n", w.c_str());
    std::cout << format_sweep_table(points);
    if (!o.run.csv.empty()) {
        const auto rows = experiment_csv_rows(o.spec.kind, points, device, timestamp_now());
        if (Status s = append_csv(o.run.csv, experiment_csv_header(), rows); !s) return fail(1, s.reason);
    }
    const bool any_ran = std::any_of(points.begin(), points.end(), [](auto& p) { return p.error.empty(); });
    return any_ran ? 0 : 1;
}

} // namespace ss
