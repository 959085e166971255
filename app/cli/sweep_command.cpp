// SPDX-License-Identifier: MIT
#include "app/cli/sweep_command.h"

#include "app/cli/autotune_command.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "gpu/backends/simulation.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/studies/autotune_cache.h"
#include "reports/command_line.h"
#include "reports/experiment_report.h"
#include "reports/request_check.h"
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
            return Status::failure("invalid item '" + quote_for_message(item) + "' in " + option + " "
                + quote_for_message(list) + ": expected " + expected);
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
    CommandLine line;
    line.add_run_options("sweep"); // the parser of every command: --experiment and --counters are in its table
    if (Status s = line.parse(args); !s) return s;
    // The axes (--radius, --variant, --cf lists) and the sweep's own options; the rest is the base configuration.
    OptionValues rest;
    for (const auto& [key, value] : line.values()) {
        if (key == "--experiment") {
            const auto k = parse_experiment(value);
            if (!k)
                return Status::failure(
                    "invalid --experiment '" + quote_for_message(value) + "': expected radius, cf, autotuned or depth");
            spec.kind = *k;
        } else if (key == "--radius") {
            const auto radius = [](const std::string& s) {
                const auto v = parse_whole(s);
                return v && radius_in_range(*v) ? v : std::nullopt;
            };
            if (Status s = parse_list(key, value, "integers " + radius_range_text(), radius, spec.radii); !s) return s;
        } else if (key == "--variant") {
            const auto star_variant = [](const std::string& s) {
                const auto v = parse_variant(s);
                // auto is no variant to plot: it is resolved to one before a run
                return v && *v != Variant::Auto && variant_applies(StencilKind::Star, *v) ? v : std::nullopt;
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
        } else if (key == "--depth") {
            const auto depth = [](const std::string& s) {
                const auto v = parse_whole(s);
                return v && *v >= 1 && *v <= kMaxTemporalDepth ? v : std::nullopt;
            };
            if (Status s
                = parse_list(key, value, "integers 1.." + std::to_string(kMaxTemporalDepth), depth, spec.depths);
                !s)
                return s;
        } else if (key == "--counters") {
            if (value != "on" && value != "off")
                return Status::failure("invalid --counters '" + quote_for_message(value) + "': expected on or off");
            spec.counters = value == "on";
        } else if (key == "--block") {
            return Status::failure(
                "--block does not apply to sweep: it chooses its blocks (the heuristic, or autotuned)");
        } else {
            rest.push_back({ key, value });
        }
    }
    if (!find_value(line.values(), "--experiment"))
        return Status::failure("sweep needs --experiment radius, cf, autotuned or depth");
    if (spec.kind == ExperimentKind::Depth) { // the temporal variant at one radius and CF 1 unless the lists say
        if (find_value(line.values(), "--variant"))
            return Status::failure("--variant does not apply to --experiment depth: it sweeps the temporal variant "
                                   "(and base, the reference)");
        if (!find_value(line.values(), "--radius")) spec.radii = { 1 };
        if (!find_value(line.values(), "--cf")) spec.cfs = { 1 };
    } else if (find_value(line.values(), "--depth")) {
        return Status::failure("--depth applies to --experiment depth only (the temporal variant's steps per launch)");
    }
    if (Status s = refuse_options_not_for("sweep", rest); !s) return s;
    if (Status s = apply_run_options(rest, out.run); !s) return s;
    if (Status s = check_options_apply(line.values(), out.run.config); !s) return s;
    // As run and bench: the CPU when no device is present, except for a search of CUDA blocks.
    if (!out.run.backend_given && spec.kind != ExperimentKind::Autotuned && !cuda_present)
        out.run.config.placement.backend = Backend::Cpu;
    spec.base = out.run.config;
    spec.steps = out.run.steps;
    if (find_value(rest, "--repeats")) spec.repeats = out.run.repeats;
    return check_experiment(spec);
}

