// SPDX-License-Identifier: MIT
// stencilscope-cli among the tools people pipe together (issue 39): "-" and /dev/stdout for --csv, pipes
// and FIFOs, the report on stderr when the rows take stdout. On the CPU backend, small sizes.
#include "command_result.h"
#include "reports/row_output.h"
#include "reports/run_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

// A folder of this process's own, the working directory of every command (so a stray file named "-" shows).
fs::path scratch() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("ss_cli_pipe_" + std::to_string(getpid()));
        fs::remove_all(d);
        fs::create_directories(d);
        std::atexit([] { // a fork()ed child leaves with _exit, which skips this
            std::error_code ignored;
            fs::remove_all(fs::temp_directory_path() / ("ss_cli_pipe_" + std::to_string(getpid())), ignored);
        });
        return d;
    }();
    return dir;
}

// `line` in sh, in scratch(); CLI stands for the program.
Result sh(std::string line) {
    for (std::size_t at; (at = line.find("CLI")) != std::string::npos;) line.replace(at, 3, STENCILSCOPE_CLI);
    const fs::path out = scratch() / ".out", err = scratch() / ".err";
    const std::string command
        = "cd " + scratch().string() + " && { " + line + "; } >" + out.string() + " 2>" + err.string();
    const int status = std::system(command.c_str());
    Result r { WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err) };
    fs::remove(out), fs::remove(err);
    return r;
}

constexpr const char* kSmallRun = "--backend cpu --size 48x40 --steps 2";

} // namespace

TEST(CliPipe, DashIsStdoutAndPythonParsesTheRows) {
    const Result r = sh(std::string("CLI bench ") + kSmallRun
        + " --radius 1,2 --repeats 2 --warmup 1 --csv - | python3 -c \"import csv, sys; rows = list(csv.DictReader("
          "sys.stdin)); assert len(rows) == 2, rows; assert all(float(r['gcells_per_s']) > 0 for r in rows); "
          "print('parsed', len(rows))\"");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, "parsed 2\n") << r.err;
    EXPECT_NE(r.err.find("config   star R2"), std::string::npos) << r.err; // the report, on stderr
    EXPECT_FALSE(fs::exists(scratch() / "-"));
}

TEST(CliPipe, DevStdoutToAPipeOrAFileTakesHeaderAndRows) {
    const Result piped = sh(std::string("CLI run ") + kSmallRun + " --csv /dev/stdout | cat");
    EXPECT_EQ(piped.code, 0) << piped.err;
    EXPECT_EQ(lines(piped.out), 2) << piped.out;
    EXPECT_EQ(piped.out.rfind("timestamp,command,device,", 0), 0u) << piped.out;
    EXPECT_NE(piped.err.find("rate     "), std::string::npos) << piped.err;

    fs::remove(scratch() / "rows.csv");
    const Result first = sh(std::string("CLI run ") + kSmallRun + " --csv /dev/stdout > rows.csv");
    EXPECT_EQ(first.code, 0) << first.err;
    EXPECT_EQ(lines(slurp(scratch() / "rows.csv")), 2) << slurp(scratch() / "rows.csv");
    // Appended by the shell: the header is there already and is not written again.
    const Result again = sh(std::string("CLI run ") + kSmallRun + " --csv - >> rows.csv");
    EXPECT_EQ(again.code, 0) << again.err;
    const std::string text = slurp(scratch() / "rows.csv");
    EXPECT_EQ(lines(text), 3) << text;
    EXPECT_EQ(text.find("timestamp", 1), std::string::npos) << text;
    // Another header in the file stdout appends to: refused before any work, as a --csv FILE is.
    std::ofstream(scratch() / "other.csv") << "a,b\n1,2\n";
    const Result other = sh(std::string("CLI run ") + kSmallRun + " --csv - >> other.csv");
    EXPECT_EQ(other.code, 2);
    EXPECT_NE(other.err.find("header differs"), std::string::npos) << other.err;
    EXPECT_EQ(slurp(scratch() / "other.csv"), "a,b\n1,2\n");
}

TEST(CliPipe, FifoWithAReaderGetsTheRows) {
    const fs::path fifo = scratch() / "rows.fifo";
    fs::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const Result r = sh("(cat rows.fifo > from_fifo.csv &) ; timeout 60 CLI run " + std::string(kSmallRun)
        + " --radius 1,2 --csv rows.fifo; sleep 0.2");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("config   star R1"), std::string::npos) << r.out; // not stdout: the report stays there
    const std::string text = slurp(scratch() / "from_fifo.csv");
    EXPECT_EQ(lines(text), 3) << text; // header + two rows
    EXPECT_EQ(text.rfind("timestamp,command,device,", 0), 0u) << text;
}

TEST(CliPipe, CharacterDeviceTakesTheRows) {
    const Result r = sh(std::string("CLI run ") + kSmallRun + " --csv /dev/null");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("rate     "), std::string::npos) << r.out;
}

