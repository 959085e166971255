// SPDX-License-Identifier: MIT
// stencilscope-cli run|bench --variant auto (issue 35): what the report and the rows say, and what is refused.
#include "command_result.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

Result cli(const std::string& args) {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string tag = std::to_string(getpid());
    const std::string out = (dir / ("ss_cli_auto_out_" + tag + ".txt")).string();
    const std::string err = (dir / ("ss_cli_auto_err_" + tag + ".txt")).string();
    const int status = std::system((std::string(STENCILSCOPE_CLI) + " " + args + " >" + out + " 2>" + err).c_str());
    Result r { WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err) };
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
}

} // namespace

// --variant auto (issue 35): the CPU backend runs one loop for every variant, so auto is base there, untimed; the
// report says so after the kernel line and the row names the concrete variant, chosen by auto.
TEST(CliAuto, CpuRunSaysWhatItChose) {
    const Result r = cli("run --backend cpu --variant auto --size 64x64 --steps 2 --no-cache --json --quiet");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("\"variant\": \"base\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"chosen_by\": \"auto\""), std::string::npos) << r.out;
    const Result report = cli("run --backend cpu --variant auto --size 64x64 --steps 2");
    EXPECT_EQ(report.code, 0) << report.err;
    const auto kernel = report.out.find("kernel   CPU loop");
    const auto chosen = report.out.find("chosen   auto: base: the CPU backend runs one loop for every variant\n");
    EXPECT_NE(chosen, std::string::npos) << report.out;
    EXPECT_LT(kernel, chosen) << report.out;
    // What nothing resolves, and what auto chooses itself, are bad input.
    for (const char* args : { "profile --backend cpu --variant auto", "run --backend cpu --variant auto --cf 2",
             "run --backend cpu --variant auto --depth 4", "run --backend cpu --no-cache",
             "sweep --backend cpu --experiment radius --variant auto" }) {
        const Result bad = cli(args);
        EXPECT_EQ(bad.code, 2) << args;
        EXPECT_EQ(lines(bad.err), 1) << args << ": " << bad.err;
    }
}
