// SPDX-License-Identifier: MIT
// stencilscope-cli's contract: bad input -> exit 2 and exactly one stderr line, nothing written.
#include "command_result.h"
#include "reports/csv.h"
#include "reports/experiment_report.h"
#include "reports/run_options.h"
#include "reports/run_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using ss::test::lines;
using ss::test::Result;
using ss::test::slurp;

Result run(const std::string& program, const std::string& args) {
    const auto dir = std::filesystem::temp_directory_path();
    // per process: the sanitizers test runs the ASan build's cli_tests, maybe next to this one (ctest -j)
    const std::string tag = std::to_string(getpid());
    const std::string out = (dir / ("ss_cli_out_" + tag + ".txt")).string();
    const std::string err = (dir / ("ss_cli_err_" + tag + ".txt")).string();
    const std::string cmd = program + " " + args + " >" + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    Result r { WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err) };
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
}

Result cli(const std::string& args) {
    return run(STENCILSCOPE_CLI, args);
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
        // sizes beyond memory or int, negative and huge counts, out-of-range and non-numeric values
        "run --size 1000000x1000000",
        "run --backend cpu --dims 3 --size 100000x100000x100000",
        "run --size 99999999999x2",
        "run --size -64x64",
        "run --size 64x64x",
        "run --steps -1",
        "run --steps 99999999999",
        "run --steps ten",
        "run --radius 0",
        "run --radius 99",
        "run --radius abc",
        "run --radius ''",
        "run --cf 1e3",
        "run --seed -5",
        "run --seed 18446744073709551616",
        "run --gpus 99",
        "run --gpus 0",
        "run --device -1",
        "bench --repeats 0",
        "bench --warmup 1000000",
        "bandwidth --bytes 12",
        // outputs that cannot be written: a directory, a read-only file system
        "run --backend cpu --csv /",
        "run --backend cpu --csv /proc/stencilscope.csv",
        "bench --backend cpu --size 64x64 --csv /nonexistent-dir-stencilscope/b.csv",
        // a control character in a value or command stays one line
        "run --variant 'smem\npadded'",
        "'frob\nnicate'",
        // lists whose product would exhaust memory before anything runs
        "run --backend cpu --radius 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --cf 1,2,4,8 --rule thesis,jacobi,wave "
        "--precision fp32,fp64 --variant base,smem,smem_padded,stream,uncoalesced --overlap on,off --halo auto,staged "
        "--gpus 1,2",
        // the parser (CLI11): unknown options, flags given a value, options of other commands, no command
        "",
        "run --bogus",
        "knobs --bogus",
        "run --bogus 1",
        "run --verify=yes",
        "run --radius=",
        "run stray",
        "devices --radius 2",
        "run --experiment radius",
        "bandwidth --steps 3",
        "profile --no-cache",
        "run --stencil diffusion4 --variant stream --backend cpu",
        // issue 15, class 1: sizes whose cell count wraps 64 bits, and copy sizes whose double would
        "run --backend cpu --dims 3 --size 2097152x2097152x4194304",
        "bench --backend cpu --dims 3 --size 2097152x2097152x4194304 --radius 1,2",
        "sweep --experiment radius --backend cpu --dims 3 --size 2097152x2097152x4194304",
        "autotune --dims 3 --size 2097152x2097152x4194304",
        "profile --dims 3 --size 2097152x2097152x4194304",
        "run --backend cpu --size 4294967296x4294967296",
        "bandwidth --bytes 9223372036854775807",
        // issue 17: blocks no GPU could launch, refused on the CPU backend too
        "run --backend cpu --block 64x32",
        "run --backend cpu --dims 3 --radius 16 --variant smem_padded --block 8x8x8",
        "bench --backend cpu --size 64x64 --block 2048x1",
    };
    for (const char* args : cases) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
        EXPECT_EQ(r.out, "") << args;
    }
}

