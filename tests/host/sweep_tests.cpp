// SPDX-License-Identifier: MIT
// `stencilscope-cli sweep`: its options and its CSV table (and that docs/CSV.md documents every column).
#include "app/sweep_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace ss;

TEST(SweepOptions, ParsesListsAndRefusesBadInputInOneLine) {
    SweepOptions o;
    ASSERT_TRUE(parse_sweep_options({ "--experiment", "cf", "--radius", "1,4", "--variant=smem,base", "--cf", "2,8",
                                        "--backend", "cpu", "--dims", "3", "--steps", "3", "--counters", "on" },
        o)
                    .ok);
    EXPECT_EQ(o.spec.kind, ExperimentKind::Coarsening);
    EXPECT_EQ(o.spec.radii, (std::vector<int> { 1, 4 }));
    EXPECT_EQ(o.spec.variants, (std::vector<Variant> { Variant::Smem, Variant::Base }));
    EXPECT_EQ(o.spec.cfs, (std::vector<int> { 2, 8 }));
    EXPECT_EQ(o.spec.base.dims, 3);
    EXPECT_EQ(o.spec.base.size, (Extent { 256, 256, 256 }));
    EXPECT_EQ(o.spec.steps, 3);
    EXPECT_EQ(o.spec.repeats, ExperimentSpec {}.repeats); // not given: the spec's default
    EXPECT_TRUE(o.spec.counters);
    ASSERT_TRUE(parse_sweep_options({ "--experiment", "radius", "--backend", "cpu", "--repeats", "7" }, o).ok);
    EXPECT_EQ(o.spec.repeats, 7);

    for (const std::vector<std::string>& bad :
        std::vector<std::vector<std::string>> { { "--radius", "1,2" }, // no --experiment
            { "--experiment", "frobnicate" }, { "--experiment", "radius", "--radius", "1,x" },
            { "--experiment", "radius", "--radius", "1,,2" }, { "--experiment", "radius", "--radius", "17" },
            { "--experiment", "radius", "--radius", "2,2" }, { "--experiment", "cf", "--cf", "3" },
            { "--experiment", "radius", "--variant", "naive" }, { "--experiment", "radius", "--block", "32x8" },
            { "--experiment", "radius", "--counters", "maybe" }, { "--experiment", "radius", "--frobnicate", "1" },
            { "--experiment", "autotuned", "--backend", "cpu" }, { "--experiment" } }) {
        const Status s = parse_sweep_options(bad, o);
        EXPECT_FALSE(s.ok) << bad.back();
        EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    }
}

TEST(SweepCsv, RowsMatchTheHeaderAndTheDocs) {
    const CsvRow header = sweep_csv_header();
    for (const char* column :
        { "timestamp", "device", "series", "radius", "variant", "cf", "block_x", "autotuned", "ms_per_step",
            "gcells_per_s", "improvement", "bottleneck_metric", "bottleneck_gbs", "bottleneck_improvement", "error" })
        EXPECT_NE(std::find(header.begin(), header.end(), column), header.end()) << column;
    EXPECT_EQ(header.back(), "error");

    ExperimentSpec spec;
    spec.kind = ExperimentKind::Autotuned;
    ExperimentPoint p;
    p.config.variant = Variant::Smem;
    p.config.radius = 4;
    p.config.heuristic_block = false;
    p.autotuned = true;
    p.gcells_per_s = 150.0;
    p.config.block = { 128, 4, 1 };
    p.config.cf = 2;
    p.series = "smem (autotuned)";
    p.improvement = 1.25;
    p.bottleneck_metric = "dram_write_gbs";
    p.bottleneck_gbs = 1234.5;
    const CsvRow row = sweep_csv_row(spec, p, "NVIDIA H100", "2026-11-22T22:30:00Z");
    ASSERT_EQ(row.size(), header.size());
    auto at = [&](const std::string& column) {
        return row[std::find(header.begin(), header.end(), column) - header.begin()];
    };
    EXPECT_EQ(at("experiment"), "autotuned");
    EXPECT_EQ(at("series"), "smem (autotuned)");
    EXPECT_EQ(at("block_x"), "128");
    EXPECT_EQ(at("block_y"), "4");
    EXPECT_EQ(at("cf"), "2");
    EXPECT_EQ(at("autotuned"), "1");
    EXPECT_EQ(at("heuristic_block"), "0");
    EXPECT_EQ(at("improvement"), "1.25");
    EXPECT_EQ(at("bottleneck_gbs"), "1234.5");
    EXPECT_EQ(at("bottleneck_improvement"), ""); // NaN is an empty cell
    EXPECT_EQ(at("error"), "");

    p.error = "refused, for a reason";
    p.config.backend = Backend::Cpu;
    const CsvRow failed = sweep_csv_row(spec, p, "CPU", "2026-11-22T22:30:00Z");
    EXPECT_EQ(failed.back(), "refused, for a reason");
    EXPECT_EQ(failed[std::find(header.begin(), header.end(), "gcells_per_s") - header.begin()], "");
    EXPECT_EQ(failed[std::find(header.begin(), header.end(), "block_x") - header.begin()], ""); // no CPU blocks

    // docs/CSV.md documents every column of the sweep table.
    std::ifstream doc(std::string(STENCILSCOPE_SOURCE_DIR) + "/docs/CSV.md");
    std::stringstream text;
    text << doc.rdbuf();
    const std::string docs = text.str();
    const auto section = docs.find("## sweep");
    ASSERT_NE(section, std::string::npos);
    for (const std::string& column : header)
        EXPECT_NE(docs.find(column, section), std::string::npos) << column << " is not in docs/CSV.md's sweep section";
}
