// SPDX-License-Identifier: MIT
// `stencilscope-cli profile` as one process (app/cli/mpi_profile.cpp is the same under mpirun).
#include "app/cli/profile_command.h"

#include "app/cli/cli_common.h"
#include "gpu/backends/bandwidth.h"
#include "gpu/backends/create_simulation.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/profiler/collector.h"
#include "reports/profile_report.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace ss {

using cli::fail;

std::unique_ptr<Simulation> simulation_to_profile(
    const RunOptions& o, const DeviceCatalogue& catalogue, const CsvRow& csv_header, int* exit_code) {
    const StencilConfig& c = o.config;
    auto refuse = [exit_code](int code, const std::string& message) {
        *exit_code = fail(code, message);
        return nullptr;
    };
    if (c.placement.backend == Backend::Cpu) return refuse(2, "profile reads GPU counters: use --backend cuda");
    if (!o.csv.empty())
        if (Status s = cli::check_csv_output(o.csv, csv_header); !s) return refuse(2, s.reason);
    if (catalogue.devices.empty()) return refuse(1, "GPU counters are unavailable: " + catalogue.unavailable);
    if (!catalogue.find(c.placement.device))
        return refuse(2, "CUDA device " + std::to_string(c.placement.device) + " does not exist");
    if (Status s = can_implement(c, catalogue); !s) return refuse(2, s.reason);
    std::string why;
    auto sim = create_simulation(c, catalogue, &why);
    if (!sim) return refuse(1, "cannot create the simulation: " + why);
    *exit_code = 0;
    return sim;
}

int run_profile_command(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = o.config;
    int exit_code = 0;
    auto sim = simulation_to_profile(o, catalogue, profile_csv_header(), &exit_code);
    if (!sim) return exit_code;
    const auto& devices = catalogue.devices;
    std::string why;

    // One report per GPU (one on a single GPU), each against its own GPU's copy roofline, measured
    // before the profiler is attached; then one collector per GPU, created on this thread (collector.h).
    const std::vector<DeviceShare> shares = device_shares(c);
    std::vector<ProfileReport> reports(shares.size());
    std::vector<std::unique_ptr<MetricsCollector>> owned;
    std::vector<MetricsCollector*> collectors;
    for (std::size_t g = 0; g < shares.size(); ++g) {
        const int d = shares[g].device;
        const BandwidthResult bw = measure_copy_bandwidth(d, std::int64_t(1) << 29, 5);
        ProfileReport& report = reports[g];
        report.options = o;
        report.device = devices[std::size_t(d)].name;
        report.resources = sim->resources();
        report.gpu = shares[g];
        const double cell_bytes = double(shares[g].updated_cells) * ideal_bytes_per_cell(c);
        report.verdict = { bw.error.empty() ? bw.gbytes_per_s * 1e9 : 0.0, cell_bytes, cell_bytes,
            double(devices[std::size_t(d)].l2_bytes) };
    }
    for (const DeviceShare& share : shares) {
        owned.push_back(create_metrics_collector(share.device, &why));
        if (!owned.back()) return fail(1, shares.size() > 1 ? "GPU " + std::to_string(share.device) + ": " + why : why);
        collectors.push_back(owned.back().get());
        reports[collectors.size() - 1].dropped = owned.back()->dropped_metrics();
    }

    const ProfileReport& first = reports.front();
    const KernelResources& k = first.resources;
    std::printf("config   %s\n", describe(c).c_str());
    const bool split = shares.size() > 1;
    for (const ProfileReport& r : reports) {
        std::printf(
            "device   %s%s", split ? ("GPU " + std::to_string(r.gpu.device) + ": ").c_str() : "", r.device.c_str());
        if (split) std::printf(", rows %d-%d", r.gpu.first_row, r.gpu.end_row - 1);
        if (r.gpu.strips > 1) // STENCILSCOPE_STRIPS_PER_GPU
            std::printf(", %d strips: their counters are this GPU's, counted together", r.gpu.strips);
        std::printf("\n");
    }
    std::printf("kernel   block %s, %d blocks, %d registers/thread, %d B spilled (local), %d B shared/block\n",
        format_block(k.block).c_str(), k.grid_blocks, k.registers, k.local_bytes, k.static_smem + k.dynamic_smem);
    for (const ProfileReport& r : reports)
        std::printf("roofline %s%.1f GB/s device copy%s\n",
            split ? ("GPU " + std::to_string(r.gpu.device) + ": ").c_str() : "", r.verdict.dram_peak_bytes_per_s / 1e9,
            r.verdict.dram_peak_bytes_per_s > 0 ? "" : " (not measured)");
    std::printf("metrics  %zu collected in %d replay passes", collectors.front()->collected_metrics().size(),
        collectors.front()->passes());
    for (std::size_t i = 0; i < first.dropped.size(); ++i)
        std::printf("%s%s", i ? ", " : "; not supported here: ", first.dropped[i].c_str());
    std::printf("\n\n");

    sim->upload(make_initial_field(c, o.config.problem.initial, o.config.problem.seed));
    std::vector<CsvRow> rows;
    std::vector<ProfiledLaunch> per_gpu;
    for (int launch = 1; launch <= o.launches; ++launch) {
        if (o.steps > 0) sim->step(o.steps);
        const long long iteration = sim->iteration() + 1;
        // One launch: the temporal variant's fused steps (one step would run its one-step kernel).
        if (!profile_devices(
                collectors, [&sim, &c] { sim->step_for_profiling(fused_steps(c.policy)); }, &per_gpu, &why))
            return fail(1, why);
        for (std::size_t g = 0; g < reports.size(); ++g) {
            reports[g].launch = launch;
            reports[g].iteration = iteration;
            reports[g].profiled = per_gpu[g];
            std::cout << format_profile(reports[g]);
            rows.push_back(profile_csv_row(reports[g]));
        }
        if (reports.size() > 1) std::cout << format_profile_all_gpus(reports);
        std::cout.flush();
    }
    if (!o.csv.empty())
        if (Status s = append_csv(o.csv, profile_csv_header(), rows); !s) return fail(1, s.reason);
    return 0;
}

} // namespace ss
