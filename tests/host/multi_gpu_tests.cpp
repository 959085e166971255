// SPDX-License-Identifier: MIT
// Strip partitioning without a GPU: the rows tile the domain, strips differ by at most one row, and
// every refusal names its reason.
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "test_devices.h"

#include <gtest/gtest.h>

using namespace ss;

namespace {
StencilConfig star(int dims, Extent size, int radius, int gpus, int strips_per_device = 1) {
    StencilConfig c;
    c.problem.dims = dims, c.problem.size = size, c.problem.radius = radius, c.placement.gpus = gpus,
    c.placement.strips_per_device = strips_per_device;
    return c;
}

void expect_tiling(const StencilConfig& c) {
    const StripPlan plan = plan_strips(c);
    const int n = strip_count(c.placement), extent = split_extent(c), g = plan.ghost_depth;
    const int border = c.problem.stencil == StencilKind::Star ? c.problem.radius : 0; // the domain's edges
    ASSERT_EQ(int(plan.strips.size()), n) << describe(c);
    int smallest = extent, largest = 0;
    for (int i = 0; i < n; ++i) {
        const Strip& s = plan.strips[i];
        EXPECT_EQ(s.first_row, i == 0 ? 0 : plan.strips[i - 1].end_row) << describe(c) << " strip " << i;
        EXPECT_EQ(s.update_begin, i == 0 ? border : plan.strips[i - 1].update_end) << describe(c) << " strip " << i;
        EXPECT_EQ(s.local_begin, s.update_begin - (i == 0 ? border : g));
        EXPECT_EQ(s.local_end, s.update_end + (i == n - 1 ? border : g));
        EXPECT_GE(s.updated_rows(), g) << "a strip thinner than its ghost zone";
        EXPECT_EQ(s.device, c.placement.device + i / c.placement.strips_per_device);
        smallest = std::min(smallest, s.updated_rows());
        largest = std::max(largest, s.updated_rows());
    }
    EXPECT_EQ(plan.strips.back().end_row, extent);
    EXPECT_EQ(plan.strips.back().update_end, extent - border);
    EXPECT_LE(largest - smallest, 1) << describe(c);
}
} // namespace

TEST(StripPlan, RowsTileTheDomainInStripsThatDifferByAtMostOneRow) {
    for (int dims : { 2, 3 })
        for (int r : { 1, 3, 4, 16 })
            for (int n : { 1, 2, 3, 4, 7 })
                for (int extent : { 5 * r * n + 2 * r, 1000, 1027 }) {
                    const Extent size = dims == 2 ? Extent { 64, extent, 1 } : Extent { 32, 24, extent };
                    const StencilConfig c = star(dims, size, r, n);
                    if (!check_strips(c)) continue;
                    expect_tiling(c);
                }
}

TEST(StripPlan, TheTestingHookPutsSeveralStripsOnEachGpu) {
    StencilConfig c = star(2, { 100, 301, 1 }, 2, 2, 3);
    c.placement.device = 1;
    ASSERT_TRUE(check_strips(c).ok);
    expect_tiling(c);
    const StripPlan plan = plan_strips(c);
    EXPECT_EQ(plan.strips[2].device, 1);
    EXPECT_EQ(plan.strips[3].device, 2);
}

TEST(StripPlan, AStripIsADomainWithGhostRows) {
    const StencilConfig c = star(3, { 40, 30, 101 }, 4, 3);
    const StripPlan plan = plan_strips(c);
    EXPECT_EQ(plan.ghost_depth, 4);
    const StencilConfig middle = strip_config(c, plan.strips[1]);
    EXPECT_EQ(middle.problem.size, (Extent { 40, 30, plan.strips[1].updated_rows() + 8 }));
    EXPECT_EQ(middle.placement.gpus, 1);
    StencilConfig same_kernels = middle; // only extent and device differ from the one-GPU run: same kernel text
    same_kernels.problem.size = c.problem.size;
    same_kernels.placement.device = c.placement.device;
    EXPECT_EQ(same_kernels, single_gpu_equivalent(c));
    // 93 updated rows over 3 strips: 31 each; the first strip also owns the border rows 0..3
    EXPECT_EQ(plan.strips[0].first_row, 0);
    EXPECT_EQ(plan.strips[0].end_row, 4 + 31);
    EXPECT_EQ(plan.strips[2].end_row, 101);
}