// Ctrl-C mid-sweep: the sweep stops after the point in progress, exits 130, and the CSV holds the rows of
// the points measured so far, each whole (docs/CSV.md: never half a row).
TEST(CliPipe, InterruptedSweepKeepsItsWholeRows) {
    const fs::path csv = scratch() / "interrupted.csv", out = scratch() / "interrupted.out";
    fs::remove(csv);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) { // 48 points of about 0.1 s each on the CPU: the signal comes long before the end
        if (!std::freopen(out.c_str(), "w", stdout) || !std::freopen("/dev/null", "w", stderr)) _exit(99);
        execl(STENCILSCOPE_CLI, STENCILSCOPE_CLI, "sweep", "--experiment", "cf", "--backend", "cpu", "--size",
            "1024x1024", "--radius", "1,2,3,4", "--variant", "base,smem,smem_padded", "--cf", "1,2,4,8", "--steps",
            "20", "--repeats", "3", "--csv", csv.c_str(), static_cast<char*>(nullptr));
        _exit(98);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (lines(slurp(csv)) < 3 && std::chrono::steady_clock::now() < deadline) // the header and two rows
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    kill(child, SIGINT);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const std::string text = slurp(csv);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    const int rows = lines(text) - 1;
    EXPECT_GE(rows, 2) << text;
    EXPECT_LT(rows, 48) << text; // stopped early
    const std::string header = text.substr(0, text.find('\n'));
    const auto fields = [](const std::string& line) { return std::count(line.begin(), line.end(), ',') + 1; };
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) EXPECT_EQ(fields(line), fields(header)) << line;
    // The table printed covers the same points.
    EXPECT_EQ(lines(slurp(out)) - 3, rows) << slurp(out); // two heading lines and the table's header
}

// -q: nothing on stdout, the rows still written; no progress where stderr is not a terminal.
TEST(CliPipe, QuietPrintsNothingOnStdout) {
    for (const std::string& command :
        { std::string("run ") + kSmallRun, std::string("bench ") + kSmallRun + " --repeats 2",
            std::string("sweep --experiment radius --backend cpu --size 24x20 --radius 1,2 --repeats 1") }) {
        fs::remove(scratch() / "quiet.csv");
        for (const char* flag : { "-q", "--quiet" }) {
            const Result r = sh("CLI " + command + " " + flag + " --csv quiet.csv");
            EXPECT_EQ(r.code, 0) << command << "\n" << r.err;
            EXPECT_EQ(r.out, "") << command;
            EXPECT_EQ(r.err, "") << command;
        }
        EXPECT_GE(lines(slurp(scratch() / "quiet.csv")), 3) << command; // the header, a row per run
    }
}

