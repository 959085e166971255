// SPDX-License-Identifier: MIT
// run and bench on a process grid: every rank steps its box and trades faces axis by axis after each step
// (app/cli/rank_grid_run.h); rank 0 prints one report, the grid and a line per rank, and writes the CSV (a row per
// rank plus the total), as the strips do (mpi_run.cpp).
#include "app/cli/mpi_grid_run.h"

#include "app/cli/address_space.h"
#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/rank_grid_run.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"
#include "reports/run_report.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <new>

namespace ss::cli {
namespace {

// What rank 0 reports of every rank: gathered as numbers.
struct GridRecord {
    int device = 0;
    std::string device_name, host;
    std::int64_t received_bytes = 0; // per step
    std::vector<RankTimes> runs;
};

// A box in global cells, "x 2..34 y 2..41".
std::string box_text(const RankBox& box, int ghost) {
    std::string out;
    for (std::size_t a = 0; a < box.extent.size(); ++a) {
        const int first = box.offset[a] + ghost;
        out += (out.empty() ? "" : " ") + std::string(1, axis_name(int(a))) + " " + std::to_string(first) + ".."
            + std::to_string(first + box.extent[a] - 1);
    }
    return out;
}

std::string extent_text(const std::vector<int>& extent) {
    return rank_grid_text(extent); // the same "AxB[xC]" form as the grid
}

// A rank's box as a domain of its own (its cells plus R ghost layers), for its CSV row.
StencilConfig local_config(const RankGridPlan& plan, const RankBox& box) {
    StencilConfig c = single_gpu_equivalent(plan.whole);
    for (std::size_t a = 0; a < box.extent.size(); ++a)
        extent_along(c.problem.size, int(a)) = box.extent[a] + 2 * plan.ghost_depth;
    return c;
}

std::string grid_lines(const RankGridPlan& plan, const std::vector<GridRecord>& ranks, bool cuda) {
    std::vector<std::string> hosts;
    for (const GridRecord& r : ranks)
        if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
    std::vector<int> smallest = plan.boxes.front().extent, largest = smallest;
    for (const RankBox& b : plan.boxes)
        for (std::size_t a = 0; a < b.extent.size(); ++a)
            smallest[a] = std::min(smallest[a], b.extent[a]), largest[a] = std::max(largest[a], b.extent[a]);
    const std::string boxes
        = smallest == largest ? extent_text(smallest) : extent_text(smallest) + " to " + extent_text(largest);
    char buf[400];
    std::snprintf(buf, sizeof buf,
        "ranks    %zu MPI processes on %zu host%s in a %s grid, boxes of %s cells, ghost depth %d, halo %s (faces "
        "packed, axis by axis)%s, overlap off\n",
        ranks.size(), hosts.size(), hosts.size() == 1 ? "" : "s", rank_grid_text(plan.grid).c_str(), boxes.c_str(),
        plan.ghost_depth, std::string(to_string(HaloPath::MpiHost)).c_str(),
        cuda ? " staged through pinned host memory" : "");
    std::string out = buf;
    double slowest_exchange = 0.0;
    std::int64_t halo_bytes = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const GridRecord& r = ranks[i];
        std::vector<double> compute, exchange;
        for (const RankTimes& t : r.runs) compute.push_back(t.compute_ms), exchange.push_back(t.exchange_ms);
        const double cms = median(compute), ems = median(exchange);
        slowest_exchange = std::max(slowest_exchange, ems);
        halo_bytes += r.received_bytes;
        const std::string where = cuda ? "GPU " + std::to_string(r.device) : cpu_device_name();
        const RankBox& box = plan.boxes[i];
        std::int64_t cells = 1;
        for (int e : box.extent) cells *= e;
        std::snprintf(buf, sizeof buf,
            "  rank %zu %s on %s box %s: %.4f ms compute (%.2f GCells/s), exchange %.4f ms\n", i, where.c_str(),
            r.host.c_str(), box_text(box, plan.ghost_depth).c_str(), cms, gcells_per_second(double(cells), 1, cms),
            ems);
        out += buf;
    }
    std::snprintf(buf, sizeof buf,
        "halo     %s per step, slowest exchange %.4f ms: %s (means per step, median of the timed runs; "
        "an exchange includes packing the faces and waiting for the neighbours)\n",
        bytes_text(halo_bytes).c_str(), slowest_exchange,
        transfer_rate_text(double(halo_bytes), slowest_exchange).c_str());
    return out + buf;
}

} // namespace

