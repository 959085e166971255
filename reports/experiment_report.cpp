// SPDX-License-Identifier: MIT
#include "reports/experiment_report.h"

#include "gpu/io/safe_file.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/stencil_catalog.h"

#include "reports/run_options.h" // quote_for_message
#include "reports/run_report.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ss {
namespace {

std::string number_or_empty(double v) {
    return std::isfinite(v) ? format_number(v) : std::string();
}

// std::from_chars: the C locale's digits whatever the process's locale (a GUI under de_DE would read
// "0.018275" as 0 with std::stod, and refuse the file).
template <typename T> T parse_whole_field(const std::string& s) {
    T v {};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) throw std::invalid_argument(quote_for_message(s));
    return v;
}

int parse_int(const std::string& s) {
    return parse_whole_field<int>(s);
}

// A field that holds a number but not a sane one: the reader names its column (std::out_of_range).
[[noreturn]] void out_of_range(const std::string& column, const std::string& text, const std::string& expected) {
    throw std::out_of_range("column " + column + ": '" + quote_for_message(text) + "' is not " + expected);
}

// A measured figure: empty is "not measured" (NaN); anything else a finite number from 0 to `max`. A rate
// of 1e308, inf, nan or a negative time comes from no run, and would give a chart an axis it cannot draw.
double parse_figure(const std::string& s, const std::string& column, double max) {
    if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    const std::string expected = "a finite number from 0 to " + format_number(max);
    if (ec == std::errc::result_out_of_range) out_of_range(column, s, expected);
    if (ec != std::errc() || end != s.data() + s.size())
        throw std::invalid_argument(column + " '" + quote_for_message(s) + "'");
    if (!std::isfinite(v) || v < 0 || v > max) out_of_range(column, s, expected);
    return v;
}

int parse_count(const std::string& s, const std::string& column, int min, int max) {
    const int v = parse_int(s);
    if (v < min || v > max)
        out_of_range(column, s, "a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    return v;
}

// Bounds far above any GPU (an H100 updates a few hundred GCells/s), and low enough that a chart's axis
// and its labels stay finite.
constexpr double kMaxRate = 1e6, kMaxRatio = 1e6, kMaxMilliseconds = 1e9;

template <typename T> T require(std::optional<T> v, const std::string& what, const std::string& text) {
    if (!v) throw std::invalid_argument(what + " '" + quote_for_message(text) + "'");
    return *v;
}

} // namespace

CsvRow experiment_csv_header() {
    return { "timestamp", "device", "experiment", "series", "stencil", "rule", "dims", "size", "radius", "variant",
        "cf", "precision", "block_x", "block_y", "block_z", "autotuned", "ms_per_step", "gcells_per_s", "improvement",
        "bottleneck_metric", "bottleneck_gbs", "bottleneck_improvement", "error", "depth", "dram_bytes_per_cell" };
}

std::vector<CsvRow> experiment_csv_rows(ExperimentKind kind, const std::vector<ExperimentPoint>& points,
    const std::string& device, const std::string& timestamp) {
    std::vector<CsvRow> rows;
    for (const ExperimentPoint& p : points) {
        const StencilConfig& c = p.config;
        rows.push_back({ timestamp, device, std::string(to_string(kind)), p.series,
            // A box sweep's rows name the box: the reader rebuilds its points from dims and radius.
            c.problem.stencil == StencilKind::Points ? stencil_name(c.problem)
                                                     : std::string(to_string(c.problem.stencil)),
            std::string(to_string(c.problem.rule)), std::to_string(c.problem.dims),
            format_extent(c.problem.size, c.problem.dims), std::to_string(c.problem.radius),
            std::string(to_string(c.policy.variant)), std::to_string(c.policy.cf),
            std::string(to_string(c.problem.precision)), std::to_string(c.policy.block.x),
            std::to_string(c.policy.block.y), std::to_string(c.policy.block.z), p.autotuned ? "1" : "0",
            number_or_empty(p.ms_per_step), number_or_empty(p.gcells_per_s), number_or_empty(p.improvement),
            p.bottleneck_metric, number_or_empty(p.bottleneck_gbs), number_or_empty(p.bottleneck_improvement), p.error,
            std::to_string(fused_steps(c.policy)), number_or_empty(p.dram_bytes_per_cell) });
    }
    return rows;
}

std::vector<CsvRow> parse_csv(const std::string& text, std::string* why) {
    std::vector<CsvRow> rows;
    CsvRow row;
    std::string field;
    bool quoted = false, any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (quoted) {
            if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if (ch == '"')
                quoted = false;
            else
                field += ch;
            continue;
        }
        if (ch == '"' && field.empty())
            quoted = true, any = true;
        else if (ch == ',')
            row.push_back(std::move(field)), field.clear(), any = true;
        else if (ch == '\n' || ch == '\r') {
            if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            if (any || !field.empty()) row.push_back(std::move(field));
            if (!row.empty()) rows.push_back(std::move(row));
            row.clear(), field.clear(), any = false;
        } else
            field += ch, any = true;
    }
    if (quoted) {
        if (why) *why = "a quoted field is not closed";
        return {};
    }
    if (any || !field.empty()) row.push_back(std::move(field));
    if (!row.empty()) rows.push_back(std::move(row));
    return rows;
}

Status read_experiment_csv(const std::string& path, ExperimentTable* out) {
    // The type and size are checked before a byte is read: a FIFO or /dev/zero is refused, not waited on.
    constexpr std::uint64_t kMaxBytes = 64u << 20;
    std::string text;
    if (Status s = read_regular_file(path, kMaxBytes, text); !s)
        return Status::failure(s.reason + ": not a sweep result");
    return parse_experiment_csv(text, one_line(path), out);
}

