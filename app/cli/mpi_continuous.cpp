// SPDX-License-Identifier: MIT
// `mpirun -np N stencilscope-cli profile --continuous SECONDS` (issue 37): every rank steps its strip and trades rows
// as under `run` while CUPTI PM sampling reads its own GPU's counters every 100 us (no replay, so the ranks never take
// turns); rank 0 keeps the time and says when to stop (one collective per batch of steps, so that every rank runs the
// same exchanges). Rank 0 then prints a line per rank and the whole job; its CSV has a row per rank and the total
// (docs/CSV.md, "continuous under mpirun"). One profiler per GPU: ranks that share one are refused.
#include "app/cli/mpi_continuous.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/continuous_command.h"
#include "app/cli/rank_run.h"
#include "gpu/profiler/pm_sampling_run.h"
#include "reports/pm_report.h"
#include "reports/run_report.h"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

namespace ss::cli {
namespace {

// What each rank sends rank 0, in this order.
enum Field { kDevice, kSamples, kSeconds, kOverflow, kRead, kWrite, kLocalLoad, kLocalStore, kKernelMs, kFields };

CsvRow continuous_ranks_header() {
    return { "ranks", "rank", "host", "device", "device_name", "steps", "samples", "sampled_s", "overflow",
        "dram_read_bytes", "dram_write_bytes", "dram_read_bytes_per_step", "dram_write_bytes_per_step",
        "local_load_bytes", "local_store_bytes", "kernel_ms_per_step" };
}

CsvRow rank_row(int ranks, const std::string& rank, const std::string& host, const std::string& device,
    const std::string& name, long long steps, const double* f) {
    const double per_step = steps > 0 ? 1.0 / double(steps) : 0.0;
    return { std::to_string(ranks), rank, host, device, name, std::to_string(steps),
        std::to_string((long long)f[kSamples]), format_number(f[kSeconds]), f[kOverflow] > 0 ? "1" : "0",
        format_number(f[kRead]), format_number(f[kWrite]), format_number(f[kRead] * per_step),
        format_number(f[kWrite] * per_step), format_number(f[kLocalLoad]), format_number(f[kLocalStore]),
        format_number(f[kKernelMs] * per_step) };
}

std::string traffic_text(const double* f, long long steps) {
    return dram_traffic_text(f[kRead], f[kWrite], steps)
        + (f[kOverflow] > 0 ? "; the hardware buffer OVERFLOWED: samples were lost, totals are low" : "");
}

} // namespace

int continuous_under_mpi(RunOptions o, MpiWorld& world, const DeviceCatalogue& catalogue) {
    const int ranks = world.size();
    RankJob job;
    if (int code = start_rank_job(o, world, catalogue, true, continuous_ranks_header(), job)) return code;
    // One PM sampler per GPU: ranks sharing one would sample each other's kernels, and the second is refused.
    const std::vector<std::string> places = world.gather_on_root(world.host() + " GPU " + std::to_string(job.device));
    std::string shared;
    if (world.rank() == 0) {
        std::set<std::string> seen;
        for (int r = 0; r < ranks && shared.empty(); ++r)
            if (!seen.insert(places[std::size_t(r)]).second)
                shared = "profile --continuous under mpirun samples each GPU from one rank, and rank "
                    + std::to_string(r) + " shares " + places[std::size_t(r)] + " with another: start one rank per GPU";
    }
    if (int code = world.agree(shared.empty() ? 0 : 2, shared)) return code;

    RankRun run(world, *job.strip, Backend::Cuda, job.halo, job.overlapped);
    const int batch = std::max(o.steps, 1);
    run_or_end_job(world, [&] { run.steps(batch); }); // compiled and warm before the first sample

    std::mutex mutex;
    PmTotals totals;
    std::string why;
    auto sampling = PmSamplingRun::start(
        { job.device }, continuous_sampler_options(), continuous_decode_period(),
        [&](PmChunk&& chunk) {
            const std::lock_guard lock(mutex);
            add_to_totals(chunk, &totals);
        },
        &why);
    if (int code = world.agree(sampling ? 0 : 1, why)) return code;

    stop_at_interrupt();
    const auto t0 = std::chrono::steady_clock::now();
    long long steps = 0;
    double kernel_ms = 0.0;
    bool stop = false;
    while (!stop) {
        run_or_end_job(world, [&] { kernel_ms += run.steps(batch).compute_ms * batch; });
        steps += batch;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const bool time_up = world.rank() == 0 && elapsed >= o.continuous_seconds;
        stop = world.max(time_up || interrupted() ? 1.0 : 0.0) > 0.0; // every rank the same exchanges
    }
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the last interval completes
    sampling->finish();
    const std::string error = sampling->error();
    if (int code = world.agree(error.empty() ? 0 : 1, error)) return code;

    std::vector<double> mine(kFields, 0.0);
    mine[kDevice] = job.device, mine[kSamples] = double(totals.samples), mine[kSeconds] = totals.seconds;
    mine[kOverflow] = totals.overflow, mine[kRead] = totals.sum("dram__bytes_read.sum");
    mine[kWrite] = totals.sum("dram__bytes_write.sum");
    mine[kLocalLoad] = totals.sum("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum");
    mine[kLocalStore] = totals.sum("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum");
    mine[kKernelMs] = kernel_ms;
    const std::vector<double> all = world.gather_on_root(mine);
    const std::vector<std::string> names = world.gather_on_root(catalogue.name_of(job.device));
    const std::vector<std::string> hosts = world.gather_on_root(world.host());
    if (world.rank() != 0) return 0;

    std::vector<double> job_total(kFields, 0.0);
    std::vector<CsvRow> rows;
    std::printf("config   %s\n", describe(o.config).c_str());
    std::printf("ranks    %d MPI processes, strips along %s, halo %s; each samples its own GPU every 100 us\n", ranks,
        o.config.problem.dims == 3 ? "z" : "y", std::string(to_string(halo_path(job.halo))).c_str());
    std::printf("ran      %lld steps in %.3f s\n", steps, wall_s);
    for (int r = 0; r < ranks; ++r) {
        const double* f = &all[std::size_t(r) * kFields];
        for (int k = kSamples; k < kFields; ++k) job_total[std::size_t(k)] += k == kOverflow ? (f[k] > 0) : f[k];
        const std::string& host = hosts[std::size_t(r)];
        std::printf("  rank %d GPU %d on %s: %lld samples over %.3f s of GPU time, %s\n", r, int(f[kDevice]),
            host.c_str(), (long long)f[kSamples], f[kSeconds], traffic_text(f, steps).c_str());
        rows.push_back(
            rank_row(ranks, std::to_string(r), host, std::to_string(int(f[kDevice])), names[std::size_t(r)], steps, f));
    }
    job_total[kKernelMs] /= ranks; // the total row's kernel time: the ranks' mean
    std::printf("job      %s\n", traffic_text(job_total.data(), steps).c_str());
    rows.push_back(rank_row(ranks, "all", "", "", "", steps, job_total.data()));
    if (!o.csv.empty()) {
        if (Status s = write_rows(rows); !s) return fail(1, s.reason);
        std::printf("csv      %zu rows -> %s\n", rows.size(), o.csv.c_str());
    }
    std::fflush(stdout);
    if (interrupted()) return fail(kInterruptedExit, "interrupted after " + format_number(wall_s) + " s");
    return 0;
}

} // namespace ss::cli
