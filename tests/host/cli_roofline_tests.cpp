// SPDX-License-Identifier: MIT
// `stencilscope-cli roofline` (issue 38): its help, the options it refuses, and the one-line refusal without a GPU
// (exit 2, nothing on stdout, --json too). The measured ceilings themselves: tests/gpu/roofline_gpu_tests.cpp.
#include "command_result.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using ss::test::lines;
using ss::test::Result;

Result cli(const std::string& args) {
    return ss::test::run_in(ss::test::scratch_folder("ss_cli_roofline"), std::string(STENCILSCOPE_CLI) + " " + args);
}

bool has_gpu() {
    return cli("devices").out.find("no CUDA device to run kernels on") == std::string::npos;
}

TEST(CliRoofline, HelpListsItsOptions) {
    const Result r = cli("roofline --help");
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("Usage: stencilscope-cli roofline", 0), 0u) << r.out;
    for (const char* option : { "--device", "--json", "--csv", "--quiet" })
        EXPECT_NE(r.out.find(std::string("\n  ") + option + " "), std::string::npos) << option;
    EXPECT_EQ(r.out.find("\n  --steps "), std::string::npos);
    EXPECT_NE(cli("help").out.find("\n  roofline "), std::string::npos);
}

TEST(CliRoofline, OptionsOfOtherCommandsAreRefused) {
    const Result r = cli("roofline --steps 3");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliRoofline, WithoutAGpuItRefusesInOneLine) {
    if (has_gpu()) GTEST_SKIP() << "a CUDA device is present: tests/gpu/roofline_gpu_tests.cpp measures it";
    for (const char* args : { "roofline", "roofline --json", "roofline --device 0 --quiet" }) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
        EXPECT_NE(r.err.find("roofline needs a CUDA GPU"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    }
}

} // namespace