// The temporal variant trades ghost rows once per launch of `depth` fused steps, so they are R x depth deep; at the
// domain's edges a strip holds only the R border rows (the kernel treats them as the Dirichlet border they are).
TEST(StripPlan, TemporalStripsCarryGhostRowsOfRTimesDepth) {
    for (int dims : { 2, 3 })
        for (int r : { 1, 2, 4 })
            for (int depth : { 1, 2, 3, 6 })
                for (int n : { 2, 3 }) {
                    StencilConfig c = star(dims, dims == 2 ? Extent { 300, 211, 1 } : Extent { 64, 48, 211 }, r, 1, n);
                    c.policy.variant = Variant::Temporal, c.policy.depth = depth;
                    ASSERT_TRUE(check_strips(c).ok) << describe(c) << ": " << check_strips(c).reason;
                    const StripPlan plan = plan_strips(c);
                    EXPECT_EQ(plan.ghost_depth, r * depth) << describe(c);
                    EXPECT_EQ(strip_ghost_depth(c), r * depth);
                    expect_tiling(c);
                    EXPECT_EQ(plan.strips.front().local_begin, 0);
                    EXPECT_EQ(plan.strips.back().local_end, split_extent(c));
                    const Strip& middle = plan.strips[1];
                    EXPECT_EQ(strip_config(c, middle).problem.size.nx, c.problem.size.nx);
                    EXPECT_EQ(extent_along(strip_config(c, middle).problem.size, dims - 1),
                        middle.updated_rows() + r * depth + (n == 2 ? r : r * depth));
                }
    // Every other variant keeps R, whatever depth a configuration carries (check_temporal_policy refuses it).
    StencilConfig base = star(2, { 300, 211, 1 }, 2, 1, 2);
    EXPECT_EQ(plan_strips(base).ghost_depth, 2);
}

TEST(StripPlan, TemporalStripsMustHoldTheirNeighboursGhostRows) {
    // 2D 300 x 46, R2: 42 updated rows over 3 strips are 14 each; depth 7 needs 14 (fits), depth 8 needs 16.
    StencilConfig c = star(2, { 300, 46, 1 }, 2, 1, 3);
    c.policy.variant = Variant::Temporal, c.policy.depth = 7;
    EXPECT_TRUE(check_strips(c).ok) << check_strips(c).reason;
    c.policy.depth = 8;
    const Status s = check_strips(c);
    EXPECT_FALSE(s.ok);
    EXPECT_NE(
        s.reason.find(
            "thinner than the 16-row ghost zone (R x depth: the temporal variant fuses 8 steps between exchanges; "),
        std::string::npos)
        << s.reason;
    EXPECT_NE(s.reason.find("at most 2 strips fit"), std::string::npos) << s.reason;
    EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
}

TEST(StripPlan, DiffusionSplitsLayersWithoutGhosts) {
    StencilConfig c;
    c.problem.stencil = StencilKind::Diffusion4, c.policy.variant = Variant::Smem, c.problem.dims = 3,
    c.problem.size = { 64, 64, 10 }, c.placement.gpus = 3;
    ASSERT_TRUE(check_strips(c).ok);
    const StripPlan plan = plan_strips(c);
    EXPECT_EQ(plan.ghost_depth, 0);
    expect_tiling(c);
    EXPECT_EQ(plan.strips[0].update_begin, 0); // layers have no fixed border
}

// What each GPU's counters cover: its strips' rows and updated cells, which add up to the domain's.
TEST(DeviceShares, OnePerGpuWithItsStripsRowsAndCells) {
    StencilConfig hook = star(2, { 100, 301, 1 }, 2, 2, 3);
    hook.placement.device = 1;
    const std::vector<DeviceShare> shares = device_shares(hook);
    ASSERT_EQ(shares.size(), 2u);
    EXPECT_EQ(shares[0].device, 1);
    EXPECT_EQ(shares[1].device, 2);
    EXPECT_EQ(shares[0].strips, 3);
    EXPECT_EQ(shares[0].first_row, 0);
    EXPECT_EQ(shares[0].end_row, shares[1].first_row);
    EXPECT_EQ(shares[1].end_row, 301);
    // 297 updated rows over 6 strips: 50, 50, 50, 49, 49, 49; 96 updated cells per row
    EXPECT_EQ(shares[0].updated_cells, 150 * 96);
    EXPECT_EQ(shares[1].updated_cells, 147 * 96);

    for (const StencilConfig& c : { star(3, { 40, 30, 101 }, 4, 3), star(2, { 64, 64, 1 }, 1, 1) }) {
        std::int64_t cells = 0;
        for (const DeviceShare& d : device_shares(c)) cells += d.updated_cells;
        EXPECT_EQ(cells, updated_cells(c)) << describe(c);
        EXPECT_EQ(int(device_shares(c).size()), c.placement.gpus) << describe(c);
    }
    StencilConfig layers;
    layers.problem.stencil = StencilKind::Diffusion4, layers.policy.variant = Variant::Smem, layers.problem.dims = 3;
    layers.problem.size = { 64, 64, 10 }, layers.placement.gpus = 3;
    EXPECT_EQ(device_shares(layers)[0].updated_cells, 4 * 64 * 64); // 10 layers: 4, 3, 3
}

