// SPDX-License-Identifier: MIT
#include "app/cli/cli_output.h"

#include "reports/row_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>

#include <cmath>
#include <cstdio>
#include <iostream>

namespace ss::cli {
namespace {

struct Outputs {
    bool opened = false, quiet = false;
    RowSink csv, json;
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
    Status both_on_stdout = Status::failure("--json and --csv " + o.csv + " both want stdout: give --csv a file");
    if (o.json && o.csv == "-") return both_on_stdout;
    if (!o.csv.empty())
        if (Status s = out.csv.open_csv(o.csv, header, STDOUT_FILENO); !s) return s;
    if (o.json && out.csv.uses_stdout()) return both_on_stdout;
    if (o.json)
        if (Status s = out.json.open_json(header, STDOUT_FILENO); !s) return s;
    out.opened = true;
    out.quiet = o.quiet;
    if (o.quiet || out.csv.uses_stdout()
        || out.json.uses_stdout()) { // the rows keep their copy of stdout; the report goes elsewhere
        std::cout.flush();
        std::fflush(stdout);
        const int report = o.quiet ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : STDERR_FILENO;
        if (report < 0) return Status::failure("cannot open /dev/null for --quiet");
        ::dup2(report, STDOUT_FILENO);
        if (report != STDERR_FILENO) ::close(report);
    }
    return Status::success();
}

Status write_rows(const std::vector<CsvRow>& rows) {
    if (Status s = outputs().csv.write(rows); !s) return s;
    return outputs().json.write(rows);
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

Progress::Progress()
    : m_shown(!outputs().quiet && ::isatty(STDERR_FILENO))
    , m_start(std::chrono::steady_clock::now()) { }

Progress::~Progress() {
    clear();
}

void Progress::update(int done, int total, const std::string& what) {
    if (!m_shown || total <= 0) return;
    std::string eta;
    if (done > 0 && done < total) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
        const long seconds = std::lround(elapsed * (total - done) / done);
        char text[32];
        if (seconds >= 60)
            std::snprintf(text, sizeof text, "  ETA %ldm%02lds", seconds / 60, seconds % 60);
        else
            std::snprintf(text, sizeof text, "  ETA %lds", seconds);
        eta = text;
    }
    const std::string count = "[" + std::to_string(done) + "/" + std::to_string(total) + "] ";
    constexpr std::size_t kWidth = 79; // one line of the narrowest usual terminal, redrawn in place
    const std::size_t room = kWidth > count.size() + eta.size() ? kWidth - count.size() - eta.size() : 0;
    std::fprintf(stderr, "\r\x1b[K%s%s%s", count.c_str(), what.substr(0, room).c_str(), eta.c_str());
    std::fflush(stderr);
    m_drawn = true;
}

void Progress::clear() {
    if (!m_drawn) return;
    std::fprintf(stderr, "\r\x1b[K");
    std::fflush(stderr);
    m_drawn = false;
}

} // namespace ss::cli
