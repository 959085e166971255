// SPDX-License-Identifier: MIT
#include "app/cli/continuous_command.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "app/cli/continuous_rows.h"
#include "app/cli/profile_command.h"
#include "gpu/backends/simulation.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/physics.h"
#include "gpu/profiler/pm_sampling_run.h"
#include "reports/pm_report.h"
#include "reports/run_report.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace ss {
namespace {

using cli::fail;

constexpr std::uint64_t kIntervalNs = 100'000; // 100 us: a 4096^2 R4 step (~0.09 ms) gets a sample or two
constexpr auto kDecodePeriod = std::chrono::milliseconds(10); // 100 samples per device per decode
// Rows are written between steps, at most this often: each write keeps the GPU waiting for the next launch
// (the decode thread must not write: a slow reader would stall it until the hardware buffer overflows).
constexpr auto kWritePeriod = std::chrono::milliseconds(250);

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

} // namespace

PmSamplerOptions continuous_sampler_options() {
    PmSamplerOptions options;
    options.interval_ns = kIntervalNs;
    options.image_samples = 1000; // ~24 MB: ten decode periods' worth (a 20 ms period lost 1.6 ms once at 8192^2)
    options.hardware_buffer_bytes = std::size_t(256) << 20;
    return options;
}

std::chrono::milliseconds continuous_decode_period() {
    return kDecodePeriod;
}

std::string dram_traffic_text(double read_bytes, double write_bytes, long long steps) {
    const double per_step = steps > 0 ? 1.0 / double(steps) : 0.0;
    return "DRAM read " + si_bytes_text(read_bytes) + " in all (" + si_bytes_text(read_bytes * per_step)
        + " per step), write " + si_bytes_text(write_bytes) + " (" + si_bytes_text(write_bytes * per_step)
        + " per step)";
}

int run_continuous_profile(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = o.config;
    int exit_code = 0;
    auto sim = simulation_to_profile(o, catalogue, pm_csv_header(), &exit_code);
    if (!sim) return exit_code;
    std::string why;
    sim->upload(make_initial_field(c, o.config.problem.initial, o.config.problem.seed));
    sim->step(std::max(o.steps, 1)); // compiled and warm before the first sample

    std::vector<int> devices;
    std::map<int, std::string> device_names;
    for (const DeviceShare& share : device_shares(c)) {
        devices.push_back(share.device);
        device_names[share.device] = catalogue.name_of(share.device);
    }
    std::mutex mutex;
    std::vector<PmChunk> arrived; // handed over on the decode thread, written on this one between steps
    auto run = PmSamplingRun::start(
        devices, continuous_sampler_options(), kDecodePeriod,
        [&](PmChunk&& chunk) {
            const std::lock_guard lock(mutex);
            arrived.push_back(std::move(chunk));
        },
        &why);
    if (!run) return fail(1, why);

    std::printf("config   %s\n", describe(c).c_str());
    for (const auto& sampler : run->samplers())
        std::printf("device   GPU %d: %s (%s): %zu metrics in one pass every %.0f us: %s; did not fit: %s\n",
            sampler->device(), catalogue.name_of(sampler->device()).c_str(), sampler->chip().c_str(),
            sampler->metrics().size(), kIntervalNs / 1000.0, join(sampler->metrics()).c_str(),
            join(sampler->left_out()).c_str());
    std::fflush(stdout);

    // The samples' rows are written while the run goes on, every kWritePeriod (continuous_rows.h), and the
    // rest when it ends, also after Ctrl-C: an interrupted profile keeps every row.
    ContinuousRows stream(device_names);
    std::map<int, PmTotals> totals;
    std::size_t rows_written = 0;
    Status written = Status::success();
    const auto write_ready = [&](const std::vector<CsvRow>& rows) {
        if (!written || rows.empty()) return;
        written = cli::write_rows(rows);
        if (written) rows_written += rows.size();
    };
    const auto write_arrived = [&] {
        std::vector<PmChunk> chunks;
        {
            const std::lock_guard lock(mutex);
            chunks.swap(arrived);
        }
        std::vector<CsvRow> rows;
        for (const PmChunk& chunk : chunks) {
            add_to_totals(chunk, &totals[chunk.device]);
            for (CsvRow& row : stream.add(chunk)) rows.push_back(std::move(row));
        }
        write_ready(rows); // one write: whole rows
    };

    cli::stop_at_interrupt();
    const long long first_step = sim->iteration();
    const auto t0 = std::chrono::steady_clock::now();
    double kernel_ms = 0.0;
    auto last_write = t0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < o.continuous_seconds
        && !cli::interrupted() && written) {
        kernel_ms += sim->step(std::max(o.steps, 1)).milliseconds;
        if (std::chrono::steady_clock::now() - last_write < kWritePeriod) continue;
        write_arrived();
        last_write = std::chrono::steady_clock::now();
    }
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const long long steps = sim->iteration() - first_step;
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the last interval completes
    run->finish();
    write_arrived();
    write_ready(stream.finish());
    if (const std::string e = run->error(); !e.empty()) return fail(1, e);

    const int launches_per_step_divisor = fused_steps(c.policy);
    std::printf("ran      %lld steps (%lld launches per GPU strip) in %.3f s, kernel time %.3f s (CUDA events)\n",
        steps, steps / launches_per_step_divisor, wall_s, kernel_ms / 1e3);
    for (int device : devices) {
        const PmTotals& t = totals[device];
        const double read = t.sum("dram__bytes_read.sum"), write = t.sum("dram__bytes_write.sum");
        std::printf("GPU %d    %zu samples covering %.3f s of GPU time%s\n", device, t.samples, t.seconds,
            t.overflow ? "; the hardware buffer OVERFLOWED: samples were lost, totals are low" : "");
        std::printf("         %s\n", dram_traffic_text(read, write, steps).c_str());
        if (t.sums.count("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"))
            std::printf("         local loads %s, local stores %s\n",
                si_bytes_text(t.sum("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")).c_str(),
                si_bytes_text(t.sum("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum")).c_str());
    }
    if (!written) return fail(1, written.reason);
    if (!o.csv.empty()) std::printf("csv      %zu rows -> %s\n", rows_written, o.csv.c_str());
    if (cli::interrupted()) {
        char after[32];
        std::snprintf(after, sizeof after, "%.1f s of %.1f s", wall_s, o.continuous_seconds);
        return fail(cli::kInterruptedExit,
            std::string("interrupted after ") + after + " (the rows of every sample so far are written)");
    }
    return 0;
}

} // namespace ss
