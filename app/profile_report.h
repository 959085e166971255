// SPDX-License-Identifier: MIT
// One profiled launch of `stencilscope-cli profile`, as the CLI prints it and as one CSV row
// (columns: docs/CSV.md, "profile"). Qt-free.
#pragma once

#include "app/csv.h"
#include "app/run_options.h"
#include "gpu/profiler/collector.h"
#include "gpu/simulation.h"

#include <string>
#include <vector>

namespace ss {

struct ProfileReport {
    RunOptions options;
    std::string device;
    KernelResources resources;
    std::string timestamp; // ISO 8601 UTC of the launch; empty: when the row is written
    int launch = 0; // 1-based index of the profiled launch
    long long iteration = 0; // the step the profiled launch computed (1 = the first)
    ProfiledLaunch profiled;
    std::vector<std::string> dropped; // metrics the chip does not support (empty columns)
    VerdictInputs verdict; // measured copy roofline and the launch's ideal DRAM bytes

    double duration_ms() const; // gpu__time_duration.sum, all kernels of the launch
    double gcells_per_s() const; // updated cells / duration
    double metric(std::string_view name) const; // NaN when not collected
};

// The ideal DRAM bytes of one launch: updated cells x ideal_bytes_per_cell.
double ideal_launch_bytes(const StencilConfig&);

std::string format_profile(const ProfileReport&);
CsvRow profile_csv_header();
CsvRow profile_csv_row(const ProfileReport&);

} // namespace ss
