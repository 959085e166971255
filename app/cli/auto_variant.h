// SPDX-License-Identifier: MIT
// `run|bench --variant auto` (issue 35): each combination that asks for auto is checked as its stand-in before
// anything runs, then resolved to the fastest kernel just before it runs (gpu/studies/auto_choice.h: the candidates
// timed on the device, through the block search's cache file), and its report says what was chosen and why.
// Qt-free.
#pragma once

#include "gpu/problem/device.h"
#include "reports/run_options.h"

#include <string>
#include <vector>

namespace ss::cli {

// Refuses --variant auto where nothing resolves it (commands other than run and bench, and mpirun, whose ranks
// would each time their own strip), and --cache or --no-cache on run or bench without it (they would be ignored).
Status check_auto_request(
    const std::string& command, const OptionValues& given, const std::vector<RunOptions>& runs, bool several_ranks);

// `runs` as check_run_request checks them before any runs: auto as its stand-in (gpu/plan/validation.h).
std::vector<RunOptions> with_auto_stand_ins(std::vector<RunOptions> runs);

// Resolves `o.config` when it asks for auto: the candidates are timed from `field` (progress on stderr) unless the
// cache the options name (--cache FILE, --no-cache) holds the answer. `reason` gets the `chosen` line's text.
// Any other configuration is left as is, with an empty reason.
Status resolve_auto_variant(
    RunOptions& o, const DeviceCatalogue& catalogue, const std::vector<double>& field, std::string& reason);

} // namespace ss::cli