TEST(StripPlan, Refusals) {
    auto refused = [](const StencilConfig& c, const std::string& needle) {
        const Status s = check_strips(c);
        EXPECT_FALSE(s.ok) << describe(c);
        EXPECT_NE(s.reason.find(needle), std::string::npos) << s.reason;
        EXPECT_EQ(s.reason.find('\n'), std::string::npos);
    };
    // 2D, R4: 20 - 8 = 12 updated rows over 4 GPUs -> 3 rows each, thinner than R
    refused(star(2, { 64, 20, 1 }, 4, 4), "thinner than the R4 ghost zone");
    refused(star(2, { 64, 21, 1 }, 4, 4), "at most 3 strips fit");
    EXPECT_TRUE(check_strips(star(2, { 64, 20, 1 }, 4, 3)).ok); // 4 rows each: exactly R
    refused(star(3, { 64, 64, 40 }, 16, 2), "use --gpus 1"); // 8 updated planes, R16
    StencilConfig d;
    d.problem.stencil = StencilKind::Diffusion4, d.policy.variant = Variant::Smem, d.placement.gpus = 2;
    refused(d, "single periodic layer");
    d.problem.dims = 3, d.problem.size = { 64, 64, 3 }, d.placement.gpus = 4;
    refused(d, "leaves a GPU without a layer");
    StencilConfig cpu = star(2, { 64, 64, 1 }, 1, 1, 2);
    cpu.placement.backend = Backend::Cpu;
    refused(cpu, "CPU backend");
}

TEST(StripPlan, CheckConfigCountsDevicesAndMemoryPerGpu) {
    const DeviceInfo dev = test::h100(); // 79 GiB free
    StencilConfig c = star(3, { 4096, 4096, 1024 }, 4, 1); // 2 x 64 GiB in fp32: too much for one GPU
    EXPECT_FALSE(can_implement(c, described_catalogue(dev, 2)).ok);
    c.placement.gpus = 2; // 2 x 32 GiB + ghost planes per GPU
    EXPECT_TRUE(can_implement(c, described_catalogue(dev, 2)).ok)
        << can_implement(c, described_catalogue(dev, 2)).reason;
    const std::vector<std::int64_t> per_gpu = device_bytes_per_gpu(c);
    ASSERT_EQ(per_gpu.size(), 2u);
    EXPECT_GT(per_gpu[0] + per_gpu[1], device_bytes_needed(single_gpu_equivalent(c))); // ghosts cost memory
    Status s = can_implement(c, described_catalogue(dev, 1));
    EXPECT_NE(s.reason.find("2 GPUs requested but 1 present"), std::string::npos) << s.reason;
    c.placement.device = 1;
    s = can_implement(c, described_catalogue(dev, 2));
    EXPECT_NE(s.reason.find("need devices 1..2 but 2 are present"), std::string::npos) << s.reason;
    c = star(2, { 512, 512, 1 }, 4, 1, 4); // the testing hook: 4 strips on one device
    EXPECT_TRUE(can_implement(c, described_catalogue(dev, 1)).ok)
        << can_implement(c, described_catalogue(dev, 1)).reason;
}

TEST(MultiGpuStats, SummarisesPathsAndBandwidth) {
    MultiGpuStats stats;
    EXPECT_EQ(stats.path_summary(), "none");
    StripStats a, b;
    a.above = HaloPath::PeerToPeer, a.halo_bytes = 1000000, a.exchange_ms = 0.5;
    b.below = HaloPath::PeerToPeer, b.halo_bytes = 1000000, b.exchange_ms = 1.0;
    stats.strips = { a, b };
    EXPECT_EQ(stats.path_summary(), "peer-to-peer");
    EXPECT_EQ(stats.halo_bytes(), 2000000);
    EXPECT_DOUBLE_EQ(stats.halo_gbytes_per_s(), 2.0); // 2 MB in 1 ms
    stats.strips[1].above = HaloPath::Staged;
    EXPECT_EQ(stats.path_summary(), "peer-to-peer + staged through host");
    StripStats t;
    t.updated_cells = 1000000000, t.compute_ms = 10.0;
    EXPECT_DOUBLE_EQ(t.gcells_per_s(), 100.0);
}