TEST(Cli, ReasonsNameTheProblem) {
    const std::pair<const char*, const char*> cases[] = {
        { "run --size 1000000x1000000", "memory" },
        { "run --radius 99", "1..16" },
        { "run --gpus 99", "1..64" },
        { "run --backend cpu --csv /", "directory" },
        { "run --variant 'smem\npadded'", "smem\\x0apadded" },
        { "run --backend cpu --radius 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --cf 1,2,4,8 --rule thesis,jacobi,wave "
          "--precision fp32,fp64 --variant base,smem,smem_padded,stream,uncoalesced --overlap on,off --halo "
          "auto,staged "
          "--gpus 1,2",
            "combinations" },
        { "", "no command given" },
        { "run --bogus", "unknown option --bogus (see --help)" },
        { "run --bogus 1", "unknown option --bogus" },
        { "run --verify=yes", "--verify takes no value" },
        { "run --radius", "--radius needs a value" },
        { "run stray", "unexpected argument 'stray'" },
        { "devices --radius 2", "--radius does not apply to devices (only to run, bench, profile, autotune, sweep)" },
        { "run --stencil diffusion4 --variant stream --backend cpu", "does not apply to --stencil diffusion4" },
        { "run --backend cpu --dims 3 --size 2097152x2097152x4194304", "at most 2^40 cells" },
        { "sweep --experiment radius --backend cpu --dims 3 --size 2097152x2097152x4194304", "at most 2^40 cells" },
        { "bandwidth --bytes 9223372036854775807", "1 MiB..1 TiB" },
        { "run --backend cpu --block 64x32", "no GPU could launch this block: block 64x32x1 has 2048 threads" },
        { "run --backend cpu --dims 3 --radius 16 --variant smem_padded --block 8x8x8",
            "smem_padded needs every block dim >= R (16)" },
    };
    for (const auto& [args, reason] : cases) {
        const Result r = cli(args);
        EXPECT_NE(r.err.find(reason), std::string::npos) << args << "\nstderr: " << r.err;
    }
}

TEST(Cli, CpuRunVerifiesAndWritesCsv) {
    const std::string csv
        = (std::filesystem::temp_directory_path() / ("ss_cli_test_" + std::to_string(getpid()) + ".csv")).string();
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
    // No GPU kernel ran: the report names the CPU loop, the kernel column stays empty after depth 1; the stencil's
    // name and points came last (issue 34): the thesis star R3 in 3D, 18 neighbours and its centre.
    EXPECT_NE(r.out.find("kernel   CPU loop: "), std::string::npos) << r.out;
    EXPECT_NE(text.find(",depth,kernel,stencil_name,stencil_points,chosen_by,chosen_why\n"), std::string::npos) << text;
    ASSERT_GE(text.size(), 14u);
    EXPECT_EQ(text.substr(text.size() - 14), ",1,,star,19,,\n") << text; // chosen_by, chosen_why: no auto
    std::filesystem::remove(csv);
}

// Issue 35: `run` says which temporal CF and depth it took where none was given, and why; a given one is not listed.
TEST(Cli, TemporalRunNamesTheDefaultsItTook) {
    const Result both = cli("run --backend cpu --stencil 2d9pt --variant temporal --size 64x64 --steps 12");
    EXPECT_EQ(both.code, 0) << both.err;
    EXPECT_NE(both.out.find("defaults CF 2 and depth 4, not given: the point temporal kernel's for 2D R1 fp32"),
        std::string::npos)
        << both.out;
    const Result depth = cli("run --backend cpu --dims 3 --variant temporal --cf 2 --size 32x32x32 --steps 8");
    EXPECT_EQ(depth.code, 0) << depth.err;
    EXPECT_NE(depth.out.find("defaults depth 4, not given: the star's temporal kernel's for 3D R1"), std::string::npos)
        << depth.out;
    const Result given = cli("run --backend cpu --variant temporal --cf 1 --depth 3 --size 64x64 --steps 6");
    EXPECT_EQ(given.code, 0) << given.err;
    EXPECT_EQ(given.out.find("defaults "), std::string::npos) << given.out;
}

