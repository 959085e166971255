// SPDX-License-Identifier: MIT
// `mpirun -np N stencilscope-cli profile`: every rank runs its strip and trades ghost rows as under
// `run`; at each sampled launch the ranks take turns, one profiling a step of its own strip (kernel
// replay) while the others wait, so that ranks sharing a GPU never count each other's kernels and never
// attach two profilers to one device at once (each holds the range profiler for its turn only). Then they trade the
// step's rows. Rank 0 prints a report per rank and, when no two ranks share a GPU, the whole run; its CSV has a row per
// rank (plus the total).
#include "app/cli/mpi_profile.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/mpi_continuous.h"
#include "app/cli/rank_run.h"
#include "gpu/backends/bandwidth.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/physics.h"
#include "gpu/profiler/collector.h"
#include "reports/profile_report.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <set>
#include <utility>

namespace ss::cli {
namespace {

CsvRow mpi_profile_csv_header() {
    CsvRow h = profile_csv_header();
    for (const char* c : { "ranks", "rank" }) h.emplace_back(c);
    return h;
}

// A rank's launch as numbers, for the gather: kernels, passes, wall ms, then every metric (NaN: absent).
std::vector<double> flatten(const ProfiledLaunch& p) {
    std::vector<double> v { double(p.kernels), double(p.passes), p.wall_ms };
    for (const std::string& name : profiled_metric_names()) {
        const auto it = p.metrics.find(name);
        v.push_back(it == p.metrics.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
    return v;
}

ProfiledLaunch unflatten(const double* v) {
    ProfiledLaunch p;
    p.kernels = int(v[0]), p.passes = int(v[1]), p.wall_ms = v[2];
    std::size_t i = 3;
    for (const std::string& name : profiled_metric_names()) {
        if (!std::isnan(v[i])) p.metrics[name] = v[i];
        ++i;
    }
    return p;
}

// Runs `work` on this rank in its turn, every other rank waiting at a barrier.
template <class Work> void in_turns(MpiWorld& world, Work&& work) {
    for (int turn = 0; turn < world.size(); ++turn) {
        if (turn == world.rank()) work();
        world.barrier();
    }
}

} // namespace

int profile_under_mpi(RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue) {
    const int ranks = world.size();
    if (o.continuous_seconds > 0) return continuous_under_mpi(o, world, catalogue);
    RankJob job;
    if (int code = start_rank_job(o, world, catalogue, true, mpi_profile_csv_header(), job)) return code;
    RankStrip& strip = *job.strip;

    // This rank's copy roofline and its collector's metric set, one rank at a time (ranks may share a GPU).
    // A collector lives for its rank's turn only: the range profiler stays enabled on the device while one
    // exists, and another process's profiler then finds the device busy (CUPTI_ERROR_HARDWARE_BUSY).
    double peak_bytes_per_s = 0.0;
    std::size_t metric_count = 0;
    int passes = 0;
    std::string why;
    const auto with_collector = [&](const std::function<bool(MetricsCollector&)>& use) {
        std::unique_ptr<MetricsCollector> collector = create_metrics_collector(job.device, &why);
        const bool ok = collector && use(*collector);
        collector.reset();
        release_range_profiler(job.device);
        return ok;
    };
    bool ok = true;
    in_turns(world, [&] {
        peak_bytes_per_s = measure_copy_roofline(job.device).bytes_per_s(); // the one roofline of every program
        ok = with_collector([&](MetricsCollector& c) {
            metric_count = c.collected_metrics().size(), passes = c.passes();
            return true;
        });
    });
    if (int code = world.agree(ok ? 0 : 1, "GPU counters: " + why)) return code;

    // What rank 0 reports of every rank: its strip, device and roofline.
    const StencilConfig& split = job.plan.split;
    const Strip& mine = strip.strip();
    const std::vector<double> shares
        = world.gather_on_root(std::vector<double> { double(job.device), double(mine.first_row), double(mine.end_row),
            double(updated_cells(strip_config(split, mine))), peak_bytes_per_s });
    const std::vector<std::string> names = world.gather_on_root(catalogue.name_of(job.device));
    const std::vector<std::string> hosts = world.gather_on_root(world.host());
    std::vector<ProfileReport> reports;
    bool shared_gpu = false;
    if (world.rank() == 0) {
        std::set<std::pair<std::string, int>> gpus;
        for (int r = 0; r < ranks; ++r) {
            const double* s = &shares[std::size_t(r) * 5];
            ProfileReport report;
            report.options = o;
            report.options.config = split;
            report.device = names[std::size_t(r)];
            report.resources = strip.field().resources(); // the same kernels on every rank
            report.gpu = { int(s[0]), 1, int(s[1]), int(s[2]), std::int64_t(s[3]) };
            const double cell_bytes = s[3] * ideal_bytes_per_cell(o.config);
            const DeviceInfo* info = catalogue.find(int(s[0]));
            report.verdict = { s[4], cell_bytes, cell_bytes, info ? double(info->l2_bytes) : 0.0 };
            reports.push_back(report);
            shared_gpu |= !gpus.emplace(hosts[std::size_t(r)], int(s[0])).second;
        }
        std::printf("config   %s\n", describe(o.config).c_str());
        std::printf("ranks    %d MPI processes, strips along %s; each profiles one step of its strip in turn "
                    "while the others wait, then they trade the step's rows%s\n",
            ranks, o.config.problem.dims == 3 || o.config.problem.stencil == StencilKind::Diffusion4 ? "z" : "y",
            shared_gpu ? "; ranks share a GPU, so no whole-run figure is formed" : "");
        for (int r = 0; r < ranks; ++r)
            std::printf("  rank %d GPU %d on %s: %s, copy roofline %.1f GB/s%s\n", r,
                reports[std::size_t(r)].gpu.device, hosts[std::size_t(r)].c_str(), names[std::size_t(r)].c_str(),
                reports[std::size_t(r)].verdict.dram_peak_bytes_per_s / 1e9,
                reports[std::size_t(r)].verdict.dram_peak_bytes_per_s > 0 ? "" : " (not measured)");
        std::printf("metrics  %zu collected in %d replay passes\n\n", metric_count, passes);
    }

    std::vector<CsvRow> rows;
    RankRun run(world, strip, Backend::Cuda, job.halo, job.overlapped);
    for (int launch = 1; launch <= o.launches; ++launch) {
        if (o.steps > 0) run.steps(o.steps);
        const long long iteration = strip.field().iteration() + 1;
        ProfiledLaunch profiled;
        in_turns(world, [&] {
            ok = with_collector(
                [&](MetricsCollector& c) { return c.profile([&strip] { strip.compute_step(); }, &profiled, &why); });
        });
        if (int code = world.agree(ok ? 0 : 1, why)) return code;
        run.exchange_after_step();
        const std::vector<double> all = world.gather_on_root(flatten(profiled));
        if (world.rank() != 0) continue;
        const std::size_t stride = all.size() / std::size_t(ranks);
        for (int r = 0; r < ranks; ++r) {
            ProfileReport& report = reports[std::size_t(r)];
            report.launch = launch, report.iteration = iteration, report.timestamp.clear();
            report.profiled = unflatten(&all[std::size_t(r) * stride]);
            std::cout << "rank " << r << ": " << format_profile(report);
            CsvRow row = profile_csv_row(report);
            row.push_back(std::to_string(ranks)), row.push_back(std::to_string(r));
            rows.push_back(row);
        }
        if (!shared_gpu) {
            std::cout << format_profile_all_gpus(reports);
            CsvRow row = profile_csv_row(combined_profile_report(reports));
            row[1] = "all ranks";
            row.push_back(std::to_string(ranks)), row.push_back("all");
            rows.push_back(row);
        }
        std::cout.flush();
    }
    if (world.rank() != 0 || o.csv.empty()) return 0;
    if (Status s = write_rows(rows); !s) return fail(1, s.reason);
    return 0;
}

} // namespace ss::cli