TEST(MultiGpuConfig, RemoteHaloModeIsRefusedWhereItCannotWork) {
    auto refused = [](const StencilConfig& c, const DeviceCatalogue& devices, const std::string& needle) {
        const Status s = can_implement(c, devices);
        EXPECT_FALSE(s.ok) << describe(c);
        EXPECT_NE(s.reason.find(needle), std::string::npos) << s.reason;
        EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    };
    DeviceInfo dev = test::h100();
    StencilConfig c = star(2, { 512, 512, 1 }, 4, 2);
    c.placement.halo = HaloMode::Remote;
    refused(c, described_catalogue(dev, 2), "needs peer access between GPU 0 and GPU 1"); // no peers described
    DeviceCatalogue linked = described_catalogue(dev, 2);
    linked.devices[0].peers = { 1 };
    refused(c, linked, "needs peer access between GPU 0 and GPU 1"); // one way only
    linked.devices[1].peers = { 0 };
    EXPECT_TRUE(can_implement(c, linked).ok) << can_implement(c, linked).reason;
    // The testing hook: strips on one device read each other's buffers without peer access.
    c.placement.gpus = 1, c.placement.strips_per_device = 3;
    EXPECT_TRUE(can_implement(c, described_catalogue(dev, 1)).ok)
        << can_implement(c, described_catalogue(dev, 1)).reason;
    StencilConfig temporal = c;
    temporal.policy.variant = Variant::Temporal, temporal.policy.depth = 2;
    refused(temporal, described_catalogue(dev, 1), "halo mode remote does not apply to temporal");
    temporal.placement.halo = HaloMode::Auto; // copied halos of R x depth rows
    EXPECT_TRUE(can_implement(temporal, described_catalogue(dev, 1)).ok)
        << can_implement(temporal, described_catalogue(dev, 1)).reason;
    StencilConfig cpu = star(2, { 64, 64, 1 }, 1, 1);
    cpu.placement.backend = Backend::Cpu, cpu.placement.halo = HaloMode::Remote;
    refused(cpu, described_catalogue(dev, 0), "CPU backend");
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced }) {
        StencilConfig ok = c;
        ok.policy.variant = v, ok.policy.cf = 1;
        EXPECT_TRUE(can_implement(ok, described_catalogue(dev, 1)).ok) << describe(ok);
    }
}

TEST(MultiGpuStats, RemoteBytesAreSummedAndTheModeIsNamed) {
    MultiGpuStats stats;
    StripStats a, b;
    a.above = HaloPath::Remote, a.remote_bytes = 4000;
    b.below = HaloPath::Remote, b.remote_bytes = 4000;
    stats.strips = { a, b };
    EXPECT_EQ(stats.path_summary(), "remote");
    EXPECT_EQ(stats.remote_bytes(), 8000);
    EXPECT_EQ(stats.halo_bytes(), 0); // nothing is copied
    EXPECT_DOUBLE_EQ(stats.halo_gbytes_per_s(), 0.0);
}

TEST(MultiGpuConfig, NamesAndLabels) {
    EXPECT_EQ(parse_halo("remote"), HaloMode::Remote);
    EXPECT_EQ(to_string(HaloMode::Remote), "remote");
    EXPECT_EQ(parse_halo("staged"), HaloMode::Staged);
    EXPECT_EQ(parse_halo("auto"), HaloMode::Auto);
    EXPECT_FALSE(parse_halo("p2p"));
    StencilConfig c = star(2, { 64, 64, 1 }, 1, 2);
    c.placement.overlap = false;
    EXPECT_NE(describe(c).find("2 GPUs overlap off"), std::string::npos) << describe(c);
    c.placement.halo = HaloMode::Remote;
    EXPECT_NE(describe(c).find("2 GPUs overlap off remote"), std::string::npos) << describe(c);
    EXPECT_EQ(describe(star(2, { 64, 64, 1 }, 1, 1)).find("GPU"), std::string::npos);
}
