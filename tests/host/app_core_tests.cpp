// SPDX-License-Identifier: MIT
#include "reports/csv.h"
#include "reports/run_options.h"
#include "reports/run_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ss;

namespace {
std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / name).string();
}
// A run/bench row's value in the named column (found in the header, so added columns move nothing here).
std::string cell(const CsvRow& row, const std::string& column) {
    const CsvRow header = report_csv_header();
    const auto at = std::find(header.begin(), header.end(), column);
    return at == header.end() || row.size() != header.size() ? "(no column " + column + ")"
                                                             : row[std::size_t(at - header.begin())];
}
} // namespace

TEST(Csv, EscapesFieldsAsRfc4180) {
    EXPECT_EQ(csv_escape("plain"), "plain");
    EXPECT_EQ(csv_escape("a,b"), "\"a,b\"");
    EXPECT_EQ(csv_escape("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csv_line({ "x", "1,2" }), "x,\"1,2\"\n");
}

TEST(Csv, AppendsUnderOneHeaderAndRefusesAnother) {
    const std::string path = temp_path("stencilscope_test_append.csv");
    std::filesystem::remove(path);
    ASSERT_TRUE(append_csv(path, { "a", "b" }, { { "1", "2" } }).ok);
    ASSERT_TRUE(append_csv(path, { "a", "b" }, { { "3", "4" } }).ok);
    EXPECT_EQ(read_file(path), "a,b\n1,2\n3,4\n");
    const Status s = append_csv(path, { "a", "c" }, { { "5", "6" } });
    EXPECT_FALSE(s.ok);
    EXPECT_EQ(read_file(path), "a,b\n1,2\n3,4\n"); // untouched
    std::filesystem::remove(path);
}

TEST(Csv, RefusesMissingDirectory) {
    const Status s = check_csv_path("/nonexistent-dir-stencilscope/x.csv");
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("does not exist"), std::string::npos);
    EXPECT_FALSE(check_csv_path(std::filesystem::temp_directory_path().string()).ok); // a directory
}

TEST(RunOptions, ParsesTheContractOptions) {
    RunOptions o;
    const Status s = parse_run_options(
        { "--stencil", "star", "--rule=wave", "--dims", "3", "--size", "64x32x16", "--radius", "8", "--variant",
            "smem_padded", "--cf", "4", "--block", "16x8x8", "--precision", "fp64", "--steps", "12", "--backend", "cpu",
            "--device", "1", "--gpus", "2", "--csv", "out.csv" },
        o);
    ASSERT_TRUE(s.ok) << s.reason;
    const StencilConfig& c = o.config;
    EXPECT_EQ(c.problem.rule, UpdateRule::Wave);
    EXPECT_EQ(c.problem.size, (Extent { 64, 32, 16 }));
    EXPECT_EQ(c.problem.radius, 8);
    EXPECT_EQ(c.policy.variant, Variant::SmemPadded);
    EXPECT_EQ(c.policy.cf, 4);
    EXPECT_FALSE(c.policy.heuristic_block);
    EXPECT_EQ(c.policy.block, (BlockDims { 16, 8, 8 }));
    EXPECT_EQ(c.problem.precision, Precision::FP64);
    EXPECT_EQ(c.placement.backend, Backend::Cpu);
    EXPECT_EQ(c.placement.device, 1);
    EXPECT_EQ(c.placement.gpus, 2);
    EXPECT_EQ(o.steps, 12);
    EXPECT_EQ(o.csv, "out.csv");
}

TEST(RunOptions, RejectsBadValuesNamingTheOption) {
    const std::vector<std::vector<std::string>> bad = {
        { "--variant", "turbo" },
        { "--cf", "3" },
        { "--radius", "0" },
        { "--dims", "4" },
        { "--size", "10x10x10" },
        { "--block", "32xx8" },
        { "--precision", "fp16" },
        { "--backend", "opencl" },
        { "--steps", "-1" },
        { "--gpus", "0" },
        { "--rule", "heat" },
        { "--stencil", "hexagon" },
        { "--radius" },
        { "--bogus", "1" },
        { "--stencil", "diffusion4", "--variant", "smem_padded" },
    };
    for (const auto& args : bad) {
        RunOptions o;
        const Status s = parse_run_options(args, o);
        EXPECT_FALSE(s.ok) << args.front();
        EXPECT_NE(s.reason.find(args.size() > 2 ? "--variant" : args.front()), std::string::npos) << s.reason;
    }
}

