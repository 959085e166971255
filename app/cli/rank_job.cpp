// SPDX-License-Identifier: MIT
#include "app/cli/rank_job.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/rates.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <utility>

namespace ss::cli {

TimedRuns time_rank_runs(
    const std::string& command, const RunOptions& o, MpiWorld& world, const std::function<RankTimes(int)>& steps) {
    TimedRuns timed;
    const int count = command == "run" ? 1 : o.warmup + o.repeats;
    for (int i = 0; i < count; ++i) {
        const int n = command == "run" ? o.steps : std::max(o.steps, 1);
        world.barrier();
        const auto start = std::chrono::steady_clock::now();
        const RankTimes t = steps(n);
        const double ms
            = world.max(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        if (command == "bench" && i < o.warmup) continue;
        timed.runs.push_back(t);
        timed.ms_per_step.push_back(n ? ms / n : 0.0);
    }
    return timed;
}

double RankRecord::median_compute_ms() const {
    std::vector<double> compute;
    for (const RankTimes& t : runs) compute.push_back(t.compute_ms);
    return median(compute);
}

double RankRecord::median_exchange_ms() const {
    std::vector<double> exchange;
    for (const RankTimes& t : runs) exchange.push_back(t.exchange_ms);
    return median(exchange);
}

std::vector<RankRecord> gather_rank_records(MpiWorld& world, int device, const std::string& device_name,
    std::int64_t received_bytes, const std::vector<RankTimes>& runs) {
    std::vector<double> mine { double(device), double(received_bytes) };
    for (const RankTimes& t : runs) mine.push_back(t.compute_ms), mine.push_back(t.exchange_ms);
    const std::vector<double> gathered = world.gather_on_root(mine);
    const std::vector<std::string> hosts = world.gather_on_root(world.host());
    const std::vector<std::string> names = world.gather_on_root(device_name);
    std::vector<RankRecord> records;
    if (world.rank() != 0) return records;
    for (std::size_t r = 0; r < std::size_t(world.size()); ++r) {
        const double* v = &gathered[r * mine.size()];
        RankRecord& rec = records.emplace_back();
        rec.device = int(v[0]), rec.received_bytes = std::int64_t(v[1]);
        rec.device_name = names[r], rec.host = hosts[r];
        for (std::size_t i = 0; i < runs.size(); ++i) rec.runs.push_back({ v[2 + 2 * i], v[3 + 2 * i] });
    }
    return records;
}

std::size_t host_count(const std::vector<RankRecord>& ranks) {
    std::vector<std::string> hosts;
    for (const RankRecord& r : ranks)
        if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end()) hosts.push_back(r.host);
    return hosts.size();
}

int gpu_count(const std::vector<RankRecord>& ranks) {
    std::vector<std::pair<std::string, int>> gpus;
    for (const RankRecord& r : ranks)
        if (std::find(gpus.begin(), gpus.end(), std::pair { r.host, r.device }) == gpus.end())
            gpus.emplace_back(r.host, r.device);
    return int(gpus.size());
}

std::string rank_line(
    std::size_t rank, const RankRecord& record, bool cuda, const std::string& place, std::int64_t cells) {
    const double cms = record.median_compute_ms(), ems = record.median_exchange_ms();
    const std::string where = cuda ? "GPU " + std::to_string(record.device) : cpu_device_name();
    char buf[400];
    std::snprintf(buf, sizeof buf, "  rank %zu %s on %s %s: %.4f ms compute (%.2f GCells/s), exchange %.4f ms\n", rank,
        where.c_str(), record.host.c_str(), place.c_str(), cms, gcells_per_second(double(cells), 1, cms), ems);
    return buf;
}

std::string halo_line(const std::vector<RankRecord>& ranks, const std::string& exchange_includes) {
    double slowest_exchange = 0.0;
    std::int64_t halo_bytes = 0;
    for (const RankRecord& r : ranks)
        slowest_exchange = std::max(slowest_exchange, r.median_exchange_ms()), halo_bytes += r.received_bytes;
    char buf[400];
    std::snprintf(buf, sizeof buf,
        "halo     %s per step, slowest exchange %.4f ms: %s (means per step, median of the timed runs; "
        "an exchange includes %swaiting for the neighbours)\n",
        bytes_text(halo_bytes).c_str(), slowest_exchange,
        transfer_rate_text(double(halo_bytes), slowest_exchange).c_str(), exchange_includes.c_str());
    return buf;
}

void print_job_report(const RunReport& total, const std::string& rank_lines, std::uint64_t checksum) {
    std::cout << format_report(total) << rank_lines;
    if (total.options.checksum) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "checksum %016llx (the field after %d steps)\n", (unsigned long long)checksum,
            total.options.steps);
        std::cout << buf;
    }
    std::cout.flush();
}

std::vector<MultiGpuStats> rank_halo_stats(const std::vector<RankRecord>& ranks, int ghost_depth,
    const std::function<void(std::size_t rank, StripStats&)>& place) {
    std::vector<MultiGpuStats> runs;
    for (std::size_t i = 0; !ranks.empty() && i < ranks.front().runs.size(); ++i) {
        MultiGpuStats stats;
        stats.ghost_depth = ghost_depth;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            StripStats s;
            s.device = ranks[r].device;
            place(r, s);
            s.halo_bytes = ranks[r].received_bytes;
            s.compute_ms = ranks[r].runs[i].compute_ms, s.exchange_ms = ranks[r].runs[i].exchange_ms;
            stats.strips.push_back(s);
        }
        runs.push_back(stats);
    }
    return runs;
}

int write_rank_rows(const RunReport& total, const std::vector<RankRecord>& ranks,
    const std::function<StencilConfig(std::size_t rank)>& local_config, const RunReport& whole) {
    const std::string count = std::to_string(ranks.size());
    std::vector<CsvRow> rows;
    double slowest_compute = 0.0, slowest_exchange = 0.0;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const RankRecord& rec = ranks[r];
        RunReport one = total;
        one.options.config = local_config(r);
        one.options.config.placement.device = rec.device;
        one.device = rec.device_name;
        const double compute = rec.median_compute_ms(), exchange = rec.median_exchange_ms();
        slowest_compute = std::max(slowest_compute, compute);
        slowest_exchange = std::max(slowest_exchange, exchange);
        CsvRow row = report_csv_row(one);
        for (const std::string& v : { count, std::to_string(r), format_number(compute), format_number(exchange) })
            row.push_back(v);
        rows.push_back(row);
    }
    CsvRow row = report_csv_row(whole);
    for (const std::string& v :
        { count, std::string("all"), format_number(slowest_compute), format_number(slowest_exchange) })
        row.push_back(v);
    rows.push_back(row);
    if (Status s = write_rows(rows); !s) return fail(1, s.reason);
    return 0;
}

} // namespace ss::cli
