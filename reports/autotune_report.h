// SPDX-License-Identifier: MIT
// The autotune search as CSV rows: `stencilscope-cli autotune --csv` and the GUI's export write the same
// columns (docs/CSV.md). Qt-free.
#pragma once

#include "gpu/studies/autotune.h"
#include "reports/csv.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ss {

CsvRow autotune_csv_header();
// One row per candidate, in the order given; `timestamp` is stamped on every row.
std::vector<CsvRow> autotune_csv_rows(
    const StencilConfig&, const std::vector<AutotuneResult>&, const std::string& timestamp);

// The rows of one search as it goes, in measurement order (`stencilscope-cli autotune --csv`): measured()
// writes the candidate just timed; finish() writes those of `all` (the search's results, in measurement
// order) that no measured() call wrote: all of them after a cache hit, which times nothing.
class AutotuneRowStream {
public:
    using Write = std::function<Status(const std::vector<CsvRow>&)>;
    AutotuneRowStream(const StencilConfig& config, std::string timestamp, Write write);
    Status measured(const AutotuneResult&);
    Status finish(const std::vector<AutotuneResult>& all);

private:
    StencilConfig m_config;
    std::string m_timestamp;
    Write m_write;
    std::size_t m_written = 0;
};

} // namespace ss
