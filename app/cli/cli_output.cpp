// SPDX-License-Identifier: MIT
#include "app/cli/cli_output.h"

#include "reports/row_output.h"

#include <csignal>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace ss::cli {
namespace {

struct Outputs {
    bool opened = false;
    RowSink csv;
};

volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void on_interrupt(int) {
    g_interrupted = 1;
    constexpr char kNote[] = "\nstencilscope-cli: stopping after the work in progress (Ctrl-C again to quit now)\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kNote, sizeof kNote - 1); // async-signal-safe
}

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

void stop_at_interrupt() {
    struct sigaction action { };
    action.sa_handler = on_interrupt;
    action.sa_flags = SA_RESETHAND | SA_RESTART; // the second Ctrl-C: the default action, the process ends
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
}

bool interrupted() {
    return g_interrupted != 0;
}

} // namespace ss::cli
