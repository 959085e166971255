// SPDX-License-Identifier: MIT
// `stencilscope-cli roofline`: the device's roofline ceilings as the GUI's chart draws them (DRAM copy, L2, fp32 and
// fp64 FMA peaks, each measured in this process or from the catalogue, and says which) and the ridge points; --json
// and --csv write one row. Refuses in one line where there is no GPU. Qt-free.
#pragma once

#include "gpu/problem/device.h"
#include "reports/csv.h"
#include "reports/run_options.h"

namespace ss {

CsvRow roofline_csv_header();

// Returns the exit code: 0, 1 when nothing could be measured, 2 without a CUDA device to measure.
int run_roofline_command(const RunOptions&, const DeviceCatalogue&);

} // namespace ss
