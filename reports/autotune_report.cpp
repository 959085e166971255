// SPDX-License-Identifier: MIT
#include "reports/autotune_report.h"

#include "reports/run_report.h"

#include <utility>

namespace ss {

CsvRow autotune_csv_header() {
    return { "timestamp", "stencil", "rule", "dims", "size", "radius", "variant", "cf", "precision", "block_x",
        "block_y", "block_z", "ms_per_step", "gcells_per_s", "error", "depth" };
}

std::vector<CsvRow> autotune_csv_rows(
    const StencilConfig& c, const std::vector<AutotuneResult>& results, const std::string& timestamp) {
    std::vector<CsvRow> rows;
    for (const AutotuneResult& r : results)
        rows.push_back({ timestamp, std::string(to_string(c.problem.stencil)), std::string(to_string(c.problem.rule)),
            std::to_string(c.problem.dims), format_extent(c.problem.size, c.problem.dims),
            std::to_string(c.problem.radius), std::string(to_string(c.policy.variant)), std::to_string(c.policy.cf),
            std::string(to_string(c.problem.precision)), std::to_string(r.block.x), std::to_string(r.block.y),
            std::to_string(r.block.z), format_number(r.ms_per_step), format_number(r.gcells_per_s), r.error,
            std::to_string(r.depth) });
    return rows;
}

AutotuneRowStream::AutotuneRowStream(const StencilConfig& config, std::string timestamp, Write write)
    : m_config(config)
    , m_timestamp(std::move(timestamp))
    , m_write(std::move(write)) { }

Status AutotuneRowStream::measured(const AutotuneResult& r) {
    ++m_written;
    return m_write(autotune_csv_rows(m_config, { r }, m_timestamp));
}

Status AutotuneRowStream::finish(const std::vector<AutotuneResult>& all) {
    if (m_written >= all.size()) return Status::success();
    const std::vector<AutotuneResult> rest(all.begin() + std::ptrdiff_t(m_written), all.end());
    m_written = all.size();
    return m_write(autotune_csv_rows(m_config, rest, m_timestamp));
}

} // namespace ss
