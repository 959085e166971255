// SPDX-License-Identifier: MIT
// The kernel source view's line diff (reports/line_diff.h): a shortest edit script that reproduces both texts.
#include "reports/line_diff.h"

#include <gtest/gtest.h>

#include <random>

using namespace ss;

namespace {

// Rebuilds both texts from the script and counts its edits.
int check_script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    const std::vector<DiffLine> script = diff_lines(a, b);
    std::vector<std::string> left, right;
    int edits = 0;
    for (const DiffLine& l : script) {
        if (l.op != DiffOp::Added) left.push_back(a.at(std::size_t(l.left)));
        if (l.op != DiffOp::Removed) right.push_back(b.at(std::size_t(l.right)));
        if (l.op == DiffOp::Same) {
            EXPECT_EQ(a.at(std::size_t(l.left)), b.at(std::size_t(l.right)));
        }
        edits += l.op != DiffOp::Same;
    }
    EXPECT_EQ(left, a);
    EXPECT_EQ(right, b);
    return edits;
}

} // namespace

TEST(LineDiff, SplitsLinesLikeAnEditor) {
    EXPECT_EQ(split_lines("a\nb\n"), (std::vector<std::string> { "a", "b" }));
    EXPECT_EQ(split_lines("a\n\nb"), (std::vector<std::string> { "a", "", "b" }));
    EXPECT_TRUE(split_lines("").empty());
}

TEST(LineDiff, FindsTheShortestScript) {
    // Myers' paper's example: ABCABBA -> CBABAC takes 5 edits.
    auto chars = [](const std::string& s) {
        std::vector<std::string> v;
        for (char c : s) v.emplace_back(1, c);
        return v;
    };
    EXPECT_EQ(check_script(chars("ABCABBA"), chars("CBABAC")), 5);
    EXPECT_EQ(check_script(chars(""), chars("ABC")), 3);
    EXPECT_EQ(check_script(chars("ABC"), chars("")), 3);
    EXPECT_EQ(check_script(chars("ABC"), chars("ABC")), 0);
    EXPECT_EQ(check_script(chars("AXC"), chars("AYC")), 2);
}

TEST(LineDiff, ReproducesRandomTexts) {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<std::string> a, b;
        for (int i = 0; i < int(rng() % 40); ++i) a.push_back(std::to_string(rng() % 5));
        for (int i = 0; i < int(rng() % 40); ++i) b.push_back(std::to_string(rng() % 5));
        const int edits = check_script(a, b);
        EXPECT_LE(edits, int(a.size() + b.size()));
    }
}

TEST(LineDiff, PairsAChangedLineWithItsReplacement) {
    const std::vector<std::string> a { "#define R 1", "#define VARIANT 0", "body" };
    const std::vector<std::string> b { "#define R 1", "#define VARIANT 1", "body", "more" };
    const std::vector<DiffRow> rows = side_by_side(diff_lines(a, b));
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_FALSE(rows[0].changed());
    EXPECT_TRUE(rows[1].changed());
    EXPECT_TRUE(rows[1].differs);
    EXPECT_EQ(rows[1].left, 1);
    EXPECT_EQ(rows[1].right, 1);
    EXPECT_FALSE(rows[2].changed());
    EXPECT_EQ(rows[3].left, -1);
    EXPECT_EQ(rows[3].right, 3);
}
