// SPDX-License-Identifier: MIT
// One run's results, as the CLI prints them and as one CSV row (columns: docs/CSV.md). Qt-free.
#pragma once

#include "gpu/backends/simulation.h"
#include "reports/csv.h"
#include "reports/run_options.h"

#include <limits>
#include <string>
#include <vector>

namespace ss {

struct RunReport {
    std::string command; // run | bench
    RunOptions options;
    std::string device;
    KernelResources resources;
    std::vector<double> ms_per_step; // one entry per timed run
    double copy_gbytes_per_s = 0.0; // 0 when not measured
    std::vector<MultiGpuStats> strip_stats; // one per timed run: its sampled step (multi-GPU runs)
    bool verified = false;
    double rel_l2_error = std::numeric_limits<double>::quiet_NaN();
    // --variant auto: why the configuration's variant, CF and depth were chosen (auto_choice.h); empty otherwise.
    std::string auto_reason;

    double median_ms_per_step() const;
    double gcells_per_s() const;
    double gbytes_per_s() const; // ideal bytes per cell and step (ideal_bytes_per_step) x cells per second
    // The copy roofline of all GPUs used over the single-step ideal bytes per cell; 0 unmeasured. The
    // temporal variant passes it: it moves those bytes once per `depth` steps.
    double single_step_roofline_gcells_per_s() const;
    // 100 x gbytes_per_s against the copy roofline of all GPUs used (one GPU's, measured, x gpus); NaN unmeasured.
    double pct_of_roofline() const;
    // Per strip, the median over the timed runs of its compute and exchange times.
    MultiGpuStats median_strip_stats() const;
    double tolerance() const { return options.config.problem.precision == Precision::FP32 ? 1e-5 : 1e-12; }
    bool passed() const { return verified && rel_l2_error < tolerance(); }
};

// DRAM bytes one step of a run of `steps` steps must move at best per updated cell: ideal_bytes_per_cell once per
// launch, which fuses depth steps in the temporal variant; a run whose steps are no multiple of the depth ends in
// single steps (fused_launches), each moving the whole ideal_bytes_per_cell.
double ideal_bytes_per_step(const StencilConfig&, int steps);
// Launches a run of `steps` steps makes: steps / depth fused launches and steps % depth single steps.
int fused_launches(const StencilConfig&, int steps);

std::string format_report(const RunReport&);
CsvRow report_csv_header();
CsvRow report_csv_row(const RunReport&);
// The column groups other tables (profile) share with the run/bench table, in its order:
// backend .. precision (block dims as in use), and registers .. occupancy_limiter.
CsvRow config_csv_header();
CsvRow config_csv_values(const StencilConfig&, const KernelResources&);
CsvRow resources_csv_header();
CsvRow resources_csv_values(const KernelResources&);

std::string timestamp_now(); // ISO 8601, UTC
// The CPU backend as every report and file names it (the GUI's status bar too): "CPU (N threads)".
std::string cpu_device_name();
std::string format_number(double);
// One way per quantity in the reports (the CSV keeps format_number's digits): bytes moved in SI units
// with fixed decimals ("1.235 GB", "12.35 MB", "512 B"), and a transfer rate "12.3 GB/s", or "n/a (too
// short to time)" when no time was measured (never "0.00 GB/s").
std::string si_bytes_text(double bytes);
std::string transfer_rate_text(double bytes, double milliseconds);

} // namespace ss
