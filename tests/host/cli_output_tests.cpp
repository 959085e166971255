// SPDX-License-Identifier: MIT
// Both programs' output, as coreutils treat theirs (issue 36, classes 7 and 8): a write to stdout that
// fails (/dev/full, a closed stdout) is exit status 1 and one line on stderr, never exit 0 with the
// report lost; a closed stdout is never taken by a file opened later; numbers meant to be parsed are
// written with the C locale's '.', in a locale whose decimal point is ','. CPU backend, small sizes.
#include "command_result.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

fs::path scratch() {
    return ss::test::scratch_folder("ss_cli_output");
}

// `line` in sh, in scratch(); CLI and GUI stand for the programs. Redirections inside `line` win over
// the capture of stdout and stderr around it.
Result sh(std::string line) {
    for (std::size_t at; (at = line.find("CLI")) != std::string::npos;) line.replace(at, 3, STENCILSCOPE_CLI);
#ifdef STENCILSCOPE_GUI_BIN
    for (std::size_t at; (at = line.find("GUI")) != std::string::npos;)
        line.replace(at, 3, std::string("QT_QPA_PLATFORM=offscreen ") + STENCILSCOPE_GUI_BIN);
#endif
    return ss::test::run_in(scratch(), line);
}

constexpr const char* kSmallRun = "--backend cpu --size 48x40 --steps 2";
constexpr const char* kLost = "cannot write to stdout";

// The one line a lost report leaves, and nothing else (the run itself went well).
void expect_one_line_saying_stdout_failed(const Result& r, const std::string& what) {
    EXPECT_EQ(r.code, 1) << what << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << what << ": " << r.err;
    EXPECT_NE(r.err.find(kLost), std::string::npos) << what << ": " << r.err;
}

// True where the system has a locale whose decimal point is ',' (de_DE.UTF-8), as the issue's example.
bool german_locale_installed() {
    const bool installed = std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr;
    std::setlocale(LC_ALL, "C");
    return installed;
}

} // namespace

TEST(CliOutput, AFullDiskOrAClosedStdoutIsAnErrorForEveryCommand) {
    for (const std::string& command : { std::string("run ") + kSmallRun, std::string("devices"), std::string("--help"),
             std::string("help run"), std::string("run --help"), std::string("--version"), std::string("knobs") }) {
        expect_one_line_saying_stdout_failed(sh("CLI " + command + " > /dev/full"), command + " > /dev/full");
        expect_one_line_saying_stdout_failed(sh("CLI " + command + " >&-"), command + " >&-");
    }
    // The rows on a full stdout: the row's own write fails (exit 1, one line).
    const Result rows = sh(std::string("CLI run ") + kSmallRun + " --csv - > /dev/full 2> report.txt");
    EXPECT_EQ(rows.code, 1);
    EXPECT_NE(slurp(scratch() / "report.txt").find("No space left on device"), std::string::npos)
        << slurp(scratch() / "report.txt");
}

TEST(CliOutput, NothingLostIsNoErrorAndARefusalKeepsItsStatus) {
    // --quiet writes nothing to stdout: a closed one loses nothing (as `true >&-`).
    fs::remove(scratch() / "quiet.csv");
    const Result quiet = sh(std::string("CLI run ") + kSmallRun + " --quiet --csv quiet.csv >&-");
    EXPECT_EQ(quiet.code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    EXPECT_EQ(lines(slurp(scratch() / "quiet.csv")), 2);
    // Bad input is still 2, with its own line (nothing was written to stdout).
    const Result refused = sh("CLI run --size 0 > /dev/full");
    EXPECT_EQ(refused.code, 2);
    EXPECT_EQ(lines(refused.err), 1) << refused.err;
    EXPECT_EQ(refused.err.find(kLost), std::string::npos) << refused.err;
    // stderr gone as well: still exit 1, and no crash.
    EXPECT_EQ(sh(std::string("CLI run ") + kSmallRun + " > /dev/full 2>&-").code, 1);
}

// With stdout closed, a FIFO given to --csv is opened as file descriptor 1 and kept open for the rows:
// the report went into it between the rows. Now the FIFO gets its header and rows only.
TEST(CliOutput, AClosedStdoutIsNotTakenByTheCsv) {
    const fs::path fifo = scratch() / "rows.fifo";
    fs::remove(fifo), fs::remove(scratch() / "from_fifo.csv");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const Result r = sh("(cat rows.fifo > from_fifo.csv &) ; timeout 60 CLI run " + std::string(kSmallRun)
        + " --radius 1,2 --csv rows.fifo >&- ; status=$?; sleep 0.2; exit $status");
    expect_one_line_saying_stdout_failed(r, "run --csv FIFO >&-");
    const std::string csv = slurp(scratch() / "from_fifo.csv");
    EXPECT_EQ(lines(csv), 3) << csv;
    EXPECT_EQ(csv.find("config"), std::string::npos) << csv;
}

TEST(CliOutput, NumbersUseTheCLocaleInAGermanOne) {
    if (!german_locale_installed()) GTEST_SKIP() << "de_DE.UTF-8 is not installed (locale -a)";
    const Result r = sh(std::string("LC_ALL=de_DE.UTF-8 CLI run ") + kSmallRun + " --csv - 2> report.txt");
    ASSERT_EQ(r.code, 0) << slurp(scratch() / "report.txt");
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(,[0-9]+\.[0-9]+,)"))) << r.out;
    EXPECT_TRUE(std::regex_search(slurp(scratch() / "report.txt"), std::regex(R"(time +[0-9]+\.[0-9]+ ms/step)")))
        << slurp(scratch() / "report.txt");
}

#ifdef STENCILSCOPE_GUI_BIN

TEST(WindowOutput, AFullOrClosedStdoutIsAnError) {
    for (const char* options : { "--help", "--version" }) {
        expect_one_line_saying_stdout_failed(sh(std::string("GUI ") + options + " > /dev/full"), options);
        expect_one_line_saying_stdout_failed(sh(std::string("GUI ") + options + " >&-"), options);
    }
    // The benchmark's report (Qt may add its own warnings on stderr: only the last line is ours).
    const Result bench = sh("GUI --benchmark-seconds 0.5 > /dev/full");
    EXPECT_EQ(bench.code, 1) << bench.err;
    EXPECT_NE(bench.err.find(std::string("stencilscope: ") + kLost + "\n"), std::string::npos) << bench.err;
}

// QApplication calls setlocale(LC_ALL, ""): the report meant for scripts keeps "245.0", not "245,0".
TEST(WindowOutput, TheBenchmarkReportUsesTheCLocaleInAGermanOne) {
    if (!german_locale_installed()) GTEST_SKIP() << "de_DE.UTF-8 is not installed (locale -a)";
    const Result r = sh("LC_ALL=de_DE.UTF-8 GUI --benchmark-seconds 0.5");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(displayed FPS: [0-9]+\.[0-9]\n)"))) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(GCells/s: [0-9]+\.[0-9]{3}\n)"))) << r.out;
    EXPECT_FALSE(std::regex_search(r.out, std::regex(R"([0-9],[0-9])"))) << r.out;
}

#endif
