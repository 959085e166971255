// SPDX-License-Identifier: MIT
// run and bench as one rank of an MPI job: agree on the options, take this rank's strip, trade ghost
// rows every step (device buffers when the MPI library is CUDA-aware, else host staging; while the
// interior computes under --overlap on), and let rank 0 print one report and write the CSV (a row per
// rank plus the total).
#include "app/cli/mpi_run.h"
#include "app/cli/cli_common.h"
#include "app/cli/mpi_grid_run.h"
#include "app/cli/mpi_profile.h"
#include "app/cli/mpi_world.h"
#include "app/cli/rank_job.h"
#include "app/cli/rank_run.h"
#include "gpu/backends/rank_strip.h"
#include "gpu/plan/rank_grid_plan.h"
#include "gpu/problem/physics.h"
#include "reports/request_check.h"
#include "reports/run_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ss::cli {
namespace {

// FNV-1a over the command line: ranks started with different options must not run.
std::uint64_t hash_of(const std::string& command, const std::vector<std::string>& args) {
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&h](const std::string& s) {
        for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
        h = (h ^ 0xffu) * 1099511628211ull; // separator: "a b" differs from "ab"
    };
    add(command);
    for (const std::string& a : args) add(a);
    return h;
}

CsvRow mpi_csv_header() {
    CsvRow h = report_csv_header();
    for (const char* c : { "ranks", "rank", "compute_ms_per_step", "exchange_ms_per_step" }) h.emplace_back(c);
    return h;
}

// How the rows travel, after the path's name.
std::string path_note(const RankJob& job) {
    if (!job.cuda) return "";
    switch (job.halo) {
    case RankHalo::Device:
        return " (CUDA-aware MPI)";
    case RankHalo::Peer:
        return " (each rank copies its rows into its neighbours' ghost rows over the GPUs' link; MPI says they landed)";
    case RankHalo::Host:
        break;
    }
    const std::string why = job.no_peer_copies.empty() ? "" : "; no CUDA IPC: " + job.no_peer_copies;
    const int pieces = job.overlapped ? stage_pieces(job.strip->halo_bytes()) : 1;
    const std::string piecewise = pieces > 1 ? ", in " + std::to_string(pieces) + " pipelined pieces of "
            + bytes_text(std::int64_t(job.strip->halo_bytes() / std::size_t(pieces)))
                                             : "";
    const std::string aware = job.staged_by_request ? "--halo staged" : "MPI not CUDA-aware";
    return " (" + aware + ": staged through pinned host memory" + piecewise + why + ")";
}

// The line on the ranks' split, then a line per rank and the halo line.
std::string rank_lines(
    const RunReport& total, const std::vector<RankRecord>& ranks, const RankJob& job, HaloPath path) {
    const RankPlan& plan = job.plan;
    const bool cuda = job.cuda, overlapped = job.overlapped;
    const StencilConfig& c = total.options.config;
    const std::size_t hosts = host_count(ranks);
    const char* overlap = overlapped ? "on"
        : c.placement.overlap        ? "off (the CPU backend exchanges after the step)"
                                     : "off";
    char buf[400];
    std::snprintf(buf, sizeof buf,
        "ranks    %zu MPI processes on %zu host%s, strips along %s, ghost depth %d, halo %s%s, overlap %s\n",
        ranks.size(), hosts, hosts == 1 ? "" : "s", c.problem.dims == 3 ? "z" : "y", plan.strips.ghost_depth,
        std::string(to_string(path)).c_str(), path_note(job).c_str(), overlap);
    std::string out = buf;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const Strip& strip = plan.strips.strips[i];
        const std::string rows = "rows " + std::to_string(strip.first_row) + ".." + std::to_string(strip.end_row - 1);
        out += rank_line(i, ranks[i], cuda, rows, updated_cells(strip_config(plan.split, strip)));
    }
    return out + halo_line(ranks, "");
}

// Without --ranks, a job whose rank count factors over two or more axes runs on a process grid (issue 37).
void take_default_rank_grid(RunOptions& o, int ranks) {
    if (!o.rank_grid.empty()) return;
    std::vector<int> grid = default_rank_grid(o.config, ranks);
    if (grid.empty()) return;
    o.rank_grid = std::move(grid);
    o.rank_grid_chosen = true;
}