TEST(CliPipe, ProgressOnlyOnATerminal) {
    for (const std::string& command : { std::string("bench ") + kSmallRun + " --radius 1,2 --repeats 2",
             std::string("sweep --experiment radius --backend cpu --size 24x20 --radius 1,2 --repeats 1") }) {
        const Result logged = sh("CLI " + command);
        EXPECT_EQ(logged.code, 0) << logged.err;
        EXPECT_EQ(logged.err.find('\r'), std::string::npos) << command << "\n" << logged.err;
        EXPECT_EQ(logged.out.find('\r'), std::string::npos) << command;
    }
    if (std::system("script --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) to give a terminal";
    // script(1) runs it on a pseudo-terminal: progress with a count and an ETA, then the report.
    const Result tty = sh("script -qec 'CLI bench " + std::string(kSmallRun) + " --radius 1,2 --repeats 3' /dev/null");
    EXPECT_EQ(tty.code, 0) << tty.err;
    EXPECT_NE(tty.out.find("\r\x1b[K[1/10] star R1"), std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find("ETA "), std::string::npos) << tty.out;
    EXPECT_NE(tty.out.find("rate     "), std::string::npos) << tty.out;
}

// --json: one object per row on stdout, the CSV's column names as keys, numbers as numbers, empty as null.
TEST(CliPipe, JsonIsOneObjectPerRowWithTheCsvNames) {
    const Result tool = sh(std::string("CLI run ") + kSmallRun + " --json | python3 -m json.tool");
    EXPECT_EQ(tool.code, 0) << tool.err;
    EXPECT_NE(tool.out.find("\"gcells_per_s\": "), std::string::npos) << tool.out;
    EXPECT_NE(tool.err.find("rate     "), std::string::npos) << tool.err; // the report, on stderr
    // Every row of bench, sweep and devices parses; bench's keys are its CSV header, in order.
    const char* check = " | python3 -c \"import json, sys; rows = [json.loads(l) for l in sys.stdin]; print(len(rows), "
                        "' '.join(sorted({type(v).__name__ for r in rows for v in r.values()})))\"";
    const Result bench = sh(std::string("CLI bench ") + kSmallRun + " --radius 1,2 --repeats 2 --json" + check);
    EXPECT_EQ(bench.code, 0) << bench.err;
    EXPECT_EQ(bench.out, "2 NoneType float int str\n") << bench.err;
    const Result sweep = sh("CLI sweep --experiment radius --backend cpu --size 24x20 --radius 1,2 --repeats 1 --json"
        + std::string(check));
    EXPECT_EQ(sweep.code, 0) << sweep.err;
    EXPECT_EQ(sweep.out.rfind("6 ", 0), 0u) << sweep.out << sweep.err; // 2 radii x base, smem, smem_padded
    const Result devices = sh("CLI devices --json | python3 -c \"import json, sys; rows = [json.loads(l) for l in "
                              "sys.stdin]; print(rows[-1]['backend'], rows[-1]['index'])\"");
    EXPECT_EQ(devices.out, "cpu None\n") << devices.err;
    const Result keys = sh(std::string("CLI run ") + kSmallRun
        + " --json --csv header.csv | python3 -c \"import json, sys; "
          "print(','.join(json.loads(sys.stdin.readline())))\"");
    EXPECT_EQ(keys.code, 0) << keys.err;
    const std::string header = slurp(scratch() / "header.csv");
    EXPECT_EQ(keys.out, header.substr(0, header.find('\n') + 1));
    // Both on stdout: refused before any work.
    const Result both = sh(std::string("CLI run ") + kSmallRun + " --json --csv -");
    EXPECT_EQ(both.code, 2);
    EXPECT_EQ(both.out, "");
    EXPECT_NE(both.err.find("both want stdout"), std::string::npos) << both.err;
}

// `help COMMAND` is `COMMAND --help`, for every command.
TEST(CliPipe, HelpCommandEqualsCommandHelp) {
    for (const char* command : { "run", "bench", "profile", "autotune", "sweep", "bandwidth", "devices", "knobs" }) {
        const Result help = sh(std::string("CLI help ") + command), own = sh(std::string("CLI ") + command + " --help");
        EXPECT_EQ(help.code, 0) << command;
        EXPECT_EQ(help.out, own.out) << command;
        EXPECT_NE(help.out.find("Usage"), std::string::npos) << command << "\n" << help.out;
    }
    EXPECT_EQ(sh("CLI help frobnicate").code, 2);
}

#ifdef STENCILSCOPE_GUI_BIN
// The window's --help shows the window's defaults (wave, gaussian, 256x256 on the CPU), not the CLI's.
TEST(CliPipe, WindowHelpShowsTheWindowsDefaults) {
    const Result help = sh(std::string("QT_QPA_PLATFORM=offscreen ") + STENCILSCOPE_GUI_BIN + " --help");
    EXPECT_EQ(help.code, 0) << help.err;
    for (const char* text : { "(default wave", "(default gaussian)", "256x256 or 64x64x64" })
        EXPECT_NE(help.out.find(text), std::string::npos) << text << "\n" << help.out;
    for (const char* text : { "(default jacobi)", "(default random)", "(default 1024x1024 or 256x256x256)" })
        EXPECT_EQ(help.out.find(text), std::string::npos) << text << "\n" << help.out;
}
#endif

// One format per quantity: bytes in SI units with fixed decimals, a rate never "0.00 GB/s" for no time,
// and the CPU backend named as the GUI names it, in the report and in the CSV.
TEST(CliPipe, NumbersAndTheCpuAreWrittenOneWay) {
    EXPECT_EQ(ss::si_bytes_text(110600), "110600 B");
    EXPECT_EQ(ss::si_bytes_text(1.2345e7), "12.35 MB");
    EXPECT_EQ(ss::si_bytes_text(2.5e9), "2.500 GB");
    EXPECT_EQ(ss::transfer_rate_text(262144, 0.0), "n/a (too short to time)");
    EXPECT_EQ(ss::transfer_rate_text(1e9, 100.0), "10.0 GB/s");
    const Result r = sh(std::string("CLI run ") + kSmallRun + " --csv cpu.csv");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("device   " + ss::cpu_device_name() + "\n"), std::string::npos) << r.out;
    EXPECT_NE(slurp(scratch() / "cpu.csv").find(",run," + ss::cpu_device_name() + ",cpu,"), std::string::npos);
    for (const std::string& command :
        { std::string("run ") + kSmallRun + " --verify", std::string("bench ") + kSmallRun + " --repeats 2",
            std::string("sweep --experiment cf --backend cpu --size 24x20 --cf 1,2 --repeats 1") }) {
        const Result report = sh("CLI " + command);
        EXPECT_EQ(report.code, 0) << command << "\n" << report.err;
        EXPECT_EQ(report.out.find("e+"), std::string::npos) << command << "\n" << report.out;
    }
}

TEST(CliPipe, JsonObjectKeepsNumbersAndNulls) {
    EXPECT_EQ(ss::json_object({ "a", "b", "c", "d", "e" }, { "1.5e-05", "", "x\"y", "007", "-3" }),
        "{\"a\": 1.5e-05, \"b\": null, \"c\": \"x\\\"y\", \"d\": \"007\", \"e\": -3}");
}
