// SPDX-License-Identifier: MIT
// The configuration options shared by stencilscope-cli and the GUI's scripted mode. The option names
// are a contract: scripts and presets use them. Qt-free.
#pragma once

#include "gpu/config.h"
#include "gpu/physics.h"

#include <cstdint>
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
    bool verify = false;
    std::int64_t bandwidth_bytes = std::int64_t(1) << 30;
    bool backend_given = false;
    // autotune and sweep: where block searches are cached ("" = default_autotune_cache_path()), or not at all
    std::string autotune_cache;
    bool no_cache = false;
};

// Parses `args` (no program name, no subcommand). Options not known here go to `rest` when it is
// given (the GUI adds its own), otherwise they are an error. The reason is one line naming the problem.
Status parse_run_options(
    const std::vector<std::string>& args, RunOptions& out, std::vector<std::string>* rest = nullptr);

// `text` as an error message quotes it: control characters escaped (\x0a), so that the message stays one
// line, and cut after about 60 bytes (at a character boundary), so that a pasted file cannot flood the
// terminal or a dialog.
std::string quote_for_message(std::string_view text);

// The option list for --help.
std::string run_options_help();

// Testing hook (docs/USER_GUIDE.md): STENCILSCOPE_STRIPS_PER_GPU=N cuts each GPU's share into N strips
// (StencilConfig::strips_per_device), so that one GPU runs, times and profiles the multi-GPU code paths.
// 1 when unset; clamped to 1..64.
int strips_per_gpu_from_environment();

} // namespace ss
