// SPDX-License-Identifier: MIT
// stencilscope-cli with point stencils (issue 34): --stencil NAME (and lists), --stencil-file, the CSV's stencil
// columns, and one-line refusals.
#include "command_result.h"
#include "reports/run_options.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

std::filesystem::path temp(const std::string& name) {
    return std::filesystem::temp_directory_path() / ("ss_stencil_" + std::to_string(getpid()) + "_" + name);
}

Result cli(const std::string& args) {
    const std::string out = temp("out.txt").string(), err = temp("err.txt").string();
    const int status = std::system((std::string(STENCILSCOPE_CLI) + " " + args + " >" + out + " 2>" + err).c_str());
    Result r { WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err) };
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
}

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = temp(name).string();
    std::ofstream(path) << text;
    return path;
}

} // namespace

TEST(CliStencils, NamedStencilsRunAndVerifyOnTheCpu) {
    const std::string csv = temp("rows.csv").string();
    const Result r
        = cli("run --backend cpu --stencil 2d5pt,2d49pt,box --size 64x48 --steps 3 --verify -q --csv " + csv);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string rows = slurp(csv);
    std::filesystem::remove(csv);
    ASSERT_EQ(lines(rows), 4) << rows;
    EXPECT_NE(rows.find(",kernel,stencil_name,stencil_points,chosen_by,chosen_why\n"), std::string::npos) << rows;
    EXPECT_NE(rows.find(",2d5pt,5,,\n"), std::string::npos) << rows;
    EXPECT_NE(rows.find(",2d49pt,49,,\n"), std::string::npos) << rows;
    EXPECT_NE(rows.find(",box,9,,\n"), std::string::npos) << rows; // --dims 2, --radius 1
    EXPECT_EQ(rows.find(",fail,"), std::string::npos) << rows;
}

// --variant smem runs point stencils too (on the CPU backend: the CPU loop, verified against the reference).
TEST(CliStencils, SmemRunsPointStencils) {
    const Result r = cli("run --backend cpu --stencil 3d27pt --variant smem --size 24x20x18 --steps 2 --verify");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("smem"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST(CliStencils, AStencilFileRunsAndVerifies) {
    const std::string path = write_file(
        "mine.json", R"({"dims": 3, "points": [[[0,0,0], 0.4], [[2,0,0], 0.1], [[0,-1,0], 0.2], [[0,0,1], 0.3]]})");
    const Result r = cli("run --backend cpu --stencil-file " + path + " --size 20x20x20 --steps 2 --verify");
    std::filesystem::remove(path);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("R2 4 points 3D 20x20x20"), std::string::npos) << r.out; // named after the file
    EXPECT_NE(r.out.find("PASS"), std::string::npos) << r.out;
}

TEST(CliStencils, RefusalsAreOneLine) {
    const std::string bad = write_file("bad.json", R"({"dims": 2, "points": [[[0,0],1], [[0,0],2]]})");
    const std::string good = write_file("good.json", R"({"dims": 2, "points": [[[1,0],1]]})");
    const std::vector<std::pair<std::string, std::string>> cases {
        { "run --backend cpu --stencil boxx", "expected one of star, diffusion4, box, 2d5pt" },
        { "run --backend cpu --stencil 3d27pt --dims 2", "is a 3D stencil: --dims 2 contradicts it" },
        { "run --backend cpu --stencil 2d25pt --radius 1", "has radius 2: --radius 1 contradicts it" },
        { "run --backend cpu --stencil points", "needs --stencil-file" },
        { "run --backend cpu --stencil-file " + bad, "is given twice" },
        { "run --backend cpu --stencil star --stencil-file " + good, "leave out --stencil star" },
        { "run --backend cpu --stencil-file " + temp("absent.json").string(), "--stencil-file: " },
        { "run --backend cpu --stencil box --variant smem_padded", "runs star stencils only so far" },
        { "run --backend cpu --stencil poisson --rule wave", "the jacobi rule" },
        { "run --backend cpu --stencil box --dims 3 --radius 6", "at most 2048 are allowed" },
    };
    for (const auto& [args, reason] : cases) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << args << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
        EXPECT_NE(r.err.find(reason), std::string::npos) << args << ": " << r.err;
        EXPECT_EQ(r.out, "") << args;
    }
    std::filesystem::remove(bad);
    std::filesystem::remove(good);
}

TEST(CliStencils, ParsedOptionsTakeTheShapesDimsAndRadius) {
    ss::RunOptions o;
    ASSERT_TRUE(ss::parse_run_options({ "--stencil", "3d13pt" }, o));
    EXPECT_EQ(o.config.problem.stencil, ss::StencilKind::Points);
    EXPECT_EQ(o.config.problem.dims, 3);
    EXPECT_EQ(o.config.problem.radius, 2);
    EXPECT_EQ(o.config.problem.size, (ss::Extent { 256, 256, 256 })); // the 3D default size
    ss::RunOptions star;
    ASSERT_TRUE(ss::parse_run_options({ "--stencil", "star", "--radius", "3" }, star));
    EXPECT_EQ(star.config.problem.stencil, ss::StencilKind::Star);
    EXPECT_FALSE(star.config.problem.shape);
}
