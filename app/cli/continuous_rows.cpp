// SPDX-License-Identifier: MIT
#include "app/cli/continuous_rows.h"

#include "reports/pm_report.h"

#include <algorithm>
#include <utility>

namespace ss {

ContinuousRows::ContinuousRows(std::map<int, std::string> device_names)
    : m_names(std::move(device_names)) { }

std::vector<CsvRow> ContinuousRows::add(const PmChunk& chunk) {
    if (chunk.samples.empty()) return {};
    if (m_origin) {
        const auto name = m_names.find(chunk.device);
        return pm_csv_rows(chunk, name == m_names.end() ? "" : name->second, *m_origin);
    }
    m_first_start.emplace(chunk.device, chunk.samples.front().start_ns); // kept only for a GPU's first chunk
    m_waiting.push_back(chunk);
    const bool every_gpu_sampled = std::all_of(
        m_names.begin(), m_names.end(), [&](const auto& named) { return m_first_start.count(named.first) > 0; });
    return every_gpu_sampled ? release_waiting() : std::vector<CsvRow> {};
}

std::vector<CsvRow> ContinuousRows::finish() {
    return m_waiting.empty() ? std::vector<CsvRow> {} : release_waiting();
}

std::vector<CsvRow> ContinuousRows::release_waiting() {
    std::uint64_t origin = m_first_start.begin()->second;
    for (const auto& [device, start] : m_first_start) origin = std::min(origin, start);
    m_origin = origin;
    std::vector<CsvRow> rows;
    for (const PmChunk& chunk : std::exchange(m_waiting, {}))
        for (CsvRow& row : add(chunk)) rows.push_back(std::move(row));
    return rows;
}

} // namespace ss
