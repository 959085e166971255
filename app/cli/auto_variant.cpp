// SPDX-License-Identifier: MIT
#include "app/cli/auto_variant.h"

#include "app/cli/autotune_command.h"
#include "app/cli/cli_output.h"
#include "gpu/plan/validation.h"
#include "gpu/studies/auto_choice.h"

#include <iostream>
#include <memory>

namespace ss::cli {

Status check_auto_request(
    const std::string& command, const OptionValues& given, const std::vector<RunOptions>& runs, bool several_ranks) {
    bool any_auto = false;
    for (const RunOptions& o : runs) any_auto = any_auto || o.config.policy.variant == Variant::Auto;
    const bool resolves = command == "run" || command == "bench";
    if (any_auto && !resolves)
        return Status::failure("--variant auto is resolved by run and bench only: run 'stencilscope-cli run --variant "
                               "auto ...' and give "
            + command + " the variant, CF and depth it chose");
    if (any_auto && several_ranks)
        return Status::failure("--variant auto is not resolved under mpirun (each rank would time its own strip): "
                               "run it once without mpirun and give the ranks the variant, CF and depth it chose");
    if (resolves && !any_auto)
        for (const char* option : { "--cache", "--no-cache" })
            if (find_value(given, option))
                return Status::failure(std::string(option) + " applies to " + command
                    + " only with --variant auto (the cache of its tune)");
    return Status::success();
}

std::vector<RunOptions> with_auto_stand_ins(std::vector<RunOptions> runs) {
    for (RunOptions& o : runs) o.config = auto_stand_in(o.config);
    return runs;
}

Status resolve_auto_variant(
    RunOptions& o, const DeviceCatalogue& catalogue, const std::vector<double>& field, std::string& reason) {
    reason.clear();
    if (o.config.policy.variant != Variant::Auto) return Status::success();
    std::unique_ptr<AutotuneCache> cache;
    if (Status s = open_autotune_cache(o, cache); !s) return s;
    Progress progress;
    bool told = false;
    // The fastest for this run: a temporal depth that leaves single steps over this run's steps pays for them.
    const AutoSteps steps = auto_steps_for_run(o.steps);
    const AutoChoice choice = choose_auto(
        o.config, catalogue, simulation_timer(catalogue, field, steps), cache.get(), !o.no_cache,
        [&](int index, int total, const AutoCandidate& candidate) {
            if (!told && !o.quiet) // the tune takes seconds: say why the run has not started
                std::cerr << "stencilscope-cli: auto: timing " << total << " candidates for " << describe(o.config)
                          << "\n";
            told = true;
            progress.update(index, total, "auto: " + candidate.label);
            return !interrupted();
        },
        steps);
    progress.clear();
    if (!choice.verdict) return choice.verdict;
    if (!choice.saved && !o.quiet) std::cerr << "stencilscope-cli: note: " << choice.saved.reason << "\n";
    o.config = choice.config;
    reason = choice.reason;
    return Status::success();
}

} // namespace ss::cli
