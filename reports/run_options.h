// SPDX-License-Identifier: MIT
// The run options: one table (run_option_specs) that stencilscope-cli's commands, the GUI and setup files
// share. The option names are a contract: scripts, presets and setup files use them. Command lines are
// tokenised by reports/command_line.h (CLI11); this file gives the values their meaning. Qt-free.
#pragma once

#include "gpu/backends/bandwidth.h"
#include "gpu/problem/config.h"
#include "gpu/problem/physics.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

struct RunOptions {
    StencilConfig config;
    int steps = 8;
    std::string csv;
    int repeats = 10; // bench: timed runs
    int warmup = 2; // bench: untimed runs first
    int launches = 3; // profile: launches profiled
    double continuous_seconds = 0.0; // profile --continuous: seconds of PM sampling; 0: the replayed profile
    bool verify = false;
    bool checksum = false; // run: print field_checksum of the final field (gpu/backends/rank_strip.h)
    // Under mpirun: the process grid, ranks per axis x first (--ranks PxQ[xR], gpu/plan/rank_grid_plan.h); empty:
    // strips along the slowest axis. Without --ranks the job takes default_rank_grid's (rank_grid_chosen).
    std::vector<int> rank_grid;
    bool rank_grid_chosen = false; // the grid is default_rank_grid's, not --ranks's
    // temporal without --cf or --depth: what was chosen for them and why ("CF 2 and depth 6: ..."); empty otherwise
    std::string temporal_defaults;
    bool quiet = false; // no report on stdout, no progress: only the rows (--csv, --json) and errors
    bool json = false; // the rows as JSON Lines on stdout (the report then goes to stderr)
    std::int64_t bandwidth_bytes = kRooflineCopyBytes; // `bandwidth` measures the roofline's copies by default
    bool backend_given = false;
    // autotune and sweep: where block searches are cached ("" = default_autotune_cache_path()), or not at all
    std::string autotune_cache;
    bool no_cache = false;
    bool no_kernel_cache = false; // build every kernel, and keep none on disk (gpu/io/kernel_disk_cache.h)
};

// One option of the table.
struct RunOptionSpec {
    std::string_view name; // "--radius"
    std::string_view value; // its value's syntax for --help ("R"); empty: a flag, which takes no value
    std::string_view help; // one paragraph; --help wraps it
    // Part of the configuration (problem, policy, placement, initial field): the GUI and setup files
    // take it as well as the CLI. The others are the CLI's command options (--steps, --csv, ...).
    bool configuration;
    bool listable; // run and bench take a comma list and run every combination
    std::string_view commands; // the stencilscope-cli commands that use it, space separated
    std::string_view short_name = {}; // "-q": another name of the option, or none
};

std::span<const RunOptionSpec> run_option_specs();
const RunOptionSpec* find_run_option(std::string_view name); // nullptr when not in the table
// True when stencilscope-cli's `command` uses `spec`.
bool run_option_applies(const RunOptionSpec& spec, std::string_view command);
// The commands that use `spec`, for a message or --help: "run, bench, profile".
std::string commands_text(const RunOptionSpec& spec);

// An option given on a command line, before it is checked: "--radius" -> "4"; a flag -> "".
struct OptionValue {
    std::string name, value;
    bool operator==(const OptionValue&) const = default;
};
// In command-line order, each name once (the last value given wins).
using OptionValues = std::vector<OptionValue>;
// The value given for `name`, or nullptr.
const std::string* find_value(const OptionValues&, std::string_view name);

// Gives the run options among `values` their meaning in `out`; options not given keep out's values
// (--size defaults to the --dims' default size). Checks each value and their combination. The reason is
// one line naming the option and what it expects. Options that are not run options are ignored here.
Status apply_run_options(const OptionValues& values, RunOptions& out);

// Where the temporal CF and depth defaults of `c` come from (temporal_policy.h): "the point temporal kernel's for 2D
// R1 fp32, the defaults measured on H100 and H200 GPUs (docs/PERFORMANCE.md)". run's "defaults" line and the window's
// CF and depth boxes say it.
std::string temporal_defaults_origin(const StencilConfig& c);

// Refuses the run options among `values` that `command` (a stencilscope-cli command) does not use,
// naming the commands that do: an option is never ignored silently.
Status refuse_options_not_for(std::string_view command, const OptionValues& values);

// True when a listable option holds a comma list.
bool has_option_list(const OptionValues&);

// run and bench: one set of values per combination of the comma lists of the listable options, in
// command-line order of the lists (the last list varies fastest). Refuses more than `max_combinations`.
Status expand_option_lists(
    const OptionValues& values, std::vector<OptionValues>& out, std::size_t max_combinations = 10000);

// Parses `args` (no program name, no subcommand): every run option, no lists. For setup files (turned into
// an argument list) and tests.
Status parse_run_options(const std::vector<std::string>& args, RunOptions& out);

// `text` as an error message quotes it: control characters escaped (\x0a), so that the message stays one
// line, and cut after about 60 bytes (at a character boundary), so that a pasted file cannot flood the
// terminal or a dialog.
std::string quote_for_message(std::string_view text);
// `text` with its control characters escaped as quote_for_message does, not cut: a whole message printed
// on one line whatever a path or value in it holds.
std::string one_line(std::string_view text);

// Testing hook (docs/KNOBS.md): STENCILSCOPE_STRIPS_PER_GPU=N cuts each GPU's share into N strips
// (StencilConfig::strips_per_device), so that one GPU runs, times and profiles the multi-GPU code paths.
// 1 when unset; N is 1..64 (another value is ignored, gpu/plan/knobs.h).
int strips_per_gpu_from_environment();

} // namespace ss
