// SPDX-License-Identifier: MIT
// Issue 36, classes 1, 2 and 9, through the programs: a run's CSV and the window's screenshot on a disk
// that is full (the file size limit, set for the command alone), and a sweep CSV with nonsense figures.
// The files' bytes are compared before and after. CPU backend, offscreen.
#include "command_result.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

fs::path scratch() {
    return ss::test::scratch_folder("ss_cli_file");
}

// `line` in sh, in scratch(), its files limited to `limit` bytes (0: no limit). SIGXFSZ keeps its default
// action: a program that wrote past the limit would die of it, and its exit code would show that.
Result sh(const std::string& line, rlim_t limit = 0) {
    const fs::path out = scratch() / ".out", err = scratch() / ".err";
    const std::string command
        = "cd " + scratch().string() + " && { " + line + "; } >" + out.string() + " 2>" + err.string() + " </dev/null";
    const pid_t pid = ::fork();
    if (pid == 0) {
        const struct rlimit r { limit, limit };
        if (limit > 0) ::setrlimit(RLIMIT_FSIZE, &r);
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    Result r { WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(out), slurp(err) };
    fs::remove(out), fs::remove(err);
    return r;
}

std::string bytes_of(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A run CSV of about 4 KiB: the run's rows under the CLI's own header.
std::string table_of_runs() {
    fs::remove(scratch() / "seed.csv");
    const Result seeded = sh(std::string(STENCILSCOPE_CLI) + " run --backend cpu --size 48x40 --steps 2 --radius "
        + "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --csv seed.csv");
    EXPECT_EQ(seeded.code, 0) << seeded.err;
    return bytes_of(scratch() / "seed.csv");
}

TEST(FullDiskCli, ARunOnAFullDiskLeavesTheCsvAsItWas) {
    const std::string before = table_of_runs();
    ASSERT_GT(before.size(), 2000u);
    std::ofstream(scratch() / "runs.csv", std::ios::binary) << before;
    const Result r = sh(std::string(STENCILSCOPE_CLI) + " run --backend cpu --size 48x40 --steps 2 --csv runs.csv",
        before.size() + 40); // room for a fragment of the row, not for the row
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("file size limit"), std::string::npos) << r.err;
    EXPECT_EQ(bytes_of(scratch() / "runs.csv"), before);
    // Not even the header fits (the report goes to /dev/null, the one-line reason still fits): no 0-byte file.
    const Result fresh = sh(
        std::string(STENCILSCOPE_CLI) + " run --backend cpu --size 48x40 --steps 2 --csv new.csv > /dev/null", 250);
    EXPECT_EQ(fresh.code, 1) << fresh.err;
    EXPECT_FALSE(fs::exists(scratch() / "new.csv"));
}

#ifdef STENCILSCOPE_GUI_BIN
std::string gui(const std::string& args) {
    return "HOME=" + scratch().string() + " XDG_CONFIG_HOME=" + scratch().string() + "/config XDG_CACHE_HOME="
        + scratch().string() + "/cache QT_QPA_PLATFORM=offscreen timeout 120 " + STENCILSCOPE_GUI_BIN + " " + args;
}

TEST(FullDiskCli, AScreenshotOnAFullDiskKeepsBothHardLinkedNames) {
    const std::string old(3000, 'o');
    fs::remove(scratch() / "shot.png"), fs::remove(scratch() / "twin.png");
    std::ofstream(scratch() / "shot.png", std::ios::binary) << old;
    fs::create_hard_link(scratch() / "shot.png", scratch() / "twin.png");
    const Result r = sh(gui("--backend cpu --size 96x64 --frames 1 --screenshot shot.png"), 3500);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("file size limit"), std::string::npos) << r.err;
    EXPECT_EQ(bytes_of(scratch() / "shot.png"), old);
    EXPECT_EQ(bytes_of(scratch() / "twin.png"), old);
}

TEST(FullDiskCli, ASweepWithNonsenseRatesIsRefusedBeforeAnyWindow) {
    const std::string header
        = "timestamp,device,experiment,series,stencil,rule,dims,size,radius,variant,cf,precision,"
          "block_x,block_y,block_z,autotuned,ms_per_step,gcells_per_s,improvement,"
          "bottleneck_metric,bottleneck_gbs,bottleneck_improvement,error,depth,dram_bytes_per_cell\n";
    const std::string row = "2026-11-22T23:06:22Z,H100,cf,base,star,thesis,2,4096x4096,1,base,1,fp32,32,32,1,0,"
                            "0.08364,RATE,1,dram_write_gbs,848.712,1,,1,\n";
    for (const std::string rate : { "1e308", "inf", "nan", "-5" }) {
        std::string bad = row;
        std::ofstream(scratch() / "sweep.csv") << header << bad.replace(bad.find("RATE"), 4, rate);
        fs::remove(scratch() / "chart.png");
        for (const std::string args : { "--open-sweep sweep.csv --sweep-png chart.png", "--open-sweep sweep.csv" }) {
            const Result r = sh(gui(args));
            EXPECT_EQ(r.code, 2) << rate << " " << args << ": " << r.err;
            EXPECT_EQ(lines(r.err), 1) << r.err; // no Qt warnings either
            EXPECT_NE(r.err.find("row 2: column gcells_per_s: '" + rate + "'"), std::string::npos) << r.err;
        }
        EXPECT_FALSE(fs::exists(scratch() / "chart.png"));
    }
}
#endif

} // namespace
