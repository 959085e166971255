// SPDX-License-Identifier: MIT
// `stencilscope-cli profile` as one process (app/cli/mpi_profile.cpp is the same under mpirun).
#include "app/cli/profile_command.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "gpu/backends/create_simulation.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/profiler/profile_procedure.h"
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
    if (Status s = cli::open_outputs(o, csv_header); !s) return refuse(2, s.reason);
    if (catalogue.devices.empty()) return refuse(1, "GPU counters are unavailable: " + catalogue.unavailable);
    if (!catalogue.find(c.placement.device))
        return refuse(2, "CUDA device " + std::to_string(c.placement.device) + " does not exist");
    const LaunchPlan plan = make_launch_plan(c, catalogue);
    if (!plan.verdict) return refuse(2, plan.verdict.reason);
    std::string why;
    auto sim = create_simulation(plan, catalogue, &why);
    if (!sim) return refuse(1, "cannot create the simulation: " + why);
    *exit_code = 0;
    return sim;
}

int run_profile_command(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const StencilConfig& c = o.config;
    int exit_code = 0;
    auto sim = simulation_to_profile(o, catalogue, profile_csv_header(), &exit_code);
    if (!sim) return exit_code;
    std::string why;

    // The procedure the GUI's metrics follow too (profile_procedure.h): one report per GPU (one on a single
    // GPU), each against its own GPU's copy roofline, measured before the profiler is attached; then one
    // collector per GPU, created on this thread (collector.h).
    const std::vector<ProfileTarget> targets = profile_targets(c, catalogue);
    std::vector<ProfileReport> reports(targets.size());
    for (std::size_t g = 0; g < targets.size(); ++g) {
        ProfileReport& report = reports[g];
        report.options = o;
        report.device = targets[g].device_name;
        report.resources = sim->resources();
        report.gpu = targets[g].share;
        report.verdict = target_verdict_inputs(c, targets[g]);
    }
    CollectorsByDevice owned;
    std::vector<MetricsCollector*> collectors;
    if (!attach_collectors(targets, owned, &collectors, &why)) return fail(1, why);
    for (std::size_t g = 0; g < targets.size(); ++g) reports[g].dropped = collectors[g]->dropped_metrics();

    const ProfileReport& first = reports.front();
    const KernelResources& k = first.resources;
    std::printf("config   %s\n", describe(c).c_str());
    const bool split = targets.size() > 1;
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
    for (std::size_t g = 0; g < reports.size(); ++g) {
        const ProfileReport& r = reports[g];
        std::printf("roofline %s%.1f GB/s device copy%s\n",
            split ? ("GPU " + std::to_string(r.gpu.device) + ": ").c_str() : "", r.verdict.dram_peak_bytes_per_s / 1e9,
            r.verdict.dram_peak_bytes_per_s > 0 ? "" : " (not measured)");
        if (!targets[g].roofline_note.empty()) std::printf("         %s\n", targets[g].roofline_note.c_str());
    }
    std::printf("metrics  %zu collected in %d replay passes", collectors.front()->collected_metrics().size(),
        collectors.front()->passes());
    for (std::size_t i = 0; i < first.dropped.size(); ++i)
        std::printf("%s%s", i ? ", " : "; not supported here: ", first.dropped[i].c_str());
    std::printf("\n\n");

    sim->upload(make_initial_field(c, o.config.problem.initial, o.config.problem.seed));
    std::vector<CsvRow> rows;
    for (int launch = 1; launch <= o.launches; ++launch) {
        ProfiledStep step; // --steps unprofiled steps first, then one profiled launch
        if (!profile_one_launch(*sim, targets, owned, o.steps, &step, &why)) return fail(1, why);
        for (std::size_t g = 0; g < reports.size(); ++g) {
            reports[g].launch = launch;
            reports[g].iteration = step.iteration;
            reports[g].profiled = step.per_gpu[g];
            std::cout << format_profile(reports[g]);
            rows.push_back(profile_csv_row(reports[g]));
        }
        if (reports.size() > 1) std::cout << format_profile_all_gpus(reports);
        std::cout.flush();
        if (Status s = cli::write_rows(rows); !s) return fail(1, s.reason); // each launch's rows as it ends
        rows.clear();
    }
    return 0;
}

} // namespace ss
