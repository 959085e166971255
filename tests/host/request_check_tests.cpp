// SPDX-License-Identifier: MIT
// The checks of a whole request before any work (reports/request_check.h, issue 36): output paths that cannot be
// written, rows mixed with the report, options that do not apply, every combination of a list, a sweep whose
// base configuration lets no point run, and the CPU backend refusing what no GPU could run.
#include "gpu/plan/validation.h"
#include "reports/request_check.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ss {
namespace {

namespace fs = std::filesystem;

// A folder of this test's own, removed at the end.
struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("ss_request_check_" + std::to_string(::getpid()));
    Scratch() {
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
};

void expect_refused(const Status& s, const std::string& needle) {
    EXPECT_FALSE(s.ok) << "expected a refusal naming: " << needle;
    EXPECT_NE(s.reason.find(needle), std::string::npos) << s.reason;
    EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    EXPECT_EQ(s.reason.find("cannot read"), std::string::npos) << s.reason;
}

DeviceCatalogue cpu_only() {
    DeviceCatalogue c;
    c.host_available = std::int64_t(64) << 30;
    return c;
}

RunOptions cpu_run(const std::vector<std::string>& args) {
    RunOptions o;
    const Status s = parse_run_options(args, o);
    EXPECT_TRUE(s.ok) << s.reason;
    o.config.placement.backend = Backend::Cpu;
    return o;
}

TEST(RequestCheck, OutputPathsThatCannotBeWrittenAreNamedBeforeAnyWork) {
    Scratch scratch;
    const fs::path dangling = scratch.dir / "dangling.csv";
    fs::create_symlink("/nonexistent-dir-stencilscope/x.csv", dangling);
    expect_refused(check_output_path(dangling.string()), "whose folder /nonexistent-dir-stencilscope does not exist");
    expect_refused(check_rows_path(dangling.string()), "cannot write");
    // A link chain that ends at a new name in an existing folder is written there: accepted.
    const fs::path to_new = scratch.dir / "to_new.csv";
    fs::create_symlink(scratch.dir / "new.csv", to_new);
    EXPECT_TRUE(check_output_path(to_new.string()).ok) << check_output_path(to_new.string()).reason;
    EXPECT_FALSE(fs::exists(scratch.dir / "new.csv")); // nothing was created
    const fs::path loop = scratch.dir / "loop.csv";
    fs::create_symlink(loop, loop);
    expect_refused(check_output_path(loop.string()), "cannot write");

    expect_refused(check_output_path((scratch.dir / std::string(300, 'a')).string()), "NAME_MAX");
    std::string deep = scratch.dir.string();
    while (deep.size() < 5000) deep += "/" + std::string(200, 'b');
    const Status too_long = check_output_path(deep + "/x.csv");
    expect_refused(too_long, "PATH_MAX");
    EXPECT_EQ(too_long.reason.find("does not exist"), std::string::npos) << too_long.reason;
    EXPECT_LT(too_long.reason.size(), 300u) << "the path is quoted short";

    EXPECT_TRUE(check_output_path((scratch.dir / "fresh.csv").string()).ok);
    EXPECT_TRUE(check_rows_path("-").ok);
    EXPECT_TRUE(check_rows_path("/dev/null").ok); // a character device is a stream, opened later
}

TEST(RequestCheck, RowsOnStdoutAreNotMixedWithTheReport) {
    Scratch scratch;
    const std::string file = (scratch.dir / "both.txt").string();
    const int out = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(out, 0);
    const int same = ::dup(out); // 2>&1
    const int other = ::open((scratch.dir / "err.txt").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(other, 0);
    RunOptions o;
    o.csv = "-";
    expect_refused(check_rows_and_report(o, out, same), "same stream");
    EXPECT_TRUE(check_rows_and_report(o, out, other).ok);
    o.quiet = true; // no report: nothing to mix
    EXPECT_TRUE(check_rows_and_report(o, out, same).ok);
    o.quiet = false;
    o.csv = file; // a path naming what stdout is
    expect_refused(check_rows_and_report(o, out, same), "same stream");
    o.csv.clear();
    o.json = true;
    expect_refused(check_rows_and_report(o, out, same), "--json");
    o.json = false;
    o.csv = (scratch.dir / "rows.csv").string(); // a file of its own: never mixed
    EXPECT_TRUE(check_rows_and_report(o, out, same).ok);
    ::close(out), ::close(same), ::close(other);
}

TEST(RequestCheck, OptionsTheDiffusionStencilDoesNotUseAreRefused) {
    StencilConfig diffusion;
    diffusion.problem.stencil = StencilKind::Diffusion4;
    expect_refused(check_options_apply({ { "--rule", "wave" } }, diffusion), "--rule does not apply");
    expect_refused(check_options_apply({ { "--radius", "4" } }, diffusion), "--radius does not apply");
    EXPECT_TRUE(check_options_apply({ { "--dims", "3" } }, diffusion).ok);
    EXPECT_TRUE(check_options_apply({ { "--rule", "wave" }, { "--radius", "4" } }, StencilConfig {}).ok);
}

TEST(RequestCheck, EveryCombinationIsCheckedBeforeTheFirstRuns) {
    const DeviceCatalogue catalogue = cpu_only();
    // 11600^2 at R16 fits the fp64 reference, at R1 it does not: the second combination is refused up front.
    std::vector<RunOptions> runs { cpu_run({ "--size", "11600x11600", "--radius", "16", "--verify" }),
        cpu_run({ "--size", "11600x11600", "--radius", "1", "--verify" }) };
    expect_refused(check_run_request("run", runs, catalogue), "combination 2 of 2");
    expect_refused(check_run_request("run", runs, catalogue), "at most 134M cells");
    runs.pop_back();
    EXPECT_TRUE(check_run_request("run", runs, catalogue).ok) << check_run_request("run", runs, catalogue).reason;

    // bench times steps; run may take none.
    const std::vector<RunOptions> no_steps { cpu_run({ "--size", "64x64", "--steps", "0" }) };
    expect_refused(check_run_request("bench", no_steps, catalogue), "--steps 0");
    EXPECT_TRUE(check_run_request("run", no_steps, catalogue).ok);

    // One combination alone meets can_implement; in a list the run reports and skips it.
    const std::vector<RunOptions> two_gpus { cpu_run({ "--size", "64x64", "--gpus", "2" }) };
    expect_refused(check_run_request("run", two_gpus, catalogue), "not on 2 GPUs");
    std::vector<RunOptions> list = two_gpus;
    list.push_back(cpu_run({ "--size", "64x64" }));
    EXPECT_TRUE(check_run_request("run", list, catalogue).ok);

    // Under mpirun: each combination's split over the ranks, before any rank runs.
    const std::vector<RunOptions> ranks_list { cpu_run({ "--size", "64x30", "--radius", "1" }),
        cpu_run({ "--size", "64x30", "--radius", "8" }) };
    EXPECT_TRUE(check_run_request("run", { ranks_list.front() }, catalogue, 3).ok);
    expect_refused(check_run_request("run", ranks_list, catalogue, 3), "too small for 3 ranks");
    expect_refused(check_run_request("run", ranks_list, catalogue, 3), "combination 2 of 2");
}

TEST(RequestCheck, SweepWhoseBaseLetsNoPointRunIsRefused) {
    const DeviceCatalogue catalogue = cpu_only();
    ExperimentSpec spec;
    spec.base.placement.backend = Backend::Cpu;
    spec.base.problem.size = { 64, 64, 1 };
    spec.radii = { 1, 2 };
    EXPECT_TRUE(check_sweep_request(spec, catalogue).ok) << check_sweep_request(spec, catalogue).reason;
    spec.base.placement.gpus = 2;
    expect_refused(check_sweep_request(spec, catalogue), "not on 2 GPUs");
    // Some points refused, others run: the sweep records the refusals.
    spec.base.placement.gpus = 1;
    spec.base.problem.size = { 8, 8, 1 };
    spec.radii = { 1, 16 };
    EXPECT_TRUE(check_sweep_request(spec, catalogue).ok);
}

// Class 6: what no GPU could run is refused on the CPU backend too, with the GPU's reason, and a depth sweep
// records a refusal for it.
TEST(RequestCheck, TheCpuBackendRefusesWhatNoGpuCouldRun) {
    const DeviceCatalogue catalogue = cpu_only();
    RunOptions o = cpu_run({ "--variant", "temporal", "--dims", "3", "--radius", "16", "--size", "64x64x64" });
    const Status cpu = can_implement(o.config, catalogue);
    expect_refused(cpu, "no GPU could run this configuration");
    o.config.placement.backend = Backend::Cuda;
    const Status gpu = can_implement(o.config, described_catalogue(test::h100(), 1, std::int64_t(64) << 30));
    ASSERT_FALSE(gpu.ok);
    EXPECT_NE(cpu.reason.find(gpu.reason), std::string::npos) << cpu.reason << "\nGPU: " << gpu.reason;

    ExperimentSpec spec;
    spec.kind = ExperimentKind::Depth;
    spec.base = cpu_run({ "--dims", "3", "--size", "64x64x64" }).config;
    spec.radii = { 16 };
    spec.cfs = { 1 };
    spec.depths = { 1, 2 };
    int temporal = 0;
    for (const StencilConfig& c : experiment_plan(spec))
        if (c.policy.variant == Variant::Temporal) {
            ++temporal;
            EXPECT_FALSE(can_implement(c, catalogue).ok) << describe(c);
        }
    EXPECT_EQ(temporal, 2);
    EXPECT_TRUE(check_sweep_request(spec, catalogue).ok); // base runs: the sweep records the refusals
}

} // namespace
} // namespace ss
