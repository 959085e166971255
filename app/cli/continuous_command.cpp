// SPDX-License-Identifier: MIT
#include "app/cli/continuous_command.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
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
#include <thread>

namespace ss {
namespace {

using cli::fail;

constexpr std::uint64_t kIntervalNs = 100'000; // 100 us: a 4096^2 R4 step (~0.09 ms) gets a sample or two
constexpr auto kDecodePeriod = std::chrono::milliseconds(10); // 100 samples per device per decode

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

} // namespace

int run_continuous_profile(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = o.config;
    int exit_code = 0;
    auto sim = simulation_to_profile(o, catalogue, pm_csv_header(), &exit_code);
    if (!sim) return exit_code;
    std::string why;
    sim->upload(make_initial_field(c, o.config.problem.initial, o.config.problem.seed));
    sim->step(std::max(o.steps, 1)); // compiled and warm before the first sample

    std::vector<int> devices;
    for (const DeviceShare& share : device_shares(c)) devices.push_back(share.device);
    std::mutex mutex;
    std::vector<PmChunk> chunks;
    PmSamplerOptions options;
    options.interval_ns = kIntervalNs;
    options.image_samples = 1000; // ~24 MB: ten decode periods' worth (a 20 ms period lost 1.6 ms once at 8192^2)
    options.hardware_buffer_bytes = std::size_t(256) << 20;
    auto run = PmSamplingRun::start(
        devices, options, kDecodePeriod,
        [&](PmChunk&& chunk) {
            const std::lock_guard lock(mutex);
            chunks.push_back(std::move(chunk));
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

    const long long first_step = sim->iteration();
    const auto t0 = std::chrono::steady_clock::now();
    double kernel_ms = 0.0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < o.continuous_seconds)
        kernel_ms += sim->step(std::max(o.steps, 1)).milliseconds;
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const long long steps = sim->iteration() - first_step;
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // the last interval completes
    run->finish();
    if (const std::string e = run->error(); !e.empty()) return fail(1, e);

    std::map<int, PmTotals> totals;
    std::uint64_t origin = 0;
    for (const PmChunk& chunk : chunks) {
        add_to_totals(chunk, &totals[chunk.device]);
        if (!chunk.samples.empty() && (origin == 0 || chunk.samples.front().start_ns < origin))
            origin = chunk.samples.front().start_ns;
    }
    const int launches_per_step_divisor = fused_steps(c.policy);
    std::printf("ran      %lld steps (%lld launches per GPU strip) in %.3f s, kernel time %.3f s (CUDA events)\n",
        steps, steps / launches_per_step_divisor, wall_s, kernel_ms / 1e3);
    for (int device : devices) {
        const PmTotals& t = totals[device];
        const double read = t.sum("dram__bytes_read.sum"), write = t.sum("dram__bytes_write.sum");
        std::printf("GPU %d    %zu samples covering %.3f s of GPU time%s\n", device, t.samples, t.seconds,
            t.overflow ? "; the hardware buffer OVERFLOWED: samples were lost, totals are low" : "");
        std::printf("         DRAM read  %s in all (%s per step), write %s (%s per step)\n",
            si_bytes_text(read).c_str(), si_bytes_text(steps > 0 ? read / double(steps) : 0.0).c_str(),
            si_bytes_text(write).c_str(), si_bytes_text(steps > 0 ? write / double(steps) : 0.0).c_str());
        if (t.sums.count("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"))
            std::printf("         local loads %s, local stores %s\n",
                si_bytes_text(t.sum("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")).c_str(),
                si_bytes_text(t.sum("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum")).c_str());
    }
    if (!o.csv.empty()) {
        std::vector<CsvRow> rows;
        for (const PmChunk& chunk : chunks)
            for (CsvRow& row : pm_csv_rows(chunk, catalogue.name_of(chunk.device), origin))
                rows.push_back(std::move(row));
        if (Status s = cli::write_rows(rows); !s) return fail(1, s.reason);
        std::printf("csv      %zu rows -> %s\n", rows.size(), o.csv.c_str());
    }
    return 0;
}

} // namespace ss
