// SPDX-License-Identifier: MIT
// What stencilscope-cli's commands share: bad input or a failed run is one line on stderr and an exit
// code (0 success, 1 a run failed, 2 bad input). Qt-free.
#pragma once

#include "reports/csv.h"
#include "reports/run_options.h"

#include <iostream>
#include <string>

namespace ss::cli {

// One line, whatever a path or value in `message` holds.
inline int fail(int code, const std::string& message) {
    std::cerr << "stencilscope-cli: " << one_line(message) << "\n";
    return code;
}

// Before any work: `path` can be written and takes rows under `header` (an existing file must have it).
inline Status check_csv_output(const std::string& path, const CsvRow& header) {
    if (Status s = check_csv_path(path); !s) return s;
    return check_csv_header(path, header);
}

} // namespace ss::cli
