// SPDX-License-Identifier: MIT
// run and bench as one rank of an MPI job: agree on the options, take this rank's strip, trade ghost
// rows every step (device buffers when the MPI library is CUDA-aware, else host staging; while the
// interior computes under --overlap on), and let rank 0 print one report and write the CSV (a row per
// rank plus the total).
#include "app/cli/mpi_run.h"
#include "app/cli/address_space.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/mpi_grid_run.h"
#include "app/cli/mpi_profile.h"
#include "app/cli/mpi_world.h"
#include "app/cli/rank_run.h"
#include "gpu/backends/rank_strip.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"
#include "reports/request_check.h"
#include "reports/run_report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>

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

struct RankRecord { // what rank 0 reports of every rank
    Strip strip;
    int device = 0;
    std::string device_name, host;
    std::vector<RankTimes> runs;
};

std::string rank_lines(const RunReport& total, const std::vector<RankRecord>& ranks, const RankPlan& plan,
    HaloPath path, bool cuda, bool cuda_aware, bool overlapped, std::int64_t halo_bytes) {
    const int ghost = plan.strips.ghost_depth;
    const StencilConfig& c = total.options.config;
    std::vector<std::string> hosts;
    for (const RankRecord& r : ranks)
        if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
    const char* overlap = overlapped ? "on"
        : c.placement.overlap        ? "off (the CPU backend exchanges after the step)"
                                     : "off";
    char buf[400];
    std::snprintf(buf, sizeof buf,
        "ranks    %zu MPI processes on %zu host%s, strips along %s, ghost depth %d, halo %s%s, overlap %s\n",
        ranks.size(), hosts.size(), hosts.size() == 1 ? "" : "s", c.problem.dims == 3 ? "z" : "y", ghost,
        std::string(to_string(path)).c_str(),
        cuda ? (cuda_aware ? " (CUDA-aware MPI)" : " (MPI not CUDA-aware: staged through pinned host memory)") : "",
        overlap);
    std::string out = buf;
    double slowest_exchange = 0.0;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankRecord& r = ranks[i];
        std::vector<double> compute, exchange;
        for (const RankTimes& t : r.runs) compute.push_back(t.compute_ms), exchange.push_back(t.exchange_ms);
        const double cms = median(compute), ems = median(exchange);
        slowest_exchange = std::max(slowest_exchange, ems);
        const std::string where = cuda ? "GPU " + std::to_string(r.device) : cpu_device_name();
        const std::int64_t cells = updated_cells(strip_config(plan.split, r.strip));
        std::snprintf(buf, sizeof buf,
            "  rank %zu %s on %s rows %d..%d: %.4f ms compute (%.2f GCells/s), exchange %.4f ms\n", i, where.c_str(),
            r.host.c_str(), r.strip.first_row, r.strip.end_row - 1, cms, gcells_per_second(double(cells), 1, cms), ems);
        out += buf;
    }
    std::snprintf(buf, sizeof buf,
        "halo     %s per step, slowest exchange %.4f ms: %s (means per step, median of the timed runs; "
        "an exchange includes waiting for the neighbours)\n",
        bytes_text(halo_bytes).c_str(), slowest_exchange,
        transfer_rate_text(double(halo_bytes), slowest_exchange).c_str());
    return out + buf;
}

