// SPDX-License-Identifier: MIT
#include "app/cli/cli_output.h"

#include "reports/row_output.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace ss::cli {
namespace {

struct Outputs {
    bool opened = false;
    RowSink csv;
};

Outputs& outputs() {
    static Outputs o;
    return o;
}

} // namespace

Status open_outputs(const RunOptions& o, const CsvRow& header) {
    Outputs& out = outputs();
    if (out.opened) return Status::success();
    if (!o.csv.empty())
        if (Status s = out.csv.open_csv(o.csv, header, STDOUT_FILENO); !s) return s;
    out.opened = true;
    if (out.csv.uses_stdout()) { // the rows keep their copy of stdout; the report goes to stderr
        std::cout.flush();
        std::fflush(stdout);
        ::dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    return Status::success();
}

Status write_rows(const std::vector<CsvRow>& rows) {
    return outputs().csv.write(rows);
}

} // namespace ss::cli