int run_grid(const std::string& command, RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue,
    const CsvRow& csv_header) {
    const int ranks = world.size();
    GridJob job;
    if (int code = start_grid_job(o, world, catalogue, csv_header, job)) return code;
    RankDomain& domain = *job.domain;

    std::vector<RankTimes> runs;
    std::vector<double> ms_per_step;
    std::uint64_t checksum = 0;
    std::size_t received = 0;
    std::string failure;
    try {
        GridRun run(world, domain, o.config.placement.backend);
        received = run.received_bytes();
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
        if (o.checksum)
            checksum = region_checksum(domain.field().download(), domain.plan().local.problem.size,
                owned_region(domain.plan()), domain.plan().origin, o.config.problem.size);
    } catch (const std::bad_alloc&) {
        failure = out_of_host_memory_reason();
    } catch (const std::exception& e) {
        failure = std::string("run failed: ") + e.what();
    }
    // A failure mid-run leaves the neighbours waiting in an exchange: end the job rather than hang.
    if (!failure.empty()) world.abort(1, failure);
    checksum = world.sum_on_root(checksum);

    std::vector<double> mine { double(job.device), double(received) };
    for (const RankTimes& t : runs) mine.push_back(t.compute_ms), mine.push_back(t.exchange_ms);
    const std::vector<double> gathered = world.gather_on_root(mine);
    const std::vector<std::string> hosts = world.gather_on_root(world.host());
    const std::string my_device = job.cuda ? catalogue.name_of(job.device) : cpu_device_name();
    const std::vector<std::string> names = world.gather_on_root(my_device);
    if (world.rank() != 0) return 0;

    std::vector<GridRecord> records(static_cast<std::size_t>(ranks));
    std::vector<std::pair<std::string, int>> gpus; // distinct (host, device)
    for (int r = 0; r < ranks; ++r) {
        const double* v = &gathered[std::size_t(r) * mine.size()];
        GridRecord& rec = records[std::size_t(r)];
        rec.device = int(v[0]), rec.received_bytes = std::int64_t(v[1]);
        rec.device_name = names[std::size_t(r)], rec.host = hosts[std::size_t(r)];
        for (std::size_t i = 0; i < runs.size(); ++i) rec.runs.push_back({ v[2 + 2 * i], v[3 + 2 * i] });
        if (std::find(gpus.begin(), gpus.end(), std::pair { rec.host, rec.device }) == gpus.end())
            gpus.emplace_back(rec.host, rec.device);
    }

    RunReport total;
    total.command = command;
    total.options = o;
    total.device = my_device;
    total.resources = domain.field().resources();
    total.ms_per_step = ms_per_step;
    std::cout << format_report(total) << grid_lines(job.plan, records, job.cuda);
    if (o.checksum) {
        char buf[96];
        std::snprintf(
            buf, sizeof buf, "checksum %016llx (the field after %d steps)\n", (unsigned long long)checksum, o.steps);
        std::cout << buf;
    }
    std::cout.flush();
    if (o.csv.empty()) return 0;

    // The CSV: each rank's box as a domain of its own at the job's step time, then the whole domain ("all").
    std::vector<CsvRow> rows;
    double slowest_compute = 0.0, slowest_exchange = 0.0;
    for (int r = 0; r < ranks; ++r) {
        const GridRecord& rec = records[std::size_t(r)];
        RunReport one = total;
        one.options.config = local_config(job.plan, job.plan.boxes[std::size_t(r)]);
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
    whole.options.config.placement.gpus = job.cuda ? int(gpus.size()) : 1;
    // The halo columns: every rank of each timed run, its box's extent along the slowest axis as its rows.
    const int slowest = o.config.problem.dims - 1;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        MultiGpuStats stats;
        stats.ghost_depth = job.plan.ghost_depth;
        for (int r = 0; r < ranks; ++r) {
            const GridRecord& rec = records[std::size_t(r)];
            const RankBox& box = job.plan.boxes[std::size_t(r)];
            StripStats s;
            s.device = rec.device;
            s.first_row = box.offset[std::size_t(slowest)] + job.plan.ghost_depth;
            s.end_row = s.first_row + box.extent[std::size_t(slowest)];
            s.below = s.above = rec.received_bytes > 0 ? HaloPath::MpiHost : HaloPath::None;
            s.halo_bytes = rec.received_bytes;
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

} // namespace ss::cli
