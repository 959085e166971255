// SPDX-License-Identifier: MIT
#include "reports/pm_report.h"

#include "reports/run_report.h"

#include <cstdio>

namespace ss {
namespace {

bool ends_with_sum(const std::string& name) {
    constexpr std::string_view kSum = ".sum";
    return name.size() >= kSum.size() && name.compare(name.size() - kSum.size(), kSum.size(), kSum) == 0;
}

} // namespace

CsvRow pm_csv_header() {
    CsvRow header { "timestamp", "device", "device_name", "sample_start_ns", "sample_end_ns" };
    for (const std::string& m : pm_candidate_metrics()) header.push_back(m);
    return header;
}

std::vector<CsvRow> pm_csv_rows(const PmChunk& chunk, const std::string& device_name, std::uint64_t origin_ns) {
    const std::vector<std::string> columns = pm_candidate_metrics();
    std::vector<int> source(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) source[c] = chunk.column(columns[c]);
    std::vector<CsvRow> rows;
    for (const PmSample& s : chunk.samples) {
        const double t
            = s.end_ns >= origin_ns ? double(s.end_ns - origin_ns) * 1e-9 : -double(origin_ns - s.end_ns) * 1e-9;
        char when[32]; // microseconds: format_number's 6 digits would blur 100 us samples after 10 s
        std::snprintf(when, sizeof when, "%.6f", t);
        CsvRow row { when, std::to_string(chunk.device), device_name, std::to_string(s.start_ns),
            std::to_string(s.end_ns) };
        for (std::size_t c = 0; c < columns.size(); ++c)
            row.push_back(source[c] >= 0 && std::size_t(source[c]) < s.values.size()
                    ? format_number(s.values[std::size_t(source[c])])
                    : "");
        rows.push_back(std::move(row));
    }
    return rows;
}

double PmTotals::sum(const std::string& metric) const {
    const auto it = sums.find(metric);
    return it == sums.end() ? 0.0 : it->second;
}

void add_to_totals(const PmChunk& chunk, PmTotals* totals) {
    totals->overflow = totals->overflow || chunk.overflow;
    for (const PmSample& s : chunk.samples) {
        ++totals->samples;
        totals->seconds += s.seconds();
        for (std::size_t i = 0; i < chunk.metrics.size() && i < s.values.size(); ++i)
            if (ends_with_sum(chunk.metrics[i])) totals->sums[chunk.metrics[i]] += s.values[i];
    }
}

} // namespace ss
