// SPDX-License-Identifier: MIT
// `stencilscope-cli sweep`: its options and its CSV table (and that docs/CSV.md documents every column);
// autotune's rows, written as each candidate is timed.
#include "app/cli/sweep_command.h"
#include "gpu/problem/stencil_catalog.h"
#include "reports/autotune_report.h"
#include "reports/csv.h"
#include "reports/experiment_report.h"
#include "reports/run_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <locale>
#include <sstream>
#include <unistd.h>

using namespace ss;

TEST(SweepOptions, ParsesListsAndRefusesBadInputInOneLine) {
    SweepOptions o;
    ASSERT_TRUE(parse_sweep_options({ "--experiment", "cf", "--radius", "1,4", "--variant=smem,base", "--cf", "2,8",
                                        "--backend", "cpu", "--dims", "3", "--steps", "3", "--counters", "on" },
        o, false)
                    .ok);
    EXPECT_EQ(o.spec.kind, ExperimentKind::Coarsening);
    EXPECT_EQ(o.spec.radii, (std::vector<int> { 1, 4 }));
    EXPECT_EQ(o.spec.variants, (std::vector<Variant> { Variant::Smem, Variant::Base }));
    EXPECT_EQ(o.spec.cfs, (std::vector<int> { 2, 8 }));
    EXPECT_EQ(o.spec.base.problem.dims, 3);
    EXPECT_EQ(o.spec.base.problem.size, (Extent { 256, 256, 256 }));
    EXPECT_EQ(o.spec.steps, 3);
    EXPECT_EQ(o.spec.repeats, ExperimentSpec {}.repeats); // not given: the spec's default
    EXPECT_TRUE(o.spec.counters);
    ASSERT_TRUE(parse_sweep_options({ "--experiment", "radius", "--backend", "cpu", "--repeats", "7" }, o, false).ok);
    EXPECT_EQ(o.spec.repeats, 7);

    for (const std::vector<std::string>& bad :
        std::vector<std::vector<std::string>> { { "--radius", "1,2" }, // no --experiment
            { "--experiment", "frobnicate" }, { "--experiment", "radius", "--radius", "1,x" },
            { "--experiment", "radius", "--radius", "1,,2" }, { "--experiment", "radius", "--radius", "17" },
            { "--experiment", "radius", "--radius", "2,2" }, { "--experiment", "cf", "--cf", "3" },
            { "--experiment", "radius", "--variant", "naive" }, { "--experiment", "radius", "--block", "32x8" },
            { "--experiment", "radius", "--counters", "maybe" }, { "--experiment", "radius", "--frobnicate", "1" },
            { "--experiment", "autotuned", "--backend", "cpu" }, { "--experiment" } }) {
        const Status s = parse_sweep_options(bad, o, false);
        EXPECT_FALSE(s.ok) << bad.back();
        EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    }
}

TEST(SweepOptions, DepthSweepsTemporalAtOneRadiusUnlessTold) {
    SweepOptions o;
    ASSERT_TRUE(parse_sweep_options({ "--experiment", "depth", "--backend", "cpu" }, o, false).ok);
    EXPECT_EQ(o.spec.kind, ExperimentKind::Depth);
    EXPECT_EQ(o.spec.radii, (std::vector<int> { 1 }));
    EXPECT_EQ(o.spec.cfs, (std::vector<int> { 1 }));
    EXPECT_TRUE(o.spec.depths.empty()); // the valid range
    ASSERT_TRUE(
        parse_sweep_options({ "--experiment", "depth", "--depth", "1,4,9", "--radius", "1,2", "--cf", "1,2" }, o, true)
            .ok);
    EXPECT_EQ(o.spec.depths, (std::vector<int> { 1, 4, 9 }));
    EXPECT_EQ(o.spec.radii, (std::vector<int> { 1, 2 }));
    EXPECT_EQ(o.spec.cfs, (std::vector<int> { 1, 2 }));
    EXPECT_EQ(o.spec.base.placement.backend, Backend::Cuda);
    for (const auto& [bad, needle] : std::vector<std::pair<std::vector<std::string>, std::string>> {
             { { "--experiment", "depth", "--depth", "0" }, "integers 1..32" },
             { { "--experiment", "depth", "--depth", "2,x" }, "integers 1..32" },
             { { "--experiment", "depth", "--depth", "4,4" }, "listed twice" },
             { { "--experiment", "depth", "--variant", "stream" }, "--variant does not apply" },
             { { "--experiment", "depth", "--rule", "wave" }, "wave rule" },
             { { "--experiment", "radius", "--depth", "4" }, "--experiment depth only" } }) {
        const Status s = parse_sweep_options(bad, o, false);
        EXPECT_FALSE(s.ok) << bad.back();
        EXPECT_NE(s.reason.find(needle), std::string::npos) << s.reason;
        EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    }
}