TEST(Cli, HelpListsEveryContractOption) {
    const Result r = cli("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* opt : { "--stencil", "--rule", "--dims", "--size", "--radius", "--variant", "--cf", "--block",
             "--precision", "--steps", "--backend", "--device", "--gpus", "--overlap", "--halo", "--csv", "bench",
             "bandwidth", "sweep", "--experiment", "--counters", "--cache", "--no-cache" })
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

// A device that stops answering mid-run (injected on the CPU backend): one line, exit 1, no CSV row.
TEST(Cli, DeviceFailureMidRunExitsOneWithOneLine) {
    const std::string csv = (std::filesystem::temp_directory_path() / "ss_cli_fault.csv").string();
    std::filesystem::remove(csv);
    const Result r = run("STENCILSCOPE_INJECT_FAULT_AFTER=3 " STENCILSCOPE_CLI,
        "run --backend cpu --size 32x32 --steps 10 --csv " + csv);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("stopped answering"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(csv));
}

// `knobs` lists every knob with the value in force: set, empty (= unset) and malformed (ignored) alike.
TEST(Cli, KnobsShowsValuesInForce) {
    const Result r = run("STENCILSCOPE_STREAM_PIPE=6 STENCILSCOPE_TEMPORAL_FASTPATH= STENCILSCOPE_FIX_BLOCK=abc "
                         "STENCILSCOPE_STRIPS_PER_GPU=3 " STENCILSCOPE_CLI,
        "knobs");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    auto row = [&](const std::string& name) { // "NAME  kind  in-force  from ..."
        const std::size_t at = r.out.find("\n" + name + " ");
        return at == std::string::npos ? std::string() : r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    };
    EXPECT_NE(row("STENCILSCOPE_STREAM_PIPE").find(" 6 "), std::string::npos) << r.out;
    EXPECT_NE(row("STENCILSCOPE_STREAM_PIPE").find("environment"), std::string::npos) << r.out;
    EXPECT_NE(row("STENCILSCOPE_STRIPS_PER_GPU").find(" 3 "), std::string::npos) << r.out;
    EXPECT_NE(row("STENCILSCOPE_TEMPORAL_FASTPATH").find("empty = unset"), std::string::npos) << r.out;
    EXPECT_NE(row("STENCILSCOPE_FIX_BLOCK").find("ignored (abc"), std::string::npos) << r.out;
    EXPECT_NE(row("STENCILSCOPE_CUDA_LIBS").find("unset, default"), std::string::npos) << r.out;
}

TEST(Cli, SweepBadInputExitsTwoWithOneLineAndWritesNothing) {
    const std::string csv = (std::filesystem::temp_directory_path() / "ss_cli_sweep_refused.csv").string();
    std::filesystem::remove(csv);
    const std::string cases[] = {
        "sweep --experiment frobnicate --backend cpu",
        "sweep --radius 1,2 --backend cpu", // no --experiment
        "sweep --experiment radius --radius 1,x --backend cpu",
        "sweep --experiment radius --radius 1,,2 --backend cpu",
        "sweep --experiment cf --cf 1,3 --backend cpu",
        "sweep --experiment radius --variant base,turbo --backend cpu",
        "sweep --experiment radius --block 32x8 --backend cpu",
        "sweep --experiment radius --stencil diffusion4 --backend cpu",
        "sweep --experiment autotuned --backend cpu",
        "sweep --experiment radius --backend cpu --csv /nonexistent-dir-stencilscope/out.csv",
        "sweep --experiment radius --backend cpu --size 24x20 --radius 1 --csv " + csv + " --cache /tmp --no-cache",
        "autotune --cache /tmp --no-cache",
        "autotune --cache /",
    };
    for (const std::string& args : cases) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
        EXPECT_EQ(r.out, "") << args;
    }
    EXPECT_FALSE(std::filesystem::exists(csv));
}