std::string format_sweep_table(const std::vector<ExperimentPoint>& points) {
    char buf[512];
    const bool depths = std::any_of(points.begin(), points.end(),
        [](const ExperimentPoint& p) { return p.config.policy.variant == Variant::Temporal; });
    std::snprintf(buf, sizeof buf, "%-24s %3s %3s %-10s%s %10s %12s  %s\n", "series", "R", "CF", "block",
        depths ? " depth" : "", "GCells/s", "improvement", depths ? "DRAM B/cell/step" : "bottleneck");
    std::string out = buf;
    for (const ExperimentPoint& p : points) {
        const StencilConfig& c = p.config;
        char depth[16] = "";
        if (depths) std::snprintf(depth, sizeof depth, " %5d", fused_steps(c.policy));
        if (!p.error.empty()) {
            std::snprintf(buf, sizeof buf, "%-24s %3d %3d %-10s%s refused or failed: %s\n", p.series.c_str(),
                c.problem.radius, c.policy.cf, "-", depth, p.error.c_str());
            out += buf;
            continue;
        }
        std::string bottleneck = "-";
        if (depths) {
            if (std::isfinite(p.dram_bytes_per_cell)) {
                std::snprintf(buf, sizeof buf, "%.3f", p.dram_bytes_per_cell);
                bottleneck = buf;
            } else if (!p.bottleneck_metric.empty()) {
                bottleneck = "n/a";
            }
        } else if (!p.bottleneck_metric.empty()) {
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
        std::snprintf(buf, sizeof buf, "%-24s %3d %3d %-10s%s %10.2f %12s  %s\n", p.series.c_str(), c.problem.radius,
            c.policy.cf, block.c_str(), depth, p.gcells_per_s, ratio_text(p.improvement).c_str(), bottleneck.c_str());
        out += buf;
    }
    return out;
}

int run_sweep_command(const SweepOptions& o, const DeviceCatalogue& catalogue) {
    using cli::fail;
    std::unique_ptr<AutotuneCache> cache;
    if (Status s = open_autotune_cache(o.run, cache); !s) return fail(2, s.reason);
    if (Status s = cli::open_outputs(o.run, experiment_csv_header()); !s) return fail(2, s.reason);
    const StencilConfig& base = o.spec.base;
    std::string device = cpu_device_name();
    if (base.placement.backend == Backend::Cuda) {
        if (!catalogue.has_cuda()) return fail(2, "no CUDA device is available (" + catalogue.unavailable + ")");
        if (!catalogue.find(base.placement.device))
            return fail(2, "CUDA device " + std::to_string(base.placement.device) + " does not exist");
        device = catalogue.name_of(base.placement.device);
    }
    std::printf("sweep    %s: %s %s %dD %s %s, %d steps x %d timed runs (median)\ndevice   %s\n",
        std::string(to_string(o.spec.kind)).c_str(), stencil_name(base.problem).c_str(),
        std::string(to_string(base.problem.rule)).c_str(), base.problem.dims,
        format_extent(base.problem.size, base.problem.dims).c_str(),
        std::string(to_string(base.problem.precision)).c_str(), o.spec.steps, o.spec.repeats, device.c_str());
    std::fflush(stdout);
    std::vector<std::string> warnings;
    // Each point's row is written as it is measured, with its own timestamp: Ctrl-C keeps what was measured.
    std::vector<ExperimentPoint> measured;
    Status written = Status::success();
    const auto write_point = [&](const ExperimentPoint& p) {
        measured.push_back(p);
        normalise_to_base(measured); // every radius starts with its base point: the improvement is known
        if (written)
            written = cli::write_rows(experiment_csv_rows(o.spec.kind, { measured.back() }, device, timestamp_now()));
    };
    cli::stop_at_interrupt();
    cli::Progress progress;
    const std::vector<ExperimentPoint> points = run_experiment(
        o.spec, catalogue,
        [&](int done, int total, const std::string& what) {
            progress.update(done, total, what);
            return written.ok && !cli::interrupted();
        },
        cache.get(), &warnings, write_point);
    progress.clear();
    for (const std::string& w : warnings) std::fprintf(stderr, "note: %s\n", w.c_str());
    std::cout << format_sweep_table(points);
    if (!written) return fail(1, written.reason);
    if (cli::interrupted())
        return fail(cli::kInterruptedExit,
            "interrupted after " + std::to_string(points.size()) + " points (their rows are written)");
    const bool any_ran = std::any_of(points.begin(), points.end(), [](auto& p) { return p.error.empty(); });
    return any_ran ? 0 : 1;
}

} // namespace ss