TEST(RunOptions, ReasonsQuoteTheInputOnOneShortLine) {
    // A value from a setup file or a script can hold anything: the reason must stay one line and short.
    const std::string pasted(100000, 'x');
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>> { { "--variant", "a\nb" },
             { "--size", pasted }, { "--bogus\r\n", "1" }, { "stray\x1b[2J" }, { "--init=" + pasted + "\n" } }) {
        RunOptions o;
        const Status s = parse_run_options(args, o);
        ASSERT_FALSE(s.ok);
        EXPECT_EQ(s.reason.find_first_of("\n\r\x1b"), std::string::npos) << s.reason;
        EXPECT_LT(s.reason.size(), 200u) << s.reason;
    }
    EXPECT_EQ(quote_for_message("smem\tpadded"), "smem\\x09padded");
    EXPECT_EQ(quote_for_message(std::string(61, 'a')), std::string(60, 'a') + "...");
    EXPECT_EQ(quote_for_message(std::string(60, 'a')), std::string(60, 'a'));
    // Cut at a character boundary: 59 ASCII bytes, then a 2-byte UTF-8 character kept whole.
    EXPECT_EQ(quote_for_message(std::string(59, 'a') + "\xc3\xa9zzz"), std::string(59, 'a') + "\xc3\xa9...");
}

TEST(RunOptions, RefusesOptionsThatAreNotRunOptions) {
    // The GUI's own options are registered by the GUI's parser; here they are unknown, named as such.
    RunOptions o;
    const Status s = parse_run_options({ "--frames", "3", "--radius", "2" }, o);
    ASSERT_FALSE(s.ok);
    EXPECT_EQ(s.reason, "unknown option --frames (see --help)");
}

TEST(RunReport, MedianAndRates) {
    RunReport r;
    r.options.config.problem.size = { 1002, 1002, 1 };
    r.options.config.problem.radius = 1;
    r.ms_per_step = { 3.0, 1.0, 2.0 };
    EXPECT_DOUBLE_EQ(r.median_ms_per_step(), 2.0);
    EXPECT_NEAR(r.gcells_per_s(), 1e6 / 2e-3 / 1e9, 1e-12);
    EXPECT_EQ(report_csv_row(r).size(), report_csv_header().size());
}

TEST(RunOptions, MultiGpuOptions) {
    RunOptions o;
    ASSERT_TRUE(parse_run_options({ "--gpus", "2", "--overlap", "off", "--halo", "staged" }, o).ok);
    EXPECT_EQ(o.config.placement.gpus, 2);
    EXPECT_FALSE(o.config.placement.overlap);
    EXPECT_EQ(o.config.placement.halo, HaloMode::Staged);
    RunOptions d;
    ASSERT_TRUE(parse_run_options({}, d).ok);
    EXPECT_TRUE(d.config.placement.overlap);
    EXPECT_EQ(d.config.placement.halo, HaloMode::Auto);
    ASSERT_TRUE(parse_run_options({ "--gpus", "2", "--halo", "remote" }, o).ok);
    EXPECT_EQ(o.config.placement.halo, HaloMode::Remote);
    for (const auto& args : std::vector<std::vector<std::string>> { { "--overlap", "1" }, { "--halo", "nvlink" } }) {
        const Status s = parse_run_options(args, d);
        EXPECT_FALSE(s.ok);
        EXPECT_NE(s.reason.find(args.front()), std::string::npos) << s.reason;
    }
}

TEST(RunReport, StripColumnsUseTheMedianRun) {
    RunReport r;
    r.options.config.placement.gpus = 2;
    r.ms_per_step = { 1.0, 3.0, 2.0 };
    for (double ms : { 1.0, 3.0, 2.0 }) {
        MultiGpuStats m;
        m.strips.resize(2);
        m.strips[0].compute_ms = ms, m.strips[1].compute_ms = 2 * ms;
        m.strips[0].above = m.strips[1].below = HaloPath::PeerToPeer;
        r.strip_stats.push_back(m);
    }
    const MultiGpuStats m = r.median_strip_stats();
    EXPECT_DOUBLE_EQ(m.strips[0].compute_ms, 2.0);
    EXPECT_DOUBLE_EQ(m.strips[1].compute_ms, 4.0);
    const CsvRow row = report_csv_row(r);
    ASSERT_EQ(row.size(), report_csv_header().size());
    EXPECT_EQ(cell(row, "halo_path"), "peer-to-peer");
    EXPECT_EQ(cell(row, "slowest_gpu_ms_per_step"), "4");
    EXPECT_NE(format_report(r).find("strips   2 on GPU 0"), std::string::npos) << format_report(r);
}