TEST(Cli, CpuCoarseningSweepPrintsTheTableAndWritesCsv) {
    const std::string csv = (std::filesystem::temp_directory_path() / "ss_cli_sweep.csv").string();
    std::filesystem::remove(csv);
    const Result r = cli("sweep --experiment cf --backend cpu --size 24x20 --radius 1,2 --variant base,smem "
                         "--cf 1,2 --steps 1 --repeats 1 --csv "
        + csv);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("smem CF2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1.00x"), std::string::npos) << r.out; // base against itself
    const std::string text = slurp(csv);
    EXPECT_EQ(lines(text), 1 + 2 * 4) << text; // header + 2 radii x 2 variants x 2 CFs
    // The GUI's Experiments window opens what the CLI writes.
    ss::ExperimentTable table;
    const ss::Status read = ss::read_experiment_csv(csv, &table);
    ASSERT_TRUE(read.ok) << read.reason;
    EXPECT_EQ(table.kind, ss::ExperimentKind::Coarsening);
    EXPECT_EQ(table.device, ss::cpu_device_name()); // as the GUI names it: "CPU (N threads)"
    EXPECT_EQ(table.device.rfind("CPU (", 0), 0u) << table.device;
    ASSERT_EQ(table.points.size(), 8u);
    EXPECT_EQ(table.points[3].series, "smem CF2");
    EXPECT_EQ(table.points[0].improvement, 1.0);
    EXPECT_GT(table.points[3].gcells_per_s, 0.0);
    std::filesystem::remove(csv);
}

// Lists work in both documented forms, NAME VALUE and NAME=VALUE (issue 15, class 11).
TEST(Cli, ListsWorkInTheNameEqualsValueForm) {
    for (const char* args : { "run --backend cpu --size 32x32 --steps 1 --radius=1,2 --precision=fp32,fp64",
             "run --backend cpu --size 32x32 --steps 1 --radius 1,2 --precision fp32,fp64" }) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
        for (const char* config : { "star R1 jacobi 2D 32x32 fp32", "star R1 jacobi 2D 32x32 fp64",
                 "star R2 jacobi 2D 32x32 fp32", "star R2 jacobi 2D 32x32 fp64" })
            EXPECT_NE(r.out.find(config), std::string::npos) << args << ": " << config << "\n" << r.out;
    }
}

// Issue 15, class 7: a CSV the rows cannot be appended to is refused (exit 2) before any work, and kept.
TEST(Cli, CsvWhoseHeaderDiffersIsRefusedBeforeAnyWork) {
    const std::string csv
        = (std::filesystem::temp_directory_path() / ("ss_cli_header_" + std::to_string(getpid()) + ".csv")).string();
    auto write = [&](const std::string& text) {
        std::filesystem::remove(csv);
        std::ofstream(csv, std::ios::binary) << text;
    };
    for (const std::string command :
        { "run --backend cpu --size 32x32 --steps 1", "bench --backend cpu --size 32x32 --radius 1,2 --repeats 1",
            "sweep --experiment radius --backend cpu --size 24x20 --radius 1 --repeats 1" }) {
        std::filesystem::remove(csv);
        ASSERT_EQ(cli(command + " --csv " + csv).code, 0) << command; // the command's own header
        const std::string header_line = slurp(csv).substr(0, slurp(csv).find('\n') + 1);
        const std::pair<std::string, const char*> files[] = {
            { "a,b\n1,2\n", "header differs" },
            { "\xEF\xBB\xBF" + header_line, "byte-order mark" },
            { header_line.substr(0, header_line.size() - 1) + "\r\n", "CRLF" },
        };
        for (const auto& [text, reason] : files) {
            write(text);
            const Result r = cli(command + " --csv " + csv);
            EXPECT_EQ(r.code, 2) << command << " / " << reason;
            EXPECT_EQ(lines(r.err), 1) << r.err;
            EXPECT_NE(r.err.find(reason), std::string::npos) << command << "\n" << r.err;
            EXPECT_EQ(r.out, "") << command; // nothing ran
            EXPECT_EQ(slurp(csv), text) << command; // and the file is as it was
        }
    }
    const std::string header_line = ss::csv_line(ss::report_csv_header());
    // The same header: appended.
    write(header_line);
    EXPECT_EQ(cli("run --backend cpu --size 32x32 --steps 1 --csv " + csv).code, 0);
    EXPECT_EQ(lines(slurp(csv)), 2);
    // A FIFO is written as a stream, never read: tests/host/cli_pipe_tests.cpp.
    std::filesystem::remove(csv);
}