int run_one(const std::string& command, RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue) {
    const int ranks = world.size();
    if (o.verify)
        return world.agree(
            2, "--verify is not available under mpirun: compare run --checksum with a one-process run", true);
    if (!o.rank_grid.empty()) return run_grid(command, o, world, catalogue, mpi_csv_header());
    RankJob job;
    if (int code = start_rank_job(o, world, catalogue, false, mpi_csv_header(), job)) return code;
    const bool cuda = job.cuda;
    const int device = job.device;
    RankStrip* strip = job.strip.get();
    const bool device_buffers = job.device_buffers, overlapped = job.overlapped;

    std::vector<RankTimes> runs;
    std::vector<double> ms_per_step;
    std::uint64_t checksum = 0;
    std::string failure;
    try {
        RankRun run(world, *strip, o.config.placement.backend, device_buffers, overlapped);
        const int timed = command == "run" ? 1 : o.warmup + o.repeats;
        for (int i = 0; i < timed; ++i) {
            const int steps = command == "run" ? o.steps : std::max(o.steps, 1);
            world.barrier();
            const auto start = std::chrono::steady_clock::now();
            const RankTimes t = run.steps(steps);
            const double ms = world.max(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            if (command == "bench" && i < o.warmup) continue;
            runs.push_back(t);
            ms_per_step.push_back(steps ? ms / steps : 0.0);
        }
        if (o.checksum) {
            const std::vector<double> local = strip->field().download();
            const Strip& s = strip->strip();
            const std::size_t row = local.size() / std::size_t(s.local_rows());
            checksum = field_checksum({ local.begin() + std::ptrdiff_t((s.first_row - s.local_begin) * row),
                                          local.begin() + std::ptrdiff_t((s.end_row - s.local_begin) * row) },
                std::int64_t(s.first_row) * std::int64_t(row));
        }
    } catch (const std::bad_alloc&) {
        failure = out_of_host_memory_reason();
    } catch (const std::exception& e) {
        failure = std::string("run failed: ") + e.what();
    }
    // A failure mid-run leaves the neighbours waiting in an exchange: end the job rather than hang.
    if (!failure.empty()) world.abort(1, failure);
    checksum = world.sum_on_root(checksum);

    // Rank 0 gathers every rank's rows, device and times.
    std::vector<double> mine;
    for (const RankTimes& t : runs) mine.push_back(t.compute_ms), mine.push_back(t.exchange_ms);
    const std::vector<double> times = world.gather_on_root(mine);
    const std::vector<std::string> hosts = world.gather_on_root(world.host());
    const std::string my_device = cuda ? catalogue.name_of(device) : cpu_device_name();
    const std::vector<std::string> names = world.gather_on_root(my_device);
    const std::vector<double> devices = world.gather_on_root(std::vector<double> { double(device) });
    if (world.rank() != 0) return 0;

    const StencilConfig& split = job.plan.split;
    const StripPlan& plan = job.plan.strips;
    std::vector<RankRecord> records(static_cast<std::size_t>(ranks));
    std::vector<std::pair<std::string, int>> gpus; // distinct (host, device)
    for (int r = 0; r < ranks; ++r) {
        RankRecord& rec = records[std::size_t(r)];
        rec.strip = plan.strips[std::size_t(r)];
        rec.device = int(devices[std::size_t(r)]);
        rec.device_name = names[std::size_t(r)];
        rec.host = hosts[std::size_t(r)];
        for (std::size_t i = 0; i < runs.size(); ++i)
            rec.runs.push_back(
                { times[std::size_t(r) * mine.size() + 2 * i], times[std::size_t(r) * mine.size() + 2 * i + 1] });
        if (std::find(gpus.begin(), gpus.end(), std::pair { rec.host, rec.device }) == gpus.end())
            gpus.emplace_back(rec.host, rec.device);
    }
    const HaloPath path = device_buffers ? HaloPath::MpiDevice : HaloPath::MpiHost;
    const std::int64_t halo_bytes = std::int64_t(strip->halo_bytes()) * 2 * (ranks - 1); // received per step

    RunReport total;
    total.command = command;
    total.options = o;
    total.device = my_device;
    total.resources = strip->field().resources();
    total.ms_per_step = ms_per_step;
    std::cout << format_report(total)
              << rank_lines(total, records, job.plan, path, cuda, device_buffers, overlapped, halo_bytes);
    if (o.checksum) {
        char buf[96];
        std::snprintf(
            buf, sizeof buf, "checksum %016llx (the field after %d steps)\n", (unsigned long long)checksum, o.steps);
        std::cout << buf;
    }
    std::cout.flush();
    if (o.csv.empty()) return 0;

    // The CSV: each rank's strip as a domain of its own (its rows plus ghost rows) at the job's step time,
    // then the whole domain ("all").
    std::vector<CsvRow> rows;
    double slowest_compute = 0.0, slowest_exchange = 0.0;
    for (int r = 0; r < ranks; ++r) {
        const RankRecord& rec = records[std::size_t(r)];
        RunReport one = total;
        one.options.config = strip_config(split, rec.strip);
        one.options.config.placement.device = rec.device;
        one.device = rec.device_name;
        std::vector<double> compute, exchange;
        for (const RankTimes& t : rec.runs) compute.push_back(t.compute_ms), exchange.push_back(t.exchange_ms);
        slowest_compute = std::max(slowest_compute, median(compute));
        slowest_exchange = std::max(slowest_exchange, median(exchange));
        CsvRow row = report_csv_row(one);
        for (const std::string& v : { std::to_string(ranks), std::to_string(r), format_number(median(compute)),
                 format_number(median(exchange)) })
            row.push_back(v);
        rows.push_back(row);
    }
    RunReport whole = total;
    whole.options.config.placement.gpus = cuda ? int(gpus.size()) : 1;
    whole.options.config.placement.overlap = overlapped;
    // The halo columns: every rank as a strip of each timed run (report_csv_row takes their medians).
    for (std::size_t i = 0; i < runs.size(); ++i) {
        MultiGpuStats stats;
        stats.ghost_depth = plan.ghost_depth;
        for (int r = 0; r < ranks; ++r) {
            const RankRecord& rec = records[std::size_t(r)];
            StripStats s;
            s.device = rec.device, s.first_row = rec.strip.first_row, s.end_row = rec.strip.end_row;
            s.below = r > 0 ? path : HaloPath::None, s.above = r + 1 < ranks ? path : HaloPath::None;
            s.halo_bytes = std::int64_t(strip->halo_bytes()) * ((r > 0) + (r + 1 < ranks));
            s.compute_ms = rec.runs[i].compute_ms, s.exchange_ms = rec.runs[i].exchange_ms;
            stats.strips.push_back(s);
        }
        whole.strip_stats.push_back(stats);
    }
    CsvRow row = report_csv_row(whole);
    for (const std::string& v :
        { std::to_string(ranks), std::string("all"), format_number(slowest_compute), format_number(slowest_exchange) })
        row.push_back(v);
    rows.push_back(row);
    if (Status s = write_rows(rows); !s) return fail(1, s.reason);
    return 0;
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
