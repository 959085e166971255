// SPDX-License-Identifier: MIT
// run and bench on a process grid: every rank steps its box and trades faces axis by axis with each step
// (app/cli/rank_grid_run.h); rank 0 prints one report, the grid and a line per rank, and writes the CSV (a row per
// rank plus the total), as the strips do (mpi_run.cpp).
#include "app/cli/mpi_grid_run.h"

#include "app/cli/rank_grid_run.h"
#include "app/cli/rank_job.h"
#include "gpu/problem/physics.h"
#include "reports/run_report.h"

#include <algorithm>
#include <cstdio>

namespace ss::cli {
namespace {

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

// What the grid's overlap did: the faces of the axes a step finishes first travel during it
// (RankDomainPlan::traded_during_step), the other cut axes' after it.
std::string overlap_text(const RankGridPlan& plan, const RankDomainPlan& mine, bool cuda) {
    const auto during = mine.trade_order.begin() + mine.traded_during_step;
    std::string first, rest; // "z and y"; the other axes the grid cuts
    for (auto a = mine.trade_order.begin(); a != during; ++a)
        first += (first.empty() ? "" : " and ") + std::string(1, axis_name(*a));
    for (auto a = during; a != mine.trade_order.end(); ++a)
        if (plan.grid[std::size_t(*a)] > 1) rest += (rest.empty() ? "" : " and ") + std::string(1, axis_name(*a));
    if (mine.overlap && cuda)
        return "on (the " + first + " faces travel while the rest of the box computes"
            + (rest.empty() ? ")" : "; " + rest + " after the step)");
    if (mine.overlap) return "off (the CPU backend trades after the step, " + first + " first)";
    if (plan.whole.placement.overlap)
        return "off (the grid does not cut " + std::string(plan.whole.problem.dims == 3 ? "y or z" : "y")
            + ", whose faces alone can travel during a step)";
    return "off";
}

// How the faces travel.
std::string halo_text(const GridJob& job) {
    if (job.halo == RankHalo::Peer)
        return std::string(to_string(HaloPath::MpiPeer))
            + " (each rank copies its faces over the GPUs' link: long rows straight into its neighbours' ghost "
              "layers, short rows (x faces) packed into an inbox they unpack; MPI says they landed)";
    if (job.halo == RankHalo::Device)
        return std::string(to_string(HaloPath::MpiDevice)) + " (faces packed on the GPU; CUDA-aware MPI)";
    std::string out = std::string(to_string(HaloPath::MpiHost)) + " (faces packed";
    if (!job.cuda) return out + ")";
    out += " on the GPU, staged through pinned host memory";
    if (job.staged_by_request) out += "; --halo staged";
    if (!job.no_peer_copies.empty()) out += "; no CUDA IPC: " + job.no_peer_copies;
    return out + ")";
}

// The line on the grid, then a line per rank and the halo line.
std::string grid_lines(const GridJob& job, const std::vector<RankRecord>& ranks, bool chosen) {
    const RankGridPlan& plan = job.plan;
    const RankDomainPlan& mine = job.domain->plan();
    const bool cuda = job.cuda;
    const std::size_t hosts = host_count(ranks);
    std::vector<int> smallest = plan.boxes.front().extent, largest = smallest;
    for (const RankBox& b : plan.boxes)
        for (std::size_t a = 0; a < b.extent.size(); ++a)
            smallest[a] = std::min(smallest[a], b.extent[a]), largest[a] = std::max(largest[a], b.extent[a]);
    const std::string boxes
        = smallest == largest ? extent_text(smallest) : extent_text(smallest) + " to " + extent_text(largest);
    char buf[720];
    std::snprintf(buf, sizeof buf,
        "ranks    %zu MPI processes on %zu host%s in a %s grid%s, boxes of %s cells, ghost depth %d, halo %s, axis "
        "by axis, overlap %s\n",
        ranks.size(), hosts, hosts == 1 ? "" : "s", rank_grid_text(plan.grid).c_str(),
        chosen ? " (MPI_Dims_create's factors, the most ranks on the longest axis; --ranks picks another)" : "",
        boxes.c_str(), plan.ghost_depth, halo_text(job).c_str(), overlap_text(plan, mine, cuda).c_str());
    std::string out = buf;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankBox& box = plan.boxes[i];
        std::int64_t cells = 1;
        for (int e : box.extent) cells *= e;
        out += rank_line(i, ranks[i], cuda, "box " + box_text(box, plan.ghost_depth), cells);
    }
    return out + halo_line(ranks, job.halo == RankHalo::Peer ? "copying the faces and " : "packing the faces and ");
}

} // namespace

int run_grid(const std::string& command, RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue,
    const CsvRow& csv_header) {
    GridJob job;
    if (int code = start_grid_job(o, world, catalogue, csv_header, job)) return code;
    RankDomain& domain = *job.domain;

    TimedRuns timed;
    std::uint64_t checksum = 0;
    std::size_t received = 0;
    run_or_end_job(world, [&] {
        GridRun run(world, domain, o.config.placement.backend, job.halo);
        received = run.received_bytes();
        timed = time_rank_runs(command, o, world, [&run](int steps) { return run.steps(steps); });
        if (o.checksum)
            checksum = region_checksum(domain.field().download(), domain.plan().local.problem.size,
                owned_region(domain.plan()), domain.plan().origin, o.config.problem.size);
    });
    checksum = world.sum_on_root(checksum);

    const std::string my_device = job.cuda ? catalogue.name_of(job.device) : cpu_device_name();
    const std::vector<RankRecord> records
        = gather_rank_records(world, job.device, my_device, std::int64_t(received), timed.runs);
    if (world.rank() != 0) return 0;

    RunReport total;
    total.command = command;
    total.options = o;
    total.device = my_device;
    total.resources = domain.field().resources();
    total.ms_per_step = timed.ms_per_step;
    print_job_report(total, grid_lines(job, records, o.rank_grid_chosen), checksum);
    if (o.csv.empty()) return 0;

    // The CSV: each rank's box as a domain of its own, then the whole domain. In the halo columns a box's extent
    // along the slowest axis stands for its rows.
    RunReport whole = total;
    whole.options.config.placement.gpus = job.cuda ? gpu_count(records) : 1;
    whole.options.config.placement.overlap = job.cuda && domain.plan().overlap; // what ran: the report's line
    const std::size_t slowest = std::size_t(o.config.problem.dims - 1);
    whole.strip_stats = rank_halo_stats(records, job.plan.ghost_depth, [&](std::size_t r, StripStats& s) {
        const RankBox& box = job.plan.boxes[r];
        s.first_row = box.offset[slowest] + job.plan.ghost_depth;
        s.end_row = s.first_row + box.extent[slowest];
        const HaloPath path = halo_path(job.halo);
        s.below = s.above = records[r].received_bytes > 0 ? path : HaloPath::None;
    });
    return write_rank_rows(
        total, records, [&](std::size_t r) { return local_config(job.plan, job.plan.boxes[r]); }, whole);
}

} // namespace ss::cli