Status parse_experiment_csv(const std::string& text, const std::string& path, ExperimentTable* out) {
    std::string why;
    const std::vector<CsvRow> rows = parse_csv(text, &why);
    if (!why.empty()) return Status::failure(path + ": " + why);
    const CsvRow header = experiment_csv_header();
    // Files written before the depth columns were added have the header less its last two columns.
    const CsvRow before_depth(header.begin(), header.end() - 2);
    if (rows.empty() || (rows.front() != header && rows.front() != before_depth))
        return Status::failure(path + " is not a sweep result (its first line is not the header of docs/CSV.md)");
    const std::size_t columns = rows.front().size();
    ExperimentTable table;
    bool first = true;
    std::set<std::string> series;
    std::size_t long_names = 0, dropped_points = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const CsvRow& r = rows[i];
        const std::string where = path + " row " + std::to_string(i + 1) + ": ";
        if (r == header || r == before_depth) continue; // appended runs repeat nothing, but be lenient
        if (r.size() != columns)
            return Status::failure(where + std::to_string(r.size()) + " fields, expected " + std::to_string(columns));
        try {
            const ExperimentKind kind = require(parse_experiment(r[2]), "experiment", r[2]);
            if (first) table.kind = kind, table.device = r[1], table.timestamp = r[0], first = false;
            if (kind != table.kind) continue;
            ExperimentPoint p;
            StencilConfig& c = p.config;
            p.series = r[3];
            const bool box = r[4] == "box"; // a box sweep's row: its points follow dims and radius
            c.problem.stencil = box ? StencilKind::Points : require(parse_stencil(r[4]), "stencil", r[4]);
            c.problem.rule = require(parse_rule(r[5]), "rule", r[5]);
            c.problem.dims = parse_int(r[6]);
            if (c.problem.dims != 2 && c.problem.dims != 3) out_of_range("dims", r[6], "2 or 3");
            c.problem.size = require(parse_extent(r[7], c.problem.dims), "size", r[7]);
            c.problem.radius = parse_int(r[8]);
            if (box) {
                if (!radius_in_range(c.problem.radius)) out_of_range("radius", r[8], radius_range_text());
                use_shape(c.problem, box_shape(c.problem.dims, c.problem.radius));
            }
            if (Status ok = check_problem(c.problem); !ok) throw std::out_of_range(ok.reason);
            c.policy.variant = require(parse_variant(r[9]), "variant", r[9]);
            c.policy.cf = parse_count(r[10], "cf", 1, 1024);
            c.problem.precision = require(parse_precision(r[11]), "precision", r[11]);
            c.policy.block = { parse_count(r[12], "block_x", 1, 1024), parse_count(r[13], "block_y", 1, 1024),
                parse_count(r[14], "block_z", 1, 1024) };
            c.policy.heuristic_block = false;
            p.autotuned = r[15] == "1";
            p.ms_per_step = parse_figure(r[16], "ms_per_step", kMaxMilliseconds);
            p.gcells_per_s = parse_figure(r[17], "gcells_per_s", kMaxRate);
            p.improvement = parse_figure(r[18], "improvement", kMaxRatio);
            p.bottleneck_metric = r[19];
            p.bottleneck_gbs = parse_figure(r[20], "bottleneck_gbs", kMaxRate);
            p.bottleneck_improvement = parse_figure(r[21], "bottleneck_improvement", kMaxRatio);
            p.error = r[22];
            if (columns > 23) {
                c.policy.depth = parse_int(r[23]);
                if (c.policy.depth < 1 || c.policy.depth > kMaxTemporalDepth)
                    throw std::invalid_argument("depth " + quote_for_message(r[23]));
                if (!depth_fits_variant(c.policy))
                    // The parsed values, not the fields: from_chars reads "000…02" as 2, any length.
                    throw std::invalid_argument("depth " + std::to_string(c.policy.depth) + " of variant "
                        + std::string(to_string(c.policy.variant)));
                p.dram_bytes_per_cell = parse_figure(r[24], "dram_bytes_per_cell", kMaxRatio);
            }
            // Not measured (a configuration that could not run): no bar, and no NaN for a chart's axis.
            if (!std::isfinite(p.ms_per_step)) p.ms_per_step = 0.0;
            if (!std::isfinite(p.gcells_per_s)) p.gcells_per_s = 0.0;
            // Bounded, so that a hostile or foreign file cannot make a chart allocate without end.
            if (p.series.size() > kMaxSeriesNameChars) {
                p.series = p.series.substr(0, kMaxSeriesNameChars) + "...";
                ++long_names;
            }
            const bool known = series.count(p.series) > 0;
            if (table.points.size() >= kMaxSweepPoints || (!known && series.size() >= kMaxSweepSeries)) {
                ++dropped_points;
                continue;
            }
            series.insert(p.series);
            table.points.push_back(std::move(p));
        } catch (const std::out_of_range& e) {
            return Status::failure(where + e.what());
        } catch (const std::exception& e) {
            return Status::failure(where + "cannot read " + e.what());
        }
    }
    if (table.points.empty()) return Status::failure(path + " holds no sweep rows");
    if (dropped_points > 0)
        table.cut = std::to_string(dropped_points) + " rows left out (at most " + std::to_string(kMaxSweepSeries)
            + " series and " + std::to_string(kMaxSweepPoints) + " points are shown)";
    if (long_names > 0)
        table.cut += (table.cut.empty() ? "" : "; ") + std::to_string(long_names) + " series names shortened to "
            + std::to_string(kMaxSeriesNameChars) + " characters";
    *out = std::move(table);
    return Status::success();
}

} // namespace ss
