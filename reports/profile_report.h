// SPDX-License-Identifier: MIT
// One profiled launch of `stencilscope-cli profile`, as the CLI prints it and as one CSV row
// (columns: docs/CSV.md, "profile"). Qt-free.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/profiler/collector.h"
#include "gpu/profiler/launch_figures.h"
#include "reports/csv.h"
#include "reports/run_options.h"

#include <string>
#include <vector>

namespace ss {

struct ProfileReport {
    RunOptions options;
    std::string device;
    KernelResources resources;
    std::string timestamp; // ISO 8601 UTC of the launch; empty: when the row is written
    int launch = 0; // 1-based index of the profiled launch (shared by the GPUs of a split run)
    long long iteration = 0; // the step the profiled launch computed (1 = the first)
    ProfiledLaunch profiled;
    std::vector<std::string> dropped; // metrics the chip does not support (empty columns)
    VerdictInputs verdict; // that GPU's measured copy roofline and the ideal DRAM bytes of its cells
    // Whose counters `profiled` holds: a split run reports one GPU at a time (docs/CSV.md, "profile"). With
    // the testing hook several strips share a GPU and are counted together. updated_cells 0: the whole
    // domain (a report filled for one GPU without device_shares).
    DeviceShare gpu;

    std::int64_t cells() const; // the updated cells these counters cover
    // Every figure of the launch (gpu/profiler/launch_figures.h): the one derivation the GUI uses too.
    LaunchFigures figures() const;
    double metric(std::string_view name) const; // NaN when not collected
};

// The ideal DRAM bytes of one launch: updated cells x ideal_bytes_per_cell.
double ideal_launch_bytes(const StencilConfig&);

// One launch on one GPU; on a split run the first line names the GPU and its rows.
std::string format_profile(const ProfileReport&);
// The whole split launch from its per-GPU reports (same launch, one per GPU): the slowest GPU's duration,
// the DRAM bytes of all against the ideal, and the rate against the sum of the GPUs' copy rooflines.
std::string format_profile_all_gpus(const std::vector<ProfileReport>&);
// The whole split launch as one report (what format_profile_all_gpus prints): `gpus` must not be empty.
ProfileReport combined_profile_report(const std::vector<ProfileReport>& gpus);
CsvRow profile_csv_header();
CsvRow profile_csv_row(const ProfileReport&);

} // namespace ss
