// SPDX-License-Identifier: MIT
#include "app/cli/autotune_command.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "gpu/backends/simulation.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "reports/autotune_report.h"
#include "reports/csv.h"
#include "reports/run_report.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace ss {

Status open_autotune_cache(const RunOptions& o, std::unique_ptr<AutotuneCache>& cache) {
    cache.reset();
    if (o.no_cache && !o.autotune_cache.empty())
        return Status::failure("--cache and --no-cache contradict each other: give one");
    if (o.no_cache) return Status::success();
    const std::string path = o.autotune_cache.empty() ? default_autotune_cache_path() : o.autotune_cache;
    if (path.empty()) return Status::success();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Status::failure("cannot use the autotune cache " + path + ": it is a directory");
    cache = std::make_unique<AutotuneCache>(path);
    return Status::success();
}

int run_autotune_command(RunOptions o, const DeviceCatalogue& catalogue) {
    using cli::fail;
    if (o.config.placement.backend == Backend::Cpu)
        return fail(2, "autotune tunes CUDA block dims: use --backend cuda");
    std::unique_ptr<AutotuneCache> cache;
    if (Status s = open_autotune_cache(o, cache); !s) return fail(2, s.reason);
    if (!catalogue.has_cuda()) return fail(2, "autotune needs a CUDA device (" + catalogue.unavailable + ")");
    o.config.policy.heuristic_block = true;
    if (Status s = can_implement(o.config, catalogue); !s) return fail(2, s.reason);
    if (Status s = cli::open_outputs(o, autotune_csv_header()); !s) return fail(2, s.reason);
    const std::vector<double> field = initial_field(o.config);
    cli::Progress progress;
    // Each candidate's row as soon as it is timed (a pipe sees the search go on); the best is in the report.
    AutotuneRowStream rows(o.config, timestamp_now(), cli::write_rows);
    Status written = Status::success();
    CachedAutotune tuned = autotune_cached(
        o.config, catalogue, field, std::max(o.steps, 1), std::min(o.repeats, 5),
        [&](int done, int total, const AutotuneResult& r) {
            progress.update(done, total, "block " + describe_candidate(o.config, r));
            written = rows.measured(r);
            return bool(written); // an output that fails stops the search
        },
        cache.get());
    progress.clear();
    if (written) written = rows.finish(tuned.results); // a cache hit's rows, in the stored order
    if (!written) return fail(1, written.reason);
    if (!tuned.saved) std::fprintf(stderr, "note: %s\n", tuned.saved.reason.c_str());
    std::vector<AutotuneResult>& results = tuned.results; // from here on best first, for the report
    std::stable_sort(results.begin(), results.end(), [](auto& a, auto& b) { return a.gcells_per_s > b.gcells_per_s; });
    std::cout << "config   " << describe(o.config) << "\n";
    if (tuned.from_cache) std::cout << "from cache (stored " << tuned.stored << ") " << cache->path() << "\n";
    for (const auto& r : results) {
        if (r.error.empty())
            std::printf("%-12s %9.2f GCells/s  %.4f ms/step\n", describe_candidate(o.config, r).c_str(), r.gcells_per_s,
                r.ms_per_step);
        else
            std::printf("%-12s refused: %s\n", describe_candidate(o.config, r).c_str(), r.error.c_str());
    }
    return results.empty() || !results.front().error.empty() ? 1 : 0;
}

} // namespace ss