// A depth sweep's rows carry the depth and the DRAM bytes per cell and step, and read back; a file written
// before those columns existed still opens.
TEST(SweepCsv, DepthColumnsRoundTripAndOldFilesStillOpen) {
    ExperimentPoint p;
    p.series = "temporal";
    p.config.policy.variant = Variant::Temporal, p.config.policy.depth = 9;
    p.gcells_per_s = 700.0;
    p.dram_bytes_per_cell = 0.95;
    ExperimentPoint base;
    base.series = "base";
    base.gcells_per_s = 300.0;
    const std::string path = testing::TempDir() + "/depth_sweep_" + std::to_string(getpid()) + ".csv";
    std::filesystem::remove(path);
    ASSERT_TRUE(append_csv(path, experiment_csv_header(),
        experiment_csv_rows(ExperimentKind::Depth, { base, p }, "test GPU", "2026-11-24T00:00:00Z")));
    ExperimentTable table;
    ASSERT_TRUE(read_experiment_csv(path, &table)) << read_experiment_csv(path, &table).reason;
    EXPECT_EQ(table.kind, ExperimentKind::Depth);
    ASSERT_EQ(table.points.size(), 2u);
    EXPECT_EQ(table.points[0].config.policy.depth, 1);
    EXPECT_TRUE(std::isnan(table.points[0].dram_bytes_per_cell));
    EXPECT_EQ(table.points[1].config.policy.depth, 9);
    EXPECT_DOUBLE_EQ(table.points[1].dram_bytes_per_cell, 0.95);
    EXPECT_NE(format_sweep_table(table.points).find("0.950"), std::string::npos) << format_sweep_table(table.points);

    CsvRow old_header = experiment_csv_header(); // before the depth columns
    old_header.resize(old_header.size() - 2);
    CsvRow old_row = experiment_csv_rows(ExperimentKind::Radius, { base }, "GPU", "2026-11-20T00:00:00Z").front();
    old_row.resize(old_header.size());
    std::filesystem::remove(path);
    ASSERT_TRUE(append_csv(path, old_header, { old_row }));
    ASSERT_TRUE(read_experiment_csv(path, &table)) << read_experiment_csv(path, &table).reason;
    EXPECT_EQ(table.points.size(), 1u);
    EXPECT_EQ(table.points[0].config.policy.depth, 1);
    std::filesystem::remove(path);
}

// The sweep CSV is reports/experiment_report's table (the GUI reads it back): docs/CSV.md must describe it.
// autotune --csv: a row per candidate as it is timed, in measurement order (not best first); a cache hit,
// which times nothing, writes them all at the end; a failed write is passed on.
TEST(AutotuneRows, StreamInMeasurementOrder) {
    StencilConfig c;
    std::vector<std::vector<CsvRow>> writes;
    Status next = Status::success();
    auto write = [&](const std::vector<CsvRow>& rows) {
        writes.push_back(rows);
        return next;
    };
    const std::size_t block_x = 9; // autotune_csv_header()'s column
    ASSERT_EQ(autotune_csv_header()[block_x], "block_x");
    std::vector<AutotuneResult> measured(3);
    for (int i = 0; i < 3; ++i) {
        measured[i].block = { 32 << i, 4, 1 };
        measured[i].gcells_per_s = 10.0 * (3 - i); // the first is the best: order must not follow the rate
    }
    measured[0].gcells_per_s = 1.0;

    AutotuneRowStream stream(c, "T", write);
    for (const AutotuneResult& r : measured) ASSERT_TRUE(stream.measured(r));
    ASSERT_EQ(writes.size(), 3u); // one write per candidate, at once
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(writes[i].size(), 1u);
        EXPECT_EQ(writes[i][0][block_x], std::to_string(32 << i));
        EXPECT_EQ(writes[i][0][0], "T");
    }
    EXPECT_TRUE(stream.finish(measured));
    EXPECT_EQ(writes.size(), 3u); // nothing twice

    writes.clear();
    AutotuneRowStream from_cache(c, "T", write);
    EXPECT_TRUE(from_cache.finish(measured));
    ASSERT_EQ(writes.size(), 1u);
    ASSERT_EQ(writes[0].size(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(writes[0][i][block_x], std::to_string(32 << i));

    next = Status::failure("the pipe closed");
    AutotuneRowStream failing(c, "T", write);
    const Status s = failing.measured(measured[0]);
    EXPECT_FALSE(s);
    EXPECT_EQ(s.reason, "the pipe closed");
}

TEST(SweepCsv, EveryColumnIsDocumented) {
    std::ifstream doc(std::string(STENCILSCOPE_SOURCE_DIR) + "/docs/CSV.md");
    std::stringstream text;
    text << doc.rdbuf();
    const std::string docs = text.str();
    for (const auto& [section, header] :
        { std::pair { std::string("## sweep"), experiment_csv_header() }, { "## autotune", autotune_csv_header() } }) {
        const auto at = docs.find(section);
        ASSERT_NE(at, std::string::npos) << section;
        const auto end = docs.find("\n## ", at + 1);
        const std::string part = docs.substr(at, end == std::string::npos ? std::string::npos : end - at);
        for (const std::string& column : header)
            EXPECT_NE(part.find("| " + column + " |"), std::string::npos)
                << column << " is not in docs/CSV.md " << section;
    }
}

namespace {

struct DecimalComma : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
};

// What a GUI process under LANG=de_DE.UTF-8 runs in (QApplication calls setlocale(LC_ALL, "")), plus a C++
// global locale with a decimal comma (streams): both restored at the end of the test.
class DecimalCommaLocale {
public:
    DecimalCommaLocale() {
        std::locale::global(std::locale(std::locale::classic(), new DecimalComma));
        for (const char* name : { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "tr_TR.UTF-8" })
            if (std::setlocale(LC_ALL, name)) {
                c_locale = name;
                break;
            }
    }
    ~DecimalCommaLocale() {
        std::locale::global(std::locale::classic());
        std::setlocale(LC_ALL, "C");
    }
    DecimalCommaLocale(const DecimalCommaLocale&) = delete;
    DecimalCommaLocale& operator=(const DecimalCommaLocale&) = delete;

    const char* c_locale = nullptr; // null: no decimal-comma C locale is installed here
};

} // namespace

