// SPDX-License-Identifier: MIT
#include "app/cli/knobs_command.h"

#include "app/cli/cli_common.h"
#include "gpu/plan/knobs.h"
#include "reports/run_options.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>

namespace ss {
namespace {

constexpr const char* kKnobsHelp = R"(Usage: stencilscope-cli knobs [--markdown]

Lists every STENCILSCOPE_* environment variable the programs read: its kind (tuning knob, setting, test
hook, diagnostic), the value in force and where it came from (set; unset; empty, which counts as unset;
or ignored, when it does not parse or lies outside what the knob takes, and the default applies), what
it takes, its default and meaning. --markdown prints the table of docs/KNOBS.md instead (with the
measurement behind each tuning knob's default).
)";

std::string in_force(const KnobSpec& spec, const KnobReading& r) {
    if (r.source != KnobSource::Environment) return spec.default_text;
    if (spec.type == KnobType::Text) return quote_for_message(r.text);
    if (spec.type == KnobType::Seconds) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", r.seconds);
        return text;
    }
    return std::to_string(r.integer);
}

std::string source(const KnobReading& r) {
    switch (r.source) {
    case KnobSource::Environment:
        return "environment";
    case KnobSource::Ignored:
        return "ignored (" + quote_for_message(r.raw) + ": " + r.problem + "), default";
    case KnobSource::Default:
        break;
    }
    return r.empty ? "empty = unset, default" : "unset, default";
}

} // namespace

std::string format_knobs_table() {
    using Row = std::array<std::string, 7>;
    std::vector<Row> rows { { "KNOB", "KIND", "IN FORCE", "FROM", "DEFAULT", "TAKES", "MEANING" } };
    for (const KnobSpec& spec : knob_table()) {
        const KnobReading r = read_knob(spec.id, false); // the FROM column says when a value is ignored
        rows.push_back({ spec.name, std::string(to_string(spec.kind)), in_force(spec, r), source(r), spec.default_text,
            knob_range_text(spec), spec.meaning });
    }
    std::array<std::size_t, 7> width {};
    for (const Row& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    std::string out;
    for (const Row& row : rows) {
        for (std::size_t c = 0; c + 1 < row.size(); ++c) out += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
        out += row.back() + "\n";
    }
    return out;
}

std::string format_knobs_markdown() {
    std::string out = "| Variable | Kind | Takes | Default | Meaning | Default measured |\n"
                      "|---|---|---|---|---|---|\n";
    for (const KnobSpec& spec : knob_table()) {
        std::string takes = knob_range_text(spec);
        std::replace(takes.begin(), takes.end(), '|', '/'); // a bar would end the cell
        out += "| `" + std::string(spec.name) + "` | " + std::string(to_string(spec.kind)) + " | " + takes + " | "
            + spec.default_text + " | " + spec.meaning + " | " + (*spec.measurement ? spec.measurement : "") + " |\n";
    }
    return out;
}

int run_knobs_command(const std::vector<std::string>& args) {
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << kKnobsHelp;
        return 0;
    }
    if (args.size() == 1 && args[0] == "--markdown") {
        std::cout << format_knobs_markdown();
        return 0;
    }
    if (!args.empty())
        return cli::fail(2, "knobs takes no options but --markdown (got '" + quote_for_message(args[0]) + "')");
    std::cout << format_knobs_table();
    return 0;
}

} // namespace ss