#if defined(__SANITIZE_ADDRESS__)
#define STENCILSCOPE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STENCILSCOPE_ASAN 1
#endif
#endif

// Issue 15, class 7: a domain that fits the machine but not the process's address-space limit is refused
// before the work, naming the limit (it failed with only "std::bad_alloc").
TEST(Cli, AddressSpaceLimitIsCheckedBeforeTheWork) {
#ifdef STENCILSCOPE_ASAN
    GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: it cannot start under ulimit -v";
#else
    const Result r = run("ulimit -v 1048576; " STENCILSCOPE_CLI, "run --backend cpu --size 10000x10000 --steps 1");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("address-space limit (ulimit -v) of 1.0 GiB"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
    const Result fits = run("ulimit -v 1048576; " STENCILSCOPE_CLI, "run --backend cpu --size 256x256 --steps 1");
    EXPECT_EQ(fits.code, 0) << fits.err;
#endif
}

// --help is generated from the parser every command uses: every option of the table is listed, and a
// command's own --help lists exactly the options it takes.
TEST(Cli, HelpListsWhatEachCommandParses) {
    const Result all = cli("help");
    EXPECT_EQ(all.code, 0);
    for (const ss::RunOptionSpec& spec : ss::run_option_specs())
        EXPECT_NE(all.out.find("\n  " + std::string(spec.name) + " "), std::string::npos) << spec.name;
    for (const char* command : { "run", "bench", "profile", "autotune", "sweep", "bandwidth", "roofline", "devices" }) {
        const Result r = cli(std::string(command) + " --help");
        EXPECT_EQ(r.code, 0) << command;
        EXPECT_EQ(r.out.rfind("Usage: stencilscope-cli " + std::string(command), 0), 0u) << r.out;
        for (const ss::RunOptionSpec& spec : ss::run_option_specs()) {
            const bool listed = r.out.find("\n  " + std::string(spec.name) + " ") != std::string::npos;
            EXPECT_EQ(listed, ss::run_option_applies(spec, command)) << command << " " << spec.name;
        }
    }
    for (const std::string line : { "help", "--help", "-h", "run --help", "run -h" })
        for (const std::string& text : { cli(line).out })
            for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
                end = text.find('\n', at);
                EXPECT_LE(end - at, 106u) << line << ": " << text.substr(at, end - at);
            }
}

