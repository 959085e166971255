// SPDX-License-Identifier: MIT
// Which kernel a configuration runs, by name (gpu/plan/kernel_choice.h): one name per kernel, none containing
// another (so `ncu -k regex:NAME` profiles exactly one), and the stream choices where stream_layout says.
#include "gpu/plan/kernel_choice.h"
#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "kernel_source_of.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace ss;

namespace {
StencilConfig star(int dims, int radius, Variant v, int cf = 1, Precision p = Precision::FP32) {
    return test::star_config(dims, radius, v, cf, p);
}

StencilConfig diffusion(Variant v) {
    StencilConfig c;
    c.problem.stencil = StencilKind::Diffusion4, c.policy.variant = v;
    return c;
}

// Every star configuration the tests sweep: all variants, dims, precisions, radii 1..16 and CFs.
std::vector<StencilConfig> star_sweep() {
    std::vector<StencilConfig> out;
    for (Variant v :
        { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced, Variant::Temporal })
        for (int dims : { 2, 3 })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (int r = 1; r <= kMaxRadius; ++r)
                    for (int cf : kCoarseningFactors) out.push_back(star(dims, r, v, cf, p));
    return out;
}
} // namespace

TEST(KernelChoice, EveryKernelHasItsOwnNameAndNoNameContainsAnother) {
    std::map<std::string, std::set<std::string>> labels_of; // entry -> labels (one kernel, one label)
    std::set<std::string> names { "ss_inject", "ss_slice_to_float" }; // the helpers every module has
    for (const StencilConfig& c : star_sweep()) {
        const KernelChoice k = choose_kernel(c);
        ASSERT_FALSE(k.entry.empty()) << describe(c);
        EXPECT_FALSE(k.why.empty()) << describe(c);
        EXPECT_TRUE(k.other_kernels.empty()) << describe(c);
        EXPECT_NE(k.entry.find(c.problem.dims == 3 ? "_3d" : "_2d"), std::string::npos) << k.entry;
        labels_of[k.entry].insert(k.label.substr(0, k.label.find(", depth"))); // temporal's label names its depth
        names.insert(k.entry);
    }
    for (Variant v : { Variant::Naive, Variant::Merged, Variant::NoTemp, Variant::Smem }) {
        const KernelChoice k = choose_kernel(diffusion(v));
        names.insert(k.entry);
        names.insert(k.other_kernels.begin(), k.other_kernels.end());
    }
    // base, smem, smem_padded, uncoalesced, temporal in 2D and 3D; stream 2D, gathering, forward one role and two
    // roles, tensor cores; the diffusion ladder's seven; the two helpers.
    EXPECT_EQ(labels_of.size(), 15u);
    EXPECT_EQ(names.size(), 15u + 7u + 2u);
    for (const auto& [entry, labels] : labels_of) EXPECT_EQ(labels.size(), 1u) << entry;
    for (const std::string& a : names)
        for (const std::string& b : names)
            if (a != b) {
                EXPECT_EQ(b.find(a), std::string::npos) << a << " is part of " << b;
            }
}

TEST(KernelChoice, StreamKernelsFollowTheStreamLayout) {
    for (const StencilConfig& c : star_sweep()) {
        if (c.policy.variant != Variant::Stream || c.problem.dims != 3) continue;
        const StreamLayout l = stream_layout(c);
        const std::string want = !l.forward ? "ss_stream_gather_3d"
            : l.tensor                      ? "ss_stream_tensor_3d"
            : l.roles == 2                  ? "ss_stream_forward_two_roles_3d"
                                            : "ss_stream_forward_3d";
        EXPECT_EQ(choose_kernel(c).entry, want) << describe(c);
    }
    EXPECT_EQ(choose_kernel(star(2, 16, Variant::Stream, 8, Precision::FP64)).entry, "ss_stream_2d");
    const KernelChoice gather = choose_kernel(star(3, 1, Variant::Stream, 4));
    EXPECT_EQ(gather.entry, "ss_stream_gather_3d");
    EXPECT_NE(gather.why.find("R1 < 2"), std::string::npos) << gather.why;
}

TEST(KernelChoice, TwoRolesWhereOneRolesPendingSumsWouldCrowdTheRegisters) {
    // fp32 R16 CF 4: 2 * 16 * 4 * 2 = 256 sums, 256 registers (spill)
    const KernelChoice spill = choose_kernel(star(3, 16, Variant::Stream, 4));
    EXPECT_EQ(spill.entry, "ss_stream_forward_two_roles_3d");
    EXPECT_EQ(spill.label, "stream forward, two roles");
    EXPECT_NE(spill.why.find("256 pending sums would take 256 registers (>= 256"), std::string::npos) << spill.why;
    // fp32 R16 CF 2: 128 registers, two roles from R16 on
    const KernelChoice crowd = choose_kernel(star(3, 16, Variant::Stream, 2));
    EXPECT_EQ(crowd.entry, "ss_stream_forward_two_roles_3d");
    EXPECT_NE(crowd.why.find(">= 128 at R16"), std::string::npos) << crowd.why;
    // fp32 R8 CF 4: 128 registers below R16, one role
    const KernelChoice one = choose_kernel(star(3, 8, Variant::Stream, 4));
    EXPECT_EQ(one.entry, "ss_stream_forward_3d");
    EXPECT_NE(one.why.find("take 128 registers"), std::string::npos) << one.why;
}

