// SPDX-License-Identifier: MIT
// The continuous counters as `stencilscope-cli profile --continuous` and the GUI's export write them:
// one CSV row per sample per GPU (docs/CSV.md, "continuous"), and the totals over a run of samples
// (the .sum counters integrated, the rates over the sampled time). Qt-free.
#pragma once

#include "gpu/profiler/pm_sampler.h"
#include "reports/csv.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ss {

// timestamp (seconds of GPU time since `origin_ns`, at the sample's end), device, device_name,
// sample_start_ns, sample_end_ns, then one column per pm_candidate_metrics() name (empty where that
// metric was not sampled on the device: it did not fit the one pass).
CsvRow pm_csv_header();
std::vector<CsvRow> pm_csv_rows(const PmChunk&, const std::string& device_name, std::uint64_t origin_ns);

// One device's samples added up: every ".sum" metric (bytes, instructions) summed over the samples, the
// sampled GPU time, and how many samples there were. Rates and percentages are not summed.
struct PmTotals {
    std::size_t samples = 0;
    double seconds = 0.0; // the samples' GPU time together
    bool overflow = false; // samples were lost
    std::map<std::string, double> sums; // by metric name, the ".sum" metrics only
    double sum(const std::string& metric) const; // 0 when not sampled
};
void add_to_totals(const PmChunk&, PmTotals* totals);

} // namespace ss
