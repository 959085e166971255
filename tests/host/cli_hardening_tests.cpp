// SPDX-License-Identifier: MIT
// stencilscope-cli, hardening III (issue 36), on the built program and the CPU backend: every output path and
// every combination is checked before the first one runs (exit 2, one line, nothing written); the CPU backend
// refuses what no GPU could run; knob values are checked as options are; commands that do not split a domain
// refuse to run under an MPI launcher; options that would not be used are refused.
#include "command_result.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

// A folder of this process's own, the working directory of every command.
fs::path scratch() {
    return ss::test::scratch_folder("ss_cli_hardening");
}

// `line` in sh, in scratch(); CLI stands for the program. Stdout and stderr are kept apart unless `line` joins them.
Result sh(std::string line) {
    for (std::size_t at; (at = line.find("CLI")) != std::string::npos;) line.replace(at, 3, STENCILSCOPE_CLI);
    return ss::test::run_in(scratch(), line);
}

// Bad input: exit 2, one line on stderr holding `reason`, nothing on stdout.
void expect_refused(const std::string& line, const std::string& reason) {
    const Result r = sh(line);
    EXPECT_EQ(r.code, 2) << line << "\nstderr: " << r.err << "\nstdout: " << r.out;
    EXPECT_EQ(lines(r.err), 1) << line << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << line << "\nstderr: " << r.err;
    EXPECT_EQ(r.out, "") << line;
}

constexpr const char* kSmall = "--backend cpu --size 48x40 --steps 2";

} // namespace

// Class 4: unwritable outputs are found before the run, as writes.
TEST(CliHardening, OutputsThatCannotBeWrittenAreRefusedBeforeTheRun) {
    fs::remove(scratch() / "dangling.csv");
    fs::create_symlink("/nonexistent-dir-stencilscope/x.csv", scratch() / "dangling.csv");
    const std::string name_too_long(300, 'n');
    std::string path_too_long = "deep";
    while (path_too_long.size() < 5000) path_too_long += "/" + std::string(200, 'p');
    for (const std::string command : { "run", "bench", "sweep --experiment radius --radius 1 --repeats 1" }) {
        const std::string base = "CLI " + command + " " + kSmall;
        expect_refused(base + " --csv dangling.csv", "cannot write dangling.csv: it is a symbolic link");
        expect_refused(base + " --csv " + name_too_long + ".csv", "NAME_MAX");
        expect_refused(base + " --csv " + path_too_long + "/rows.csv", "PATH_MAX");
        // The rows and the report in one stream (2>&1): refused, the line alone in it; apart, or with --quiet, they
        // run.
        for (const char* rows : { " --csv /dev/stdout", " --csv -", " --json" }) {
            const Result joined = sh(base + rows + " 2>&1");
            EXPECT_EQ(joined.code, 2) << base << rows << "\n" << joined.out;
            EXPECT_EQ(lines(joined.out), 1) << base << rows << "\n" << joined.out;
            EXPECT_NE(joined.out.find("same stream"), std::string::npos) << joined.out;
        }
    }
    for (const char* line : { "CLI run --backend cpu --size 48x40 --steps 2 --csv /dev/stdout",
             "CLI run --backend cpu --size 48x40 --steps 2 --csv - --quiet 2>&1" }) {
        const Result r = sh(line);
        EXPECT_EQ(r.code, 0) << line << "\n" << r.err;
        EXPECT_EQ(lines(r.out), 2) << line << "\n" << r.out; // the header and the row, nothing else
    }
    EXPECT_FALSE(fs::exists("/nonexistent-dir-stencilscope"));
}

// Class 4: a later combination that is invalid is refused before the earlier ones run; a sweep's base is checked.
TEST(CliHardening, EveryCombinationIsCheckedBeforeTheFirstRuns) {
    fs::remove(scratch() / "list.csv");
    // 11600^2 at R16 fits the fp64 reference of --verify, at R1 it does not.
    expect_refused(
        "CLI run --backend cpu --size 11600x11600 --radius 16,1 --verify --csv list.csv", "combination 2 of 2");
    EXPECT_FALSE(fs::exists(scratch() / "list.csv"));
    expect_refused("CLI bench --backend cpu --size 48x40 --radius 1,2 --steps 0 --csv list.csv", "--steps 0");
    EXPECT_FALSE(fs::exists(scratch() / "list.csv"));
    // --gpus 2 on the CPU backend: no point of the sweep can run, so it does not start.
    expect_refused("CLI sweep --experiment radius --backend cpu --size 48x40 --gpus 2 --csv list.csv", "not on 2 GPUs");
    EXPECT_FALSE(fs::exists(scratch() / "list.csv"));
}