TEST(KernelChoice, TensorCoresWhereTheBlockHasWholeWarpTilesAndTheForwardKernelElsewhere) {
    const KernelChoice tc = choose_kernel(star(3, 12, Variant::Stream, 1, Precision::FP64));
    EXPECT_EQ(tc.entry, "ss_stream_tensor_3d");
    EXPECT_NE(tc.why.find("tensor cores: fp64, CF 1, even R >= 10, the heuristic block"), std::string::npos) << tc.why;
    StencilConfig given = star(3, 16, Variant::Stream, 1, Precision::FP64);
    given.policy.heuristic_block = false, given.policy.block = { 8, 32, 1 };
    EXPECT_EQ(choose_kernel(given).entry, "ss_stream_tensor_3d");
    EXPECT_NE(choose_kernel(given).why.find("block 8x32x1 has whole 8x8 warp tiles"), std::string::npos)
        << choose_kernel(given).why;
    // The engine falls back to the forward kernel for a given block without whole 8 x 8 tiles: the choice says so.
    // At R16 that is two roles (one role's 64 fp64 sums would take 128 registers), at R12 one.
    given.policy.block = { 16, 12, 1 };
    ASSERT_FALSE(stream_layout(given).tensor);
    for (int r : { 16, 12 }) {
        given.problem.radius = r;
        const KernelChoice fallback = choose_kernel(given);
        EXPECT_EQ(fallback.entry, r == 16 ? "ss_stream_forward_two_roles_3d" : "ss_stream_forward_3d");
        EXPECT_EQ(fallback.why.find("not the tensor cores: block 16x12x1 has no whole 8x8 warp tiles"), 0u)
            << fallback.why;
    }
    // below R10, odd R, CF 2, fp32: the forward kernel, without that remark
    for (const StencilConfig& c : { star(3, 8, Variant::Stream, 1, Precision::FP64),
             star(3, 13, Variant::Stream, 1, Precision::FP64), star(3, 12, Variant::Stream, 1) }) {
        EXPECT_EQ(choose_kernel(c).entry, "ss_stream_forward_3d") << describe(c);
        EXPECT_EQ(choose_kernel(c).why.find("tensor"), std::string::npos) << choose_kernel(c).why;
    }
    EXPECT_EQ(choose_kernel(star(3, 16, Variant::Stream, 2, Precision::FP64)).entry, "ss_stream_forward_two_roles_3d");
}

// A temporal kernel taking several planes per barrier says how many (temporal_sync_rows); one that takes one says
// nothing of it.
TEST(KernelChoice, TemporalKernelsSayTheirPlanesPerBarrier) {
    for (const StencilConfig& c : { star(2, 1, Variant::Temporal), star(3, 1, Variant::Temporal, 4),
             star(3, 1, Variant::Temporal, 2), star(3, 2, Variant::Temporal, 4) }) {
        const int n = temporal_sync_rows(c);
        const std::string why = choose_gpu_kernel(c).why;
        if (n > 1) {
            const std::string says = std::to_string(n) + (c.problem.dims == 3 ? " planes" : " rows") + " per barrier";
            EXPECT_NE(why.find(says), std::string::npos) << describe(c) << ": " << why;
        } else {
            EXPECT_EQ(why.find("per barrier"), std::string::npos) << describe(c) << ": " << why;
        }
    }
    if (knob_integer(Knob::TemporalSyncRows) != 0) GTEST_SKIP() << "STENCILSCOPE_TEMPORAL_SYNC_ROWS rules";
    EXPECT_NE(choose_gpu_kernel(star(2, 1, Variant::Temporal)).why.find("8 rows per barrier"), std::string::npos);
    EXPECT_NE(choose_gpu_kernel(star(3, 1, Variant::Temporal, 4)).why.find("2 planes per barrier"), std::string::npos);
}

TEST(KernelChoice, TheCpuBackendRunsItsLoopWithoutAnEntry) {
    StencilConfig c = star(3, 4, Variant::Stream, 2);
    c.placement.backend = Backend::Cpu;
    const KernelChoice k = choose_kernel(c);
    EXPECT_EQ(k.entry, "");
    EXPECT_EQ(k.label, "CPU loop");
    EXPECT_EQ(kernel_title(k), "CPU loop");
    EXPECT_EQ(choose_gpu_kernel(c).entry, "ss_stream_forward_3d"); // what the source would name, whatever the backend
}

TEST(KernelChoice, DiffusionNamesTheStepsKernelsInLaunchOrder) {
    const KernelChoice naive = choose_kernel(diffusion(Variant::Naive));
    EXPECT_EQ(naive.entry, "ss_diffusion_lap_ring");
    EXPECT_EQ(naive.other_kernels,
        (std::vector<std::string> { "ss_diffusion_halo", "ss_diffusion_naive_lap", "ss_diffusion_naive_euler" }));
    EXPECT_EQ(choose_kernel(diffusion(Variant::Smem)).entry, "ss_diffusion_smem");
    EXPECT_EQ(choose_kernel(diffusion(Variant::NoTemp)).other_kernels.back(), "ss_diffusion_notemp");
    EXPECT_NE(kernel_reason(naive).find("; each step also launches ss_diffusion_halo, "), std::string::npos);
}

// The generated source names its entry from the choice: the name shown is the name compiled and looked up.
TEST(KernelChoice, TheSourceNamesItsEntryFromTheChoice) {
    for (const StencilConfig& c : { star(2, 4, Variant::Base), star(3, 16, Variant::Stream, 4),
             star(3, 12, Variant::Stream, 1, Precision::FP64), star(3, 2, Variant::Temporal, 2) }) {
        const std::string src = kernel_source_of(c);
        EXPECT_NE(src.find("#define SS_ENTRY " + choose_kernel(c).entry + "\n"), std::string::npos) << describe(c);
    }
}