TEST(RunReport, RemoteLoadsAreReportedAsComputed) {
    RunReport r;
    r.options.config.placement.gpus = 2, r.options.config.placement.halo = HaloMode::Remote;
    r.ms_per_step = { 1.0 };
    MultiGpuStats m;
    m.strips.resize(2);
    m.strips[0].above = m.strips[1].below = HaloPath::Remote;
    m.strips[0].remote_bytes = m.strips[1].remote_bytes = 4096;
    r.strip_stats.push_back(m);
    const std::string text = format_report(r);
    EXPECT_NE(text.find("halo remote"), std::string::npos) << text;
    EXPECT_NE(text.find("remote   8 KiB per step"), std::string::npos) << text;
    EXPECT_NE(text.find("computed from the geometry"), std::string::npos) << text;
    r.strip_stats.front().strips[0].remote_bytes = r.strip_stats.front().strips[1].remote_bytes = 0;
    EXPECT_NE(text.find("waits 0.0000 ms and loads 4 KiB"), std::string::npos) << text;
    EXPECT_EQ(text.find("halo     "), std::string::npos) << text; // nothing copied
    const CsvRow row = report_csv_row(r);
    EXPECT_EQ(cell(row, "overlap"), "off"); // nothing to overlap, whatever --overlap says
    EXPECT_EQ(cell(row, "halo_path"), "remote");
    EXPECT_EQ(cell(row, "halo_bytes_per_step"), "0"); // copied
    r.strip_stats.front().strips[0].remote_bytes = r.strip_stats.front().strips[1].remote_bytes = 0;
    EXPECT_EQ(format_report(r).find("remote   "), std::string::npos); // copies: no such line
}

TEST(RunReport, RooflineCountsEveryGpu) {
    RunReport r;
    r.options.config.problem.size = { 1002, 1002, 1 };
    r.ms_per_step = { 1.0 };
    r.copy_gbytes_per_s = r.gbytes_per_s(); // one GPU's roofline reached exactly
    EXPECT_DOUBLE_EQ(r.pct_of_roofline(), 100.0);
    r.options.config.placement.gpus = 2; // the same rate on two GPUs is half of their combined roofline
    EXPECT_DOUBLE_EQ(r.pct_of_roofline(), 50.0);
}

// The entry point that ran: a report line with its name and why, and the CSV's last column; the CPU loop has no name.
TEST(RunReport, NamesTheKernelThatRan) {
    RunReport r;
    r.options.config.problem.dims = 3, r.options.config.problem.radius = 16, r.options.config.policy.cf = 4;
    r.options.config.policy.variant = Variant::Stream;
    r.resources.kernel = choose_kernel(r.options.config);
    r.ms_per_step = { 1.0 };
    const std::string text = format_report(r);
    EXPECT_NE(
        text.find("kernel   ss_stream_forward_two_roles_3d (stream forward, two roles): one role's"), std::string::npos)
        << text;
    EXPECT_NE(text.find("uses     0 registers/thread"), std::string::npos) << text;
    const CsvRow header = report_csv_header(); // added last: older files keep their prefix
    ASSERT_GE(header.size(), 5u);
    EXPECT_EQ(header[header.size() - 5], "kernel");
    EXPECT_EQ(header[header.size() - 3], "stencil_points"); // issue 34's columns came after it
    EXPECT_EQ(header.back(), "chosen_why"); // and issue 35's after them
    EXPECT_EQ(cell(report_csv_row(r), "chosen_by"), ""); // no --variant auto
    EXPECT_EQ(cell(report_csv_row(r), "stencil_name"), "star");
    EXPECT_EQ(cell(report_csv_row(r), "stencil_points"), "96"); // 3D R16 jacobi: 6 x 16, no centre
    EXPECT_EQ(cell(report_csv_row(r), "kernel"), "ss_stream_forward_two_roles_3d");
    EXPECT_EQ(cell(report_csv_row(r), "depth"), "1");

    r.options.config.placement.backend = Backend::Cpu;
    r.resources.kernel = choose_kernel(r.options.config);
    const std::string cpu = format_report(r);
    EXPECT_NE(cpu.find("kernel   CPU loop: the CPU backend runs the reference loop"), std::string::npos) << cpu;
    EXPECT_EQ(cpu.find("registers/thread"), std::string::npos) << cpu;
    EXPECT_EQ(cell(report_csv_row(r), "kernel"), "");

    r.options.config = {};
    r.options.config.problem.stencil = StencilKind::Diffusion4, r.options.config.policy.variant = Variant::Naive;
    r.resources.kernel = choose_kernel(r.options.config);
    EXPECT_NE(format_report(r).find("each step also launches ss_diffusion_halo, ss_diffusion_naive_lap, "
                                    "ss_diffusion_naive_euler"),
        std::string::npos)
        << format_report(r);
}
