// SPDX-License-Identifier: MIT
// Where stencilscope-cli's output goes, as the tools people pipe together expect: the rows (--csv FILE,
// "-" for stdout; --json: JSON Lines on stdout) are written as each one is measured, and the human
// report goes to stdout, to stderr when the rows take stdout, or nowhere with --quiet. Progress is
// drawn only on a terminal. Set up once per process, before any work. Qt-free.
#pragma once

#include "reports/csv.h"
#include "reports/run_options.h"

#include <chrono>
#include <string>
#include <vector>

namespace ss::cli {

// Opens the rows' outputs of `o` under `header` (reports/row_output.h) and points the report away from
// stdout when they take it. A second call (one CSV for every combination of a list) does nothing.
Status open_outputs(const RunOptions& o, const CsvRow& header);

// Whole rows to every output open_outputs opened, at once; success when there is none.
Status write_rows(const std::vector<CsvRow>& rows);

// Ctrl-C (SIGINT) from now on asks the work to stop after the unit in progress (a point, a run), so that
// every row measured so far is written and whole; a second Ctrl-C ends the process at once.
void stop_at_interrupt();
// True once SIGINT arrived after stop_at_interrupt().
bool interrupted();
// The exit status of a command stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
inline constexpr int kInterruptedExit = 130;

// "[k/N] what  ETA 1m05s" on stderr, redrawn in place (\r), only when stderr is a terminal and the
// command is not --quiet: a log file never gets carriage returns. Cleared by clear() and at the end.
class Progress {
public:
    Progress();
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    // `done` of `total` units finished, the last one being `what`.
    void update(int done, int total, const std::string& what);
    // Erases the line (before the report prints on the same terminal).
    void clear();

private:
    bool m_shown, m_drawn = false;
    std::chrono::steady_clock::time_point m_start;
};

} // namespace ss::cli
