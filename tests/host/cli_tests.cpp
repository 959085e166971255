// SPDX-License-Identifier: MIT
// stencilscope-cli's contract: bad input -> exit 2 and exactly one stderr line, nothing written.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace {

struct Result {
    int code = -1;
    std::string out, err;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Result cli(const std::string& args) {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string out = (dir / "ss_cli_out.txt").string(), err = (dir / "ss_cli_err.txt").string();
    const std::string cmd = std::string(STENCILSCOPE_CLI) + " " + args + " >" + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    return { WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err) };
}

int lines(const std::string& s) {
    return int(std::count(s.begin(), s.end(), '\n'));
}

} // namespace

TEST(Cli, BadInputExitsTwoWithOneLine) {
    const char* cases[] = {
        "run --variant turbo",
        "run --cf 3",
        "run --radius 17",
        "run --size 100x100x100",
        "run --backend cuda --block 64x32",
        "run --backend cpu --size 8x8 --radius 4",
        "run --backend cpu --gpus 2",
        "run --backend cpu --overlap maybe",
        "run --backend cpu --halo p2p",
        "run --backend cpu --gpus 1,x",
        "run --backend cpu --csv /nonexistent-dir-stencilscope/out.csv",
        "run --stencil diffusion4 --variant smem_padded",
        "run --stencil diffusion4 --variant smem --cf 2 --backend cpu",
        "frobnicate",
        "run --steps",
        "autotune --backend cpu",
        "autotune --radius 2,3",
    };
    for (const char* args : cases) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
        EXPECT_EQ(r.out, "") << args;
    }
}

TEST(Cli, CpuRunVerifiesAndWritesCsv) {
    const std::string csv = (std::filesystem::temp_directory_path() / "ss_cli_test.csv").string();
    std::filesystem::remove(csv);
    const Result r
        = cli("run --backend cpu --dims 3 --size 23x19x17 --radius 3 --rule thesis --steps 3 --verify --csv " + csv);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
    const std::string text = slurp(csv);
    EXPECT_EQ(lines(text), 2); // header + one row
    EXPECT_EQ(text.rfind("timestamp,command,device", 0), 0u);
    EXPECT_NE(text.find(",pass,"), std::string::npos);
    // Columns added later go at the end, so that older files keep their prefix.
    EXPECT_NE(text.find(",verified,overlap,halo_path,"), std::string::npos) << text;
    std::filesystem::remove(csv);
}

TEST(Cli, HelpListsEveryContractOption) {
    const Result r = cli("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* opt :
        { "--stencil", "--rule", "--dims", "--size", "--radius", "--variant", "--cf", "--block", "--precision",
            "--steps", "--backend", "--device", "--gpus", "--overlap", "--halo", "--csv", "bench", "bandwidth" })
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

TEST(Cli, ProfileRefusesBadInputAndNamesWhyCountersAreMissing) {
    for (const char* args : { "profile --backend cpu", "profile --launches 0", "profile --radius 1,2",
             "profile --csv /nonexistent-dir-stencilscope/p.csv" }) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
    }
    const Result help = cli("--help");
    EXPECT_NE(help.out.find("profile"), std::string::npos);
    EXPECT_NE(help.out.find("--launches"), std::string::npos);
    const Result none = cli("devices");
    if (none.out.rfind("no CUDA device", 0) != 0) GTEST_SKIP() << "a CUDA device is present";
    const Result r = cli("profile --size 64x64 --launches 1");
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.out, "");
}
