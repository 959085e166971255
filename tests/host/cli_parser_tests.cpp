// SPDX-License-Identifier: MIT
// The command-line grammar both programs share (reports/command_line.h, on CLI11) and the run options'
// meaning (reports/run_options.h): the forms, the one-line reasons, the checks made while reading.
#include "reports/command_line.h"
#include "reports/run_options.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ss;

namespace {

OptionValues parsed(const std::vector<std::string>& args, Status* status = nullptr) {
    CommandLine line;
    line.add_run_options("");
    line.section("Other:");
    line.add({ "--frames", "N", "frames" });
    line.add({ "--paused", "", "start paused" });
    line.add({ "--help", "", "this text" }, "-h");
    const Status s = line.parse(args);
    if (status) *status = s;
    return s ? line.values() : OptionValues {};
}

std::string reason(const std::vector<std::string>& args) {
    Status s;
    parsed(args, &s);
    EXPECT_FALSE(s.ok);
    return s.reason;
}

} // namespace

TEST(CommandLine, BothFormsGiveTheSameValuesInCommandLineOrder) {
    const OptionValues expected
        = { { "--radius", "1,2" }, { "--size", "64x64" }, { "--paused", "" }, { "--frames", "-3" } };
    EXPECT_EQ(parsed({ "--radius", "1,2", "--size", "64x64", "--paused", "--frames", "-3" }), expected);
    EXPECT_EQ(parsed({ "--radius=1,2", "--size=64x64", "--paused", "--frames=-3" }), expected);
    // The last value wins; "--name=" keeps its empty value instead of taking the next argument.
    EXPECT_EQ(parsed({ "--radius", "1", "--radius=4" }), (OptionValues { { "--radius", "4" } }));
    EXPECT_EQ(parsed({ "--csv=", "--paused" }), (OptionValues { { "--csv", "" }, { "--paused", "" } }));
    // A value may look like an option's start (a negative number, a range): it is the value.
    EXPECT_EQ(parsed({ "--frames", "-1:2" }), (OptionValues { { "--frames", "-1:2" } }));
    EXPECT_EQ(parsed({ "-h" }), (OptionValues { { "--help", "" } }));
}

TEST(CommandLine, ReasonsAreOneLineAndNameTheProblem) {
    EXPECT_EQ(reason({ "--bogus" }), "unknown option --bogus (see --help)"); // alone: not "needs a value"
    EXPECT_EQ(reason({ "--bogus=1" }), "unknown option --bogus (see --help)");
    EXPECT_EQ(reason({ "--radius", "2", "-x" }), "unknown option -x (see --help)");
    EXPECT_EQ(reason({ "--radius" }), "--radius needs a value");
    EXPECT_EQ(reason({ "--paused=yes" }), "--paused takes no value");
    EXPECT_EQ(reason({ "stray" }), "unexpected argument 'stray'");
    for (const std::vector<std::string>& args :
        std::vector<std::vector<std::string>> { { "--bo\ngus" }, { "x\ny" }, { "--" + std::string(10000, 'a') } }) {
        const std::string why = reason(args);
        EXPECT_EQ(why.find('\n'), std::string::npos) << why;
        EXPECT_LT(why.size(), 120u) << why;
    }
}

TEST(CommandLine, HelpListsEveryOptionItParses) {
    CommandLine line;
    line.add_run_options("");
    line.section("Display options:");
    line.add({ "--frames", "N", "run N displayed frames, write the pictures, exit" });
    line.add({ "--paused", "", "start paused" });
    const std::string help = line.help();
    const std::vector<std::string> names = line.names();
    EXPECT_EQ(names.size(), run_option_specs().size() + 2);
    for (const std::string& name : names) EXPECT_NE(help.find("\n  " + name + " "), std::string::npos) << name;
    EXPECT_NE(help.find("Display options:\n  --frames N "), std::string::npos) << help;
    // A command's help lists what it takes; the rest is parsed (to be refused by name) but not listed.
    CommandLine bandwidth;
    bandwidth.add_run_options("bandwidth");
    EXPECT_EQ(bandwidth.names().size(), run_option_specs().size());
    const std::string listed = bandwidth.help();
    EXPECT_NE(listed.find("  --bytes B "), std::string::npos) << listed;
    EXPECT_EQ(listed.find("  --radius "), std::string::npos) << listed;
    EXPECT_TRUE(bandwidth.parse({ "--radius", "2" }).ok);
    EXPECT_EQ(refuse_options_not_for("bandwidth", bandwidth.values()).reason,
        "--radius does not apply to bandwidth (only to run, bench, profile, autotune, sweep)");
}

