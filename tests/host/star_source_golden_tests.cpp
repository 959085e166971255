// SPDX-License-Identifier: MIT
// The star and diffusion kernels' generated text stays what it was before point stencils (issue 34) arrived: the
// hashes below were taken from the generator before that change. A star configuration whose text changed would
// compile to another kernel, and its speed would no longer be the one docs/PERFORMANCE.md measured. When a star
// kernel is changed on purpose, print the new hashes (the failure message shows them) and record them here.
// Changed on purpose: 2026-11-28, temporal.cuh gained the axis weights of point stars (issue 35); the star's 72
// temporal texts of 2D/3D, fp32/fp64, R1/2/4, CF 1/2/4, generic and for a block gave NVRTC's sm_90 PTX unchanged
// (its .loc lines aside). Changed on purpose: 2026-11-28, every 3D kernel steps between planes by PLANE_STRIDE (issue
// 37: a rank's box computes windows of rows, CudaSimulation::launch_star_box), and star.cuh's comment says so: every
// star text changed; the 3D stream kernels' code too (fewer registers, +16-19 % fp32 on an H200) and the
// uncoalesced one's; the others differ by the comment only. Changed on purpose: 2026-11-28, the temporal texts take
// TEMPORAL_SYNC_ROWS planes per barrier (issue 35: 2D 2d5pt fp32 996 -> 1403 GCells/s on an H200) and spell every
// FMA out (3D strips at two planes per barrier differed from one GPU in the last bit), and its header comment says so;
// the other variants' texts are unchanged (the one temporal case and the sweep's hash moved).
#include "gpu/plan/launch_policy.h"
#include "kernel_source_of.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

using namespace ss;

namespace {

// FNV-1a, 64 bits: stable across platforms and runs.
std::uint64_t fnv1a(const std::string& text, std::uint64_t hash = 1469598103934665603ull) {
    for (const char ch : text) {
        hash ^= static_cast<unsigned char>(ch);
        hash *= 1099511628211ull;
    }
    return hash;
}

// The text without the kernel source view's marker lines (`// ss:mark NAME`, `// ss:end`: comments on lines of their
// own, added after these hashes were taken; they change no compiled code).
std::string without_markers(const std::string& text) {
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + at, end - at);
        const std::size_t first = line.find_first_not_of(' ');
        const bool marker = first != std::string_view::npos
            && (line.substr(first).rfind("// ss:mark ", 0) == 0 || line.substr(first).rfind("// ss:end", 0) == 0);
        if (!marker) out.append(line);
        at = end;
    }
    return out;
}

std::string hex(std::uint64_t v) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

struct Golden {
    StencilConfig config;
    bool fixed_block;
    const char* hash;
};

StencilConfig with_rule(StencilConfig c, UpdateRule rule) {
    c.problem.rule = rule;
    return c;
}

} // namespace

TEST(StarSourceGolden, SomeStarConfigurationsKeepTheirText) {
    StencilConfig temporal = test::star_config(2, 1, Variant::Temporal, 2);
    temporal.policy.depth = 3;
    StencilConfig remote = test::star_config(3, 2, Variant::Base, 2);
    remote.placement.halo = HaloMode::Remote;
    StencilConfig diffusion;
    diffusion.problem.stencil = StencilKind::Diffusion4, diffusion.policy.variant = Variant::Smem;
    const Golden cases[] = {
        { test::star_config(2, 1, Variant::Base), false, "da598adc39fa9b75" },
        { test::star_config(2, 1, Variant::Base), true, "226d52729c7a16a2" },
        { with_rule(test::star_config(3, 4, Variant::SmemPadded, 2, Precision::FP64), UpdateRule::Thesis), true,
            "f71b2e5f346f5819" },
        { with_rule(test::star_config(2, 16, Variant::Stream, 8), UpdateRule::Wave), true, "cdd89b8e87e6a204" },
        { test::star_config(3, 2, Variant::Stream, 4), true, "ac70bec72433a7db" },
        { test::star_config(3, 4, Variant::Stream, 2), true, "0d747916a82e6595" },
        { test::star_config(3, 12, Variant::Stream, 1, Precision::FP64), false, "0159ec03a8d7d101" },
        { test::star_config(3, 1, Variant::Smem, 1), true, "0095b3e77beba820" },
        { temporal, true, "547ea8b28f6e29bb" },
        { remote, true, "724504d56e26aeb3" },
        { diffusion, false, "6a888d371b26caaa" },
    };
    for (const Golden& g : cases) {
        const BlockDims block = g.config.problem.dims == 3
            ? BlockDims { 32, 4, g.config.policy.variant == Variant::Stream ? 1 : 2 }
            : BlockDims { 128, 1, 1 };
        const std::string text = without_markers(kernel_source_of(g.config, g.fixed_block ? &block : nullptr));
        EXPECT_EQ(hex(fnv1a(text)), g.hash) << describe(g.config) << (g.fixed_block ? " for its block" : "");
    }
}

// Every star variant, rule, precision, a spread of radii and every CF, generic: one hash over all their texts.
TEST(StarSourceGolden, TheStarSweepKeepsItsText) {
    std::uint64_t hash = 1469598103934665603ull;
    int count = 0;
    for (Variant v :
        { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced, Variant::Temporal })
        for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Jacobi, UpdateRule::Wave })
            for (int dims : { 2, 3 })
                for (Precision p : { Precision::FP32, Precision::FP64 })
                    for (int r : { 1, 2, 3, 4, 8, 12, 16 })
                        for (int cf : kCoarseningFactors) {
                            const StencilConfig c = with_rule(test::star_config(dims, r, v, cf, p), rule);
                            hash = fnv1a(without_markers(kernel_source_of(c)), hash);
                            ++count;
                        }
    EXPECT_EQ(count, 6 * 3 * 2 * 2 * 7 * 4);
    EXPECT_EQ(hex(hash), "bf0c289ca17c57a2");
}