// Issue 15, class 5: a sweep CSV written and read under a decimal-comma locale holds, and reads back, C numbers.
TEST(SweepCsv, NumbersIgnoreADecimalCommaLocale) {
    const DecimalCommaLocale locale;
    std::ostringstream stream;
    stream << 0.5;
    ASSERT_EQ(stream.str(), "0,5"); // the C++ global locale is in force
    if (locale.c_locale) {
        char c_text[16];
        std::snprintf(c_text, sizeof c_text, "%.3f", 0.025);
        ASSERT_STREQ(c_text, "0,025") << locale.c_locale; // and the C locale: printf would write a comma
    } else {
        std::printf("[   NOTE   ] no decimal-comma C locale here (localedef -i de_DE -f UTF-8 de_DE.UTF-8): "
                    "only the C++ global locale is set\n");
    }
    EXPECT_EQ(format_number(0.025), "0.025");
    EXPECT_EQ(format_number(1234567.0), "1.23457e+06");
    EXPECT_EQ(format_number(-2.5e-7), "-2.5e-07");

    ExperimentPoint p;
    p.config.problem.size = { 64, 48, 1 };
    p.config.policy.block = { 32, 8, 1 };
    p.series = "base";
    p.ms_per_step = 0.018275;
    p.gcells_per_s = 167.25;
    p.improvement = 1.0;
    const std::string path
        = (std::filesystem::temp_directory_path() / ("ss_sweep_locale_" + std::to_string(getpid()) + ".csv")).string();
    std::filesystem::remove(path);
    ASSERT_TRUE(append_csv(path, experiment_csv_header(),
        experiment_csv_rows(ExperimentKind::Radius, { p }, "CPU", "2026-11-24T00:00:00Z"))
                    .ok);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find(",0.018275,167.25,1,"), std::string::npos) << text.str();
    ExperimentTable table;
    const Status read = read_experiment_csv(path, &table);
    std::filesystem::remove(path);
    ASSERT_TRUE(read.ok) << read.reason;
    ASSERT_EQ(table.points.size(), 1u);
    EXPECT_EQ(table.points[0].ms_per_step, 0.018275);
    EXPECT_EQ(table.points[0].gcells_per_s, 167.25);
}

// A box sweep's rows name the box; the reader rebuilds each row's points from its dims and radius.
TEST(SweepCsv, BoxSweepRowsRoundTripWithTheirPoints) {
    ExperimentPoint p;
    p.series = "smem";
    use_shape(p.config.problem, box_shape(2, 3));
    p.config.problem.rule = UpdateRule::Jacobi;
    p.config.problem.size = { 64, 48, 1 };
    p.config.policy.variant = Variant::Smem;
    p.gcells_per_s = 120.0, p.ms_per_step = 0.02;
    const std::string path = testing::TempDir() + "/box_sweep_" + std::to_string(getpid()) + ".csv";
    std::filesystem::remove(path);
    const std::vector<CsvRow> rows = experiment_csv_rows(ExperimentKind::Radius, { p }, "GPU", "2026-11-27T00:00:00Z");
    EXPECT_EQ(rows.front()[4], "box");
    ASSERT_TRUE(append_csv(path, experiment_csv_header(), rows));
    ExperimentTable table;
    ASSERT_TRUE(read_experiment_csv(path, &table)) << read_experiment_csv(path, &table).reason;
    ASSERT_EQ(table.points.size(), 1u);
    const StencilProblem& read = table.points[0].config.problem;
    EXPECT_EQ(read.stencil, StencilKind::Points);
    ASSERT_TRUE(read.shape);
    EXPECT_EQ(read.shape->points.size(), 49u);
    EXPECT_EQ(read.radius, 3);
    std::filesystem::remove(path);
}
