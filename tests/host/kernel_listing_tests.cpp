// SPDX-License-Identifier: MIT
// The kernel source view's engine side (gpu/backends/cuda/kernel_listing.h): the texts a plan compiles, the marked
// and active lines, and NVRTC's PTX (and SASS where a disassembler is installed). No GPU needed.
#include "gpu/backends/cuda/kernel_listing.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/problem/cuda_support.h"
#include "reports/line_diff.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ss;

namespace {

StencilConfig star(Variant v, int cf = 1, int dims = 2) {
    StencilConfig c;
    c.policy.variant = v, c.policy.cf = cf, c.problem.dims = dims;
    c.problem.size = dims == 3 ? Extent { 64, 64, 64 } : Extent { 512, 512, 1 };
    return c;
}

KernelTexts texts_of(StencilConfig c, Backend backend = Backend::Cpu) {
    c.placement.backend = backend;
    return kernel_texts(make_launch_plan(c, DeviceCatalogue {}));
}

// The kept lines' text.
std::vector<std::string> active_text(const std::string& source) {
    const std::vector<std::string> lines = split_lines(source);
    const std::vector<bool> keep = active_lines(source, 9, 0);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (keep.at(i)) out.push_back(lines[i]);
    return out;
}

bool has_line(const std::vector<std::string>& lines, const std::string& needle) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(needle) != l.npos; });
}

} // namespace

TEST(KernelListing, TextsOnTheCpuBackendAreWhatAGpuWouldCompile) {
    const KernelTexts t = texts_of(star(Variant::Smem, 4));
    ASSERT_EQ(t.problem, "");
    EXPECT_NE(t.about.find("CPU backend"), std::string::npos) << t.about;
    EXPECT_NE(t.generic.find("#define VARIANT 1\n"), std::string::npos);
    EXPECT_NE(t.generic.find("#define CF 4\n"), std::string::npos);
    EXPECT_NE(t.generic.find("#define SS_ENTRY " + t.entry + "\n"), std::string::npos);
    EXPECT_EQ(t.cc_major, 9);
    // The heuristic block with the default occupancy rule: the plan fixes the block, so the specialised text exists.
    EXPECT_NE(t.specialised.find("#define SBX"), std::string::npos) << t.specialised_note;
    EXPECT_EQ(&t.compiled(), &t.specialised);
}

TEST(KernelListing, GivenBlockOfTheStreamKernelIsSpecialised) {
    StencilConfig c = star(Variant::Stream, 2, 3);
    c.policy.heuristic_block = false, c.policy.block = BlockDims { 32, 8, 1 };
    const KernelTexts t = texts_of(c);
    ASSERT_EQ(t.problem, "");
    EXPECT_NE(t.specialised.find("#define SBX 32\n"), std::string::npos);
    EXPECT_EQ(t.generic.find("#define SBX"), std::string::npos);
}

TEST(KernelListing, RefusedConfigurationSaysWhy) {
    StencilConfig c = star(Variant::Smem);
    c.problem.radius = 0;
    const KernelTexts t = texts_of(c);
    EXPECT_NE(t.problem, "");
    EXPECT_TRUE(t.generic.empty());
}

TEST(KernelListing, MarksTheVariantsLines) {
    for (const auto& [variant, mark] :
        { std::pair { Variant::Smem, LineMark::SharedTile }, std::pair { Variant::SmemPadded, LineMark::SharedTile },
            std::pair { Variant::Base, LineMark::Coarsening }, std::pair { Variant::Stream, LineMark::PlaneLoop } }) {
        const std::string source = texts_of(star(variant, 2)).generic;
        const std::vector<LineMark> marks = marked_lines(source);
        const std::vector<std::string> lines = split_lines(source);
        ASSERT_EQ(marks.size(), lines.size());
        const std::vector<bool> keep = active_lines(source, 9, 0);
        bool marked_active = false, knob = false;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            marked_active = marked_active || (marks[i] == mark && keep[i]);
            if (lines[i].rfind("#define VARIANT ", 0) == 0) knob = marks[i] == LineMark::Knob;
        }
        EXPECT_TRUE(marked_active) << line_mark_name(mark);
        EXPECT_TRUE(knob);
    }
    const std::string temporal = texts_of(star(Variant::Temporal, 1, 2)).generic;
    const std::vector<LineMark> marks = marked_lines(temporal);
    EXPECT_NE(std::find(marks.begin(), marks.end(), LineMark::TemporalStages), marks.end());
}

TEST(KernelListing, ActiveLinesKeepOnlyTheVariantsKernel) {
    const std::vector<std::string> base = active_text(texts_of(star(Variant::Base)).generic);
    const std::vector<std::string> smem = active_text(texts_of(star(Variant::Smem)).generic);
    EXPECT_FALSE(has_line(base, "__syncthreads()"));
    EXPECT_TRUE(has_line(smem, "__syncthreads()"));
    EXPECT_FALSE(has_line(base, "#if"));
    EXPECT_FALSE(has_line(base, "q[l][2 * R]")); // the stream kernel's body is not kept for base
    // The diff of the kept lines shows the tile.
    int added_tile_lines = 0;
    for (const DiffLine& l : diff_lines(base, smem))
        added_tile_lines += l.op == DiffOp::Added && smem[std::size_t(l.right)].find("tile[") != std::string::npos;
    EXPECT_GT(added_tile_lines, 3);
}

TEST(KernelListing, PtxNamesTheEntry) {
    for (const StencilConfig& c : { star(Variant::Base), star(Variant::Smem, 4), star(Variant::Stream, 2, 3) }) {
        const KernelTexts t = texts_of(c);
        const KernelListing l = kernel_listing(t.compiled(), t.cc_major, t.cc_minor, false);
        EXPECT_EQ(l.architecture, "sm_90");
        if (!nvrtc_unavailable_reason().empty()) { // no NVRTC (or a CPU-only build): the reason instead
            EXPECT_TRUE(l.ptx.empty());
            EXPECT_NE(l.ptx_problem, "");
            continue;
        }
        EXPECT_EQ(l.ptx_problem, "");
        EXPECT_NE(l.ptx.find(".entry " + t.entry), std::string::npos) << describe(c);
    }
}

TEST(KernelListing, SassWhereADisassemblerIsInstalled) {
    const KernelTexts t = texts_of(star(Variant::Smem, 2));
    const KernelListing l = kernel_listing(t.compiled(), 9, 0);
    if (!l.ptx_problem.empty()) {
        EXPECT_NE(l.sass_problem, "");
        GTEST_SKIP() << l.ptx_problem;
    }
    if (l.sass.empty()) { // the reason says what is missing
        EXPECT_NE(l.sass_problem, "");
        GTEST_SKIP() << l.sass_problem;
    }
    EXPECT_NE(l.sass.find(t.entry), std::string::npos);
    EXPECT_NE(l.disassembler, "");
}