// Class 6: the CPU backend runs nothing that no GPU could; a sweep records a refusal for it, not a rate.
TEST(CliHardening, TheCpuBackendRefusesWhatNoGpuCouldRun) {
    expect_refused(
        "CLI run --backend cpu --variant temporal --dims 3 --radius 16 --size 64x64x64", "no GPU could run this");
    fs::remove(scratch() / "depth.csv");
    const Result r = sh("CLI sweep --experiment depth --backend cpu --dims 3 --size 40x40x40 --radius 16 --depth 1,2 "
                        "--steps 1 --repeats 1 --csv depth.csv");
    EXPECT_EQ(r.code, 0) << r.err; // base, the reference, runs
    const std::string csv = slurp(scratch() / "depth.csv");
    EXPECT_EQ(lines(csv), 4) << csv; // header, base, two refused temporal points
    std::size_t refusals = 0;
    for (std::size_t at = 0; (at = csv.find("no GPU could run this", at)) != std::string::npos; ++at) ++refusals;
    EXPECT_EQ(refusals, 2u) << csv;
}

// Class 10: a knob value is checked as an option is; `knobs` still lists it.
TEST(CliHardening, KnobValuesNotTakenEndTheCommandBeforeAnyWork) {
    for (const char* value : { "inf", "junk", "1e308", "-1", "nan" })
        expect_refused(std::string("STENCILSCOPE_MPI_TIMEOUT_S=") + value + " CLI run " + kSmall,
            std::string("STENCILSCOPE_MPI_TIMEOUT_S=") + value);
    expect_refused("STENCILSCOPE_STREAM_PIPE=17 CLI devices", "STENCILSCOPE_STREAM_PIPE=17");
    const Result listed = sh("STENCILSCOPE_MPI_TIMEOUT_S=inf CLI knobs");
    EXPECT_EQ(listed.code, 0) << listed.err;
    EXPECT_NE(listed.out.find("ignored (inf"), std::string::npos) << listed.out;
    const Result fine = sh(std::string("STENCILSCOPE_MPI_TIMEOUT_S=2.5 STENCILSCOPE_STREAM_PIPE= CLI run ") + kSmall);
    EXPECT_EQ(fine.code, 0) << fine.err;
}

// Class 11: under an MPI launcher only run, bench and profile (which split the domain) start; rank 0 says why.
TEST(CliHardening, CommandsThatDoNotSplitADomainRefuseAnMpiLauncher) {
    for (const char* command :
        { "sweep --experiment radius --backend cpu", "devices", "autotune", "bandwidth", "knobs", "help" }) {
        expect_refused(std::string("OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=0 CLI ") + command, "under mpirun");
        const Result other = sh(std::string("OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=2 CLI ") + command);
        EXPECT_EQ(other.code, 2) << command;
        EXPECT_EQ(other.err, "") << command; // one line for the whole job, from rank 0
        EXPECT_EQ(other.out, "") << command;
    }
    expect_refused("PMI_SIZE=2 PMI_RANK=0 CLI devices", "under mpirun");
    expect_refused("PMIX_RANK=0 CLI devices", "under mpirun"); // a PMIx launcher does not say the size
    expect_refused("PMIX_RANK=0 SLURM_STEP_NUM_TASKS=4 CLI devices", "under mpirun"); // srun --mpi=pmix
    const Result batch = sh("SLURM_STEP_NUM_TASKS=4 CLI devices"); // no PMIx rank: not an srun task of several
    EXPECT_EQ(batch.code, 0) << batch.err;
    const Result alone = sh("OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 CLI devices");
    EXPECT_EQ(alone.code, 0) << alone.err; // mpirun -np 1: one process
}

// Class 12: options that would not be used, and the strips test hook on the CPU backend, are refused by name.
TEST(CliHardening, OptionsThatWouldNotBeUsedAreRefused) {
    expect_refused(
        "CLI run --backend cpu --stencil diffusion4 --rule wave", "--rule does not apply to --stencil diffusion4");
    expect_refused("CLI bench --backend cpu --stencil diffusion4 --radius 4", "--radius does not apply");
    expect_refused("CLI run --backend cpu --size 48x40 --split z", "--split z does not apply to --dims 2");
    expect_refused("CLI bench --backend cpu --size 48x40 --steps 0", "--steps 0");
    expect_refused(std::string("STENCILSCOPE_STRIPS_PER_GPU=3 CLI run ") + kSmall, "STENCILSCOPE_STRIPS_PER_GPU=3");
    const Result split = sh("CLI run --backend cpu --dims 3 --size 24x24x24 --steps 1 --split z");
    EXPECT_EQ(split.code, 0) << split.err;
}
