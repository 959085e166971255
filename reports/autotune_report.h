// SPDX-License-Identifier: MIT
// The autotune search as CSV rows: `stencilscope-cli autotune --csv` and the GUI's export write the same
// columns (docs/CSV.md). Qt-free.
#pragma once

#include "gpu/studies/autotune.h"
#include "reports/csv.h"

#include <string>
#include <vector>

namespace ss {

CsvRow autotune_csv_header();
// One row per candidate, in the order given; `timestamp` is stamped on every row.
std::vector<CsvRow> autotune_csv_rows(
    const StencilConfig&, const std::vector<AutotuneResult>&, const std::string& timestamp);

} // namespace ss