int run_one(const std::string& command, RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue) {
    const int ranks = world.size();
    if (o.verify)
        return world.agree(
            2, "--verify is not available under mpirun: compare run --checksum with a one-process run", true);
    if (!o.rank_grid.empty()) return run_grid(command, o, world, catalogue, mpi_csv_header());
    RankJob job;
    if (int code = start_rank_job(o, world, catalogue, false, mpi_csv_header(), job)) return code;
    RankStrip* strip = job.strip.get();

    TimedRuns timed;
    std::uint64_t checksum = 0;
    run_or_end_job(world, [&] {
        RankRun run(world, *strip, o.config.placement.backend, job.halo, job.overlapped);
        timed = time_rank_runs(command, o, world, [&run](int steps) { return run.steps(steps); });
        if (o.checksum) {
            const std::vector<double> local = strip->field().download();
            const Strip& s = strip->strip();
            const std::size_t row = local.size() / std::size_t(s.local_rows());
            checksum = field_checksum({ local.begin() + std::ptrdiff_t((s.first_row - s.local_begin) * row),
                                          local.begin() + std::ptrdiff_t((s.end_row - s.local_begin) * row) },
                std::int64_t(s.first_row) * std::int64_t(row));
        }
    });
    checksum = world.sum_on_root(checksum);

    // Rank 0 gathers every rank's device, received bytes and times.
    const int neighbours = (world.rank() > 0) + (world.rank() + 1 < ranks);
    const std::int64_t received = std::int64_t(strip->halo_bytes()) * neighbours;
    const std::string my_device = job.cuda ? catalogue.name_of(job.device) : cpu_device_name();
    const std::vector<RankRecord> records = gather_rank_records(world, job.device, my_device, received, timed.runs);
    if (world.rank() != 0) return 0;

    const HaloPath path = halo_path(job.halo);
    RunReport total;
    total.command = command;
    total.options = o;
    total.device = my_device;
    total.resources = strip->field().resources();
    total.ms_per_step = timed.ms_per_step;
    print_job_report(total, rank_lines(total, records, job, path), checksum);
    if (o.csv.empty()) return 0;

    // The CSV: each rank's strip as a domain of its own (its rows plus ghost rows), then the whole domain.
    const StripPlan& plan = job.plan.strips;
    RunReport whole = total;
    whole.options.config.placement.gpus = job.cuda ? gpu_count(records) : 1;
    whole.options.config.placement.overlap = job.overlapped;
    whole.strip_stats = rank_halo_stats(records, plan.ghost_depth, [&](std::size_t r, StripStats& s) {
        s.first_row = plan.strips[r].first_row, s.end_row = plan.strips[r].end_row;
        s.below = r > 0 ? path : HaloPath::None, s.above = r + 1 < records.size() ? path : HaloPath::None;
    });
    return write_rank_rows(
        total, records, [&](std::size_t r) { return strip_config(job.plan.split, plan.strips[r]); }, whole);
}

} // namespace

int run_under_mpi(char*[], const std::string& command, const std::vector<std::string>& args, const ParseRuns& parse,
    const DeviceCatalogue& catalogue) {
    if (command != "run" && command != "bench" && command != "profile") // refused before MPI starts
        return launched_rank() == 0 ? fail(2,
                   "under mpirun only run, bench and profile split the domain over the ranks; start " + command
                       + " as one process")
                                    : 2;
    MpiWorld world;
    if (const int differing = world.first_differing_rank(hash_of(command, args)); differing >= 0)
        return world.agree(2,
            "the ranks were started with different options (rank " + std::to_string(differing)
                + "'s differ from rank 0's): start every rank with the same command line",
            true);
    std::vector<RunOptions> runs;
    const Status parsed = parse(runs);
    if (!parsed) return world.agree(2, parsed.reason, true);
    if (command != "profile") // profile follows strips only
        for (RunOptions& o : runs) take_default_rank_grid(o, world.size());
    // Every combination of a list, and rank 0's rows path, before the first one runs (issue 36).
    if (Status s = check_run_request(command, runs, catalogue, world.size()); !s) return world.agree(2, s.reason, true);
    Status outputs = Status::success();
    if (world.rank() == 0 && !runs.front().csv.empty()) outputs = check_rows_path(runs.front().csv);
    if (outputs) outputs = check_rows_and_report(runs.front());
    if (int code = world.agree(outputs ? 0 : 2, outputs.reason)) return code;
    int worst = 0;
    if (command == "profile") return profile_under_mpi(runs.front(), world, catalogue);
    for (const RunOptions& o : runs) {
        const int code = run_one(command, o, world, catalogue);
        if (runs.size() == 1) return code;
        worst = std::max(worst, code);
    }
    return worst;
}

} // namespace ss::cli