TEST(CommandLine, WrappedHelpStaysWithinItsWidth) {
    const std::string text = wrap_text(std::string(300, 'x') + " " + std::string(40, 'y') + " z z z", "  --a  ", 8, 60);
    EXPECT_EQ(text.back(), '\n');
    std::size_t at = 0, longest_after_first = 0;
    for (std::size_t end = text.find('\n'), line = 0; end != std::string::npos; at = end + 1, end = text.find('\n', at))
        if (line++ > 0) longest_after_first = std::max(longest_after_first, end - at);
    EXPECT_LE(longest_after_first, 60u) << text; // a word longer than the width stays whole on its own line
    EXPECT_NE(text.find("\n        " + std::string(40, 'y') + " z z z\n"), std::string::npos) << text;
}

// Issue 15, class 1: a size whose cell count would wrap is refused as it is read, naming the limit.
TEST(RunOptions, SizesBeyondTwoToTheFortyCellsAreRefusedWhileReading) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>> {
             { "--dims", "3", "--size", "2097152x2097152x4194304" }, // 2^64 cells: a product of 0
             { "--dims", "3", "--size", "2147483647x2147483647x2147483647" }, { "--size", "2147483647x2147483647" },
             { "--dims", "3", "--size", "1048576x1048576x2" } }) {
        RunOptions o;
        const Status s = parse_run_options(args, o);
        ASSERT_FALSE(s.ok) << args.back();
        EXPECT_NE(s.reason.find("at most 2^40 cells"), std::string::npos) << s.reason;
    }
    RunOptions o; // exactly 2^40 is the engine's limit, not beyond it
    EXPECT_TRUE(parse_run_options({ "--dims", "3", "--size", "1048576x1048576x1" }, o).ok);
    EXPECT_EQ(o.config.problem.size.cells(), std::int64_t(1) << 40);
    for (const char* bytes : { "9223372036854775807", "1099511627777", "1048575" })
        EXPECT_FALSE(parse_run_options({ "--bytes", bytes }, o).ok) << bytes;
    EXPECT_TRUE(parse_run_options({ "--bytes", "1099511627776" }, o).ok);
}

TEST(RunOptions, ListsExpandInCommandLineOrderWhateverTheirForm) {
    CommandLine line;
    line.add_run_options("run");
    ASSERT_TRUE(line.parse({ "--radius=1,2", "--precision", "fp32,fp64", "--size", "64x64" }).ok);
    std::vector<OptionValues> runs;
    ASSERT_TRUE(expand_option_lists(line.values(), runs).ok);
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[1], (OptionValues { { "--radius", "1" }, { "--precision", "fp64" }, { "--size", "64x64" } }));
    EXPECT_FALSE(expand_option_lists(line.values(), runs, 3).ok); // more combinations than allowed
}

TEST(RunOptions, AVariantOfTheOtherStencilIsRefusedNotReplaced) {
    RunOptions o;
    const Status s = parse_run_options({ "--variant", "stream", "--stencil", "diffusion4" }, o);
    ASSERT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("--variant stream does not apply to --stencil diffusion4"), std::string::npos) << s.reason;
    RunOptions d; // not given: the stencil's default
    ASSERT_TRUE(parse_run_options({ "--stencil", "diffusion4" }, d).ok);
    EXPECT_EQ(d.config.policy.variant, Variant::Smem);
}
