// SPDX-License-Identifier: MIT
// What the strips (app/cli/mpi_run.cpp) and the process grid (app/cli/mpi_grid_run.cpp) share once a rank's job has
// started: the timed runs, what rank 0 gathers of every rank, and its report and CSV (a row per rank plus the total).
// How a rank's place in the domain reads, and the halo columns' rows, stay with each.
#pragma once

#include "app/cli/mpi_world.h"
#include "app/cli/rank_run.h"
#include "gpu/plan/strip_plan.h"
#include "reports/run_report.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ss::cli {

// This rank's timed runs, and the job's time per step in each (the slowest rank's).
struct TimedRuns {
    std::vector<RankTimes> runs;
    std::vector<double> ms_per_step;
};

// Collective: run's one run of o.steps, or bench's warm-up and timed runs (at least one step each), every run
// started together and timed to the slowest rank. `steps` runs that many steps, each with its exchange.
TimedRuns time_rank_runs(
    const std::string& command, const RunOptions& o, MpiWorld& world, const std::function<RankTimes(int)>& steps);

// What rank 0 reports of every rank.
struct RankRecord {
    int device = 0;
    std::string device_name, host;
    std::int64_t received_bytes = 0; // per step
    std::vector<RankTimes> runs;
    double median_compute_ms() const;
    double median_exchange_ms() const;
};

// Collective: every rank's record on rank 0, in rank order; empty on the others.
std::vector<RankRecord> gather_rank_records(MpiWorld& world, int device, const std::string& device_name,
    std::int64_t received_bytes, const std::vector<RankTimes>& runs);

std::size_t host_count(const std::vector<RankRecord>& ranks);
// The distinct (host, device) pairs: the whole's GPU count.
int gpu_count(const std::vector<RankRecord>& ranks);

// "  rank 2 GPU 0 on node1 rows 41..59: 0.0300 ms compute (0.06 GCells/s), exchange 0.0418 ms": `place` is where
// the rank lies in the domain, `cells` the cells it updates per step.
std::string rank_line(
    std::size_t rank, const RankRecord& record, bool cuda, const std::string& place, std::int64_t cells);
// The halo line under the ranks': the bytes all receive per step and the slowest exchange. `exchange_includes`
// ends "and " where an exchange does more than wait for the neighbours.
std::string halo_line(const std::vector<RankRecord>& ranks, const std::string& exchange_includes);

// Rank 0: the job's report (command, options, this rank's device and kernel, the job's times per step) on stdout,
// then `rank_lines`, then the checksum when asked.
void print_job_report(const RunReport& total, const std::string& rank_lines, std::uint64_t checksum);

// The halo columns of the whole's CSV row: every rank of each timed run as a strip. `place` sets a rank's rows and
// where its ghost cells come from; its device, received bytes and times come from its record.
std::vector<MultiGpuStats> rank_halo_stats(const std::vector<RankRecord>& ranks, int ghost_depth,
    const std::function<void(std::size_t rank, StripStats&)>& place);

// Rank 0: the CSV, each rank's part as a domain of its own (`local_config`) at the job's step time, then `whole`
// ("all"); 0, or 1 when it cannot be written.
int write_rank_rows(const RunReport& total, const std::vector<RankRecord>& ranks,
    const std::function<StencilConfig(std::size_t rank)>& local_config, const RunReport& whole);

} // namespace ss::cli
