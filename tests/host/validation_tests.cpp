// SPDX-License-Identifier: MIT
// Every refusal of the launch validation, with its reason.
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/validation.h"
#include "test_devices.h"

#include <gtest/gtest.h>

using namespace ss;

namespace {
StencilConfig valid() {
    StencilConfig c;
    c.problem.dims = 2;
    c.problem.size = { 512, 512, 1 };
    c.problem.radius = 4;
    return c;
}

void expect_refused(const StencilConfig& c, const std::string& needle, int devices = 1) {
    const DeviceInfo dev = test::h100();
    const Status s = can_implement(c, described_catalogue(dev, devices));
    EXPECT_FALSE(s.ok) << describe(c);
    EXPECT_NE(s.reason.find(needle), std::string::npos) << "reason was: " << s.reason;
    EXPECT_EQ(s.reason.find('\n'), std::string::npos) << "reason must be one line";
}
} // namespace

TEST(Validation, AcceptsValidConfigurations) {
    const DeviceInfo dev = test::h100();
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream })
        for (int dims : { 2, 3 }) {
            StencilConfig c = valid();
            c.policy.variant = v;
            c.problem.dims = dims;
            c.problem.size = dims == 3 ? Extent { 64, 64, 64 } : Extent { 512, 512, 1 };
            EXPECT_TRUE(can_implement(c, described_catalogue(dev, 1)).ok)
                << describe(c) << ": " << can_implement(c, described_catalogue(dev, 1)).reason;
        }
}

TEST(Validation, TooManyThreads) {
    StencilConfig c = valid();
    c.policy.heuristic_block = false;
    c.policy.block = { 64, 32, 1 };
    expect_refused(c, "2048 threads");
}

TEST(Validation, TooMuchSharedMemory) {
    StencilConfig c = valid();
    c.problem.dims = 3;
    c.problem.size = { 256, 256, 256 };
    c.problem.radius = 8;
    c.policy.variant = Variant::SmemPadded;
    c.policy.cf = 8;
    c.problem.precision = Precision::FP64;
    c.policy.heuristic_block = false;
    c.policy.block = { 16, 8, 8 };
    expect_refused(c, "KiB of shared memory");
}

TEST(Validation, SmemPaddedBlockBelowRadius3D) {
    StencilConfig c = valid();
    c.problem.dims = 3;
    c.problem.size = { 64, 64, 64 };
    c.problem.radius = 8;
    c.policy.variant = Variant::SmemPadded;
    c.policy.heuristic_block = false;
    c.policy.block = { 32, 8, 4 };
    expect_refused(c, "every block dim >= R");
}

TEST(Validation, SmemPaddedBlockBelowRadius2D) {
    StencilConfig c = valid();
    c.problem.radius = 8;
    c.policy.variant = Variant::SmemPadded;
    c.policy.heuristic_block = false;
    c.policy.block = { 32, 4, 1 };
    expect_refused(c, "every block dim >= R");
    c.policy.block = { 32, 8, 1 }; // Bx, By >= R suffices in 2D
    const DeviceInfo dev = test::h100();
    EXPECT_TRUE(can_implement(c, described_catalogue(dev, 1)).ok);
}

TEST(Validation, HeuristicWithoutValidBlock) {
    StencilConfig c = valid();
    c.problem.dims = 3;
    c.problem.size = { 64, 64, 64 };
    c.problem.radius = 16;
    c.policy.variant = Variant::SmemPadded;
    expect_refused(c, "heuristic finds no valid block");
}

TEST(Validation, DomainSmallerThanStencil) {
    StencilConfig c = valid();
    c.problem.size = { 8, 512, 1 };
    expect_refused(c, "smaller than the R4 stencil");
}

TEST(Validation, DomainLargerThanFreeMemory) {
    StencilConfig c = valid();
    c.problem.dims = 3;
    c.problem.size = { 4096, 4096, 1024 }; // 2 x 64 GiB in fp32
    expect_refused(c, "of GPU memory but");
}

TEST(Validation, CoarseningFactorNotInSet) {
    StencilConfig c = valid();
    c.policy.cf = 3;
    expect_refused(c, "coarsening factor must be 1, 2, 4 or 8");
}

TEST(Validation, UnknownDevice) {
    StencilConfig c = valid();
    c.placement.device = 3;
    expect_refused(c, "device 3 does not exist");
}

TEST(Validation, NoDeviceAtAll) {
    expect_refused(valid(), "no CUDA device", 0);
}

TEST(Validation, MoreGpusThanPresent) {
    StencilConfig c = valid();
    c.placement.gpus = 4;
    expect_refused(c, "4 GPUs requested but 1 present");
}

TEST(Validation, VariantOfAnotherStencil) {
    StencilConfig c = valid();
    c.policy.variant = Variant::Naive;
    expect_refused(c, "does not apply");
    c.problem.stencil = StencilKind::Diffusion4;
    c.policy.variant = Variant::SmemPadded;
    expect_refused(c, "does not apply");
}

TEST(Validation, DiffusionHasNoCoarsening) {
    StencilConfig c = valid();
    c.problem.stencil = StencilKind::Diffusion4;
    c.policy.variant = Variant::Smem;
    c.policy.cf = 2;
    expect_refused(c, "CF must be 1");
}

TEST(Validation, UncoalescedHasNoCoarsening) {
    StencilConfig c = valid();
    c.policy.variant = Variant::Uncoalesced;
    const DeviceInfo dev = test::h100();
    EXPECT_TRUE(can_implement(c, described_catalogue(dev, 1)).ok)
        << can_implement(c, described_catalogue(dev, 1)).reason;
    c.policy.cf = 2;
    expect_refused(c, "without coarsening");
}

TEST(Validation, StreamBlockShape) {
    StencilConfig c = valid();
    c.policy.variant = Variant::Stream;
    c.policy.heuristic_block = false;
    c.policy.block = { 64, 4, 1 };
    expect_refused(c, "must be Bx x 1");
}

TEST(Validation, RadiusOutOfRange) {
    StencilConfig c = valid();
    c.problem.radius = 17;
    expect_refused(c, "radius must be 1..16");
}

TEST(Validation, CpuBackendRefusesMoreThanHostMemory) {
    StencilConfig c = valid();
    c.placement.backend = Backend::Cpu;
    c.problem.dims = 3;
    c.problem.size = { 2048, 2048, 2048 }; // 8 G cells: 128 GiB with the fp64 initial field
    const Status s = can_implement(c, described_catalogue({}, 0, std::int64_t(24) << 30));
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find("of host memory"), std::string::npos) << s.reason;
    c.problem.size = { 64, 64, 64 };
    EXPECT_TRUE(can_implement(c, described_catalogue({}, 0, std::int64_t(24) << 30)).ok);
}

TEST(Validation, CpuBackendNeedsNoDevice) {
    StencilConfig c = valid();
    c.placement.backend = Backend::Cpu;
    EXPECT_TRUE(can_implement(c, described_catalogue({}, 0)).ok);
    c.placement.gpus = 2;
    EXPECT_FALSE(can_implement(c, described_catalogue({}, 0)).ok);
}
