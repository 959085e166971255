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

} // namespace ss::cli