#ifdef STENCILSCOPE_GUI_BIN
// The GUI's command line refuses the same way, before any window opens (so no display is needed).
TEST(GuiCommandLine, BadInputExitsTwoWithOneLine) {
    const char* cases[] = {
        "--radius 99",
        "--backend cpu --size 1000000x1000000 --frames 1",
        "--frames 0",
        "--frames x",
        "--benchmark-seconds -1",
        "--benchmark-seconds nan",
        "--soak-seconds 0",
        "--soak-seconds 1e9",
        "--soak-seconds 10 --soak-interval 0",
        "--soak-seconds 10 --frames 2",
        "--soak-seconds 10 --benchmark-seconds 1",
        "--backend cpu --frames 1 --screenshot /nonexistent-dir-stencilscope/x.png",
        "--backend cpu --frames 1 --window-screenshot /nonexistent-dir-stencilscope/w.png",
        "--backend cpu --frames 1 --screenshot /",
        "--range 5:1",
        "--slice ab",
        "--slice-index -1",
        "--metrics maybe",
        "--colormap rainbow",
        "--window-size 10x10",
        "--max-fps 0",
        "--max-fps fast",
        "--window-size big",
        "--sweep-png x.png",
        "--open-sweep /nonexistent-dir-stencilscope/s.csv --sweep-png x.png",
        "--open-sweep s.csv --sweep-show turbo",
        "'--bogus\n'",
        // the parser (CLI11): unknown options alone, the CLI's command options, lists, impossible values
        "--bogus",
        "--bogus 1",
        "--paused=yes",
        "--radius=1,2",
        "--experiment radius",
        "--csv x.csv",
        "--verify",
        "--steps 5",
        "--range -inf:inf",
        "--range 0:nan",
        "--stencil diffusion4 --variant stream",
        "--backend cpu --dims 3 --size 2097152x2097152x4194304",
        // issue 17: an output the GUI cannot write, a sweep that does not load: refused, no window
        "--backend cpu --frames 1 --screenshot /proc/stencilscope.png",
        "--backend cpu --frames 1 --window-screenshot /proc/stencilscope.png",
        "--open-sweep /nonexistent-dir-stencilscope/s.csv",
        "--open-sweep /",
    };
    for (const char* args : cases) {
        // bounded: a regression that opens the window instead would otherwise wait forever
        const Result r = run(std::string("QT_QPA_PLATFORM=offscreen timeout 60 ") + STENCILSCOPE_GUI_BIN, args);
        EXPECT_EQ(r.code, 2) << args;
        EXPECT_EQ(lines(r.err), 1) << args << "\nstderr: " << r.err;
        EXPECT_EQ(r.out, "") << args;
    }
}
#endif

#ifdef STENCILSCOPE_GUI_BIN
TEST(GuiCommandLine, ReasonsNameTheProblemAndHelpListsEveryOption) {
    const std::pair<const char*, const char*> cases[] = {
        { "--bogus", "unknown option --bogus (see --help)" },
        { "--csv x.csv", "the GUI does not write run CSVs" },
        { "--verify", "the GUI does not verify runs" },
        { "--range -inf:inf", "both within +-1e9" },
        { "--backend cpu --frames 1 --screenshot /proc/stencilscope.png", "cannot create files in /proc" },
        { "--open-sweep /nonexistent-dir-stencilscope/s.csv", "cannot read" },
    };
    for (const auto& [args, reason] : cases) {
        const Result r = run(std::string("QT_QPA_PLATFORM=offscreen timeout 60 ") + STENCILSCOPE_GUI_BIN, args);
        EXPECT_NE(r.err.find(reason), std::string::npos) << args << "\nstderr: " << r.err;
    }
    const Result help = run(STENCILSCOPE_GUI_BIN, "--help");
    EXPECT_EQ(help.code, 0);
    for (const ss::RunOptionSpec& spec : ss::run_option_specs()) // the configuration, and no CLI-only option
        EXPECT_EQ(help.out.find("\n  " + std::string(spec.name) + " ") != std::string::npos,
            spec.configuration || ss::run_option_applies(spec, "gui"))
            << spec.name;
    for (const char* option : { "--steps-per-frame", "--colormap", "--range", "--slice", "--slice-index",
             "--max-projection", "--paused", "--raster", "--metrics", "--frames", "--screenshot", "--window-screenshot",
             "--benchmark-seconds", "--max-fps", "--window-size", "--autotune", "--open-sweep", "--sweep-png",
             "--sweep-show", "--soak-seconds", "--soak-interval", "--help", "--version" })
        EXPECT_NE(help.out.find("\n  " + std::string(option) + " "), std::string::npos) << option;
}
#endif
