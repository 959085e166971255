// SPDX-License-Identifier: MIT
// `stencilscope-cli sweep`: its options and its CSV table (and that docs/CSV.md documents every column).
#include "app/cli/sweep_command.h"
#include "reports/autotune_report.h"
#include "reports/experiment_report.h"

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

// The sweep CSV is app/experiment_report's table (the GUI reads it back): docs/CSV.md must describe it.
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
