// SPDX-License-Identifier: MIT
// EBISU's performance model (gpu/studies/ebisu_model.h): the paper's own A100 figures come out of the catalogue's
// attributes, the counts follow Table 2, and the curve says why autotune stops at the depths it searches.
#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/studies/ebisu_model.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ss {
namespace {

DeviceInfo a100_pcie() { // the paper's device (sec. 6.1): 108 SMs at 1.41 GHz, 1215 MHz x 5120-bit HBM2
    DeviceInfo d = test::h100();
    d.name = "NVIDIA A100-PCIE-40GB (described)";
    d.cc_major = 8, d.cc_minor = 0, d.sm_count = 108;
    d.sm_clock_khz = 1410000, d.memory_clock_khz = 1215000, d.memory_bus_bits = 5120;
    return d;
}

DeviceInfo h100_with_clocks() {
    DeviceInfo d = test::h100();
    d.sm_clock_khz = 1980000, d.memory_clock_khz = 2619000, d.memory_bus_bits = 5120;
    return d;
}

StencilConfig temporal(int dims, int cf) {
    StencilConfig c;
    c.problem.dims = dims;
    c.problem.size = dims == 3 ? Extent { 384, 288, 2560 } : Extent { 8352, 8352, 1 };
    c.policy.variant = Variant::Temporal, c.policy.cf = cf;
    return c;
}

} // namespace

TEST(EbisuModel, TheSpecInputsReproduceThePapersA100Figures) {
    const EbisuInputs in = ebisu_inputs(a100_pcie(), Precision::FP64, 0.0);
    EXPECT_NEAR(in.dram_bytes_per_s.value / 1e9, 1555.0, 1.0); // B_gm = 1555 GB/s (sec. 6.1)
    EXPECT_NEAR(in.smem_bytes_per_s.value / 1e12, 19.49, 0.01); // B_sm = 19.49 TB/s
    EXPECT_NEAR(in.flops_per_s.value / 1e12, 9.75, 0.01); // the A100's 9.7 DP TFLOPS
    EXPECT_FALSE(in.dram_bytes_per_s.measured);
    EXPECT_FALSE(in.smem_bytes_per_s.measured);
    EXPECT_NE(in.dram_bytes_per_s.source.find("1215 MHz x 5120-bit bus"), std::string::npos);
    // j2d5pt with RST (Table 2: a_gm 2, a_sm 4): "t >= 6.3" moves the bottleneck to shared memory (sec. 6.3.1)
    EbisuCounts j2d5pt;
    j2d5pt.a_sm = 4, j2d5pt.a_cmp = 10, j2d5pt.cell_bytes = 8;
    EXPECT_NEAR(ebisu_crossover_depth(j2d5pt, in), 6.27, 0.01);
}

TEST(EbisuModel, AMeasuredCopyRooflineReplacesTheSpecAndUnknownClocksAreSaid) {
    DeviceInfo d = h100_with_clocks();
    EbisuInputs in = ebisu_inputs(d, Precision::FP32, 2968e9);
    EXPECT_TRUE(in.dram_bytes_per_s.measured);
    EXPECT_DOUBLE_EQ(in.dram_bytes_per_s.value, 2968e9);
    EXPECT_NEAR(in.smem_bytes_per_s.value / 1e12, 33.45, 0.01); // 132 x 128 B x 1.98 GHz
    EXPECT_NEAR(in.flops_per_s.value / 1e12, 66.9, 0.1); // 132 x 128 lanes x 2 x 1.98 GHz
    EXPECT_NEAR(ebisu_inputs(d, Precision::FP64, 0).flops_per_s.value / 1e12, 33.45, 0.01);
    EXPECT_NEAR(ebisu_inputs(d, Precision::FP32, 0).dram_bytes_per_s.value / 1e12, 3.352, 0.001);
    d.sm_clock_khz = 0;
    in = ebisu_inputs(d, Precision::FP32, 0);
    EXPECT_TRUE(in.dram_bytes_per_s.known());
    EXPECT_FALSE(in.smem_bytes_per_s.known());
    EXPECT_FALSE(in.flops_per_s.known());
    EXPECT_NE(in.smem_bytes_per_s.source.find("unknown"), std::string::npos);
    // With B_gm alone the model still draws that ceiling and calls global memory the bottleneck.
    const EbisuPoint p = ebisu_point(temporal(2, 1), temporal_block(temporal(2, 1)), in, 4);
    EXPECT_GT(p.gm_gcells, 0);
    EXPECT_EQ(p.sm_gcells, 0);
    EXPECT_EQ(p.pp_gcells, p.gm_gcells);
    EXPECT_EQ(p.bottleneck, "global memory");
    d.cc_major = 42;
    d.sm_clock_khz = 1980000;
    in = ebisu_inputs(d, Precision::FP32, 0);
    EXPECT_TRUE(in.smem_bytes_per_s.known());
    EXPECT_FALSE(in.flops_per_s.known());
    EXPECT_NE(in.flops_per_s.source.find("42.0"), std::string::npos);
}

TEST(EbisuModel, CountsFollowTable2ForThisKernel) {
    const EbisuCounts two = ebisu_counts(temporal(2, 1));
    EXPECT_EQ(two.a_gm, 2.0);
    EXPECT_EQ(two.a_cmp, 10.0); // j2d5pt [1,10]
    EXPECT_EQ(two.a_sm, 3.0); // the store and the two x neighbours
    EXPECT_EQ(two.cell_bytes, 4);
    StencilConfig c = temporal(3, 4);
    EXPECT_EQ(ebisu_counts(c).a_cmp, 14.0); // j3d7pt [1,14]
    EXPECT_EQ(ebisu_counts(c).a_sm, 3.5); // + the two y neighbours of a 4-row column's end rows: 2 / 4
    c.policy.cf = 1;
    EXPECT_EQ(ebisu_counts(c).a_sm, 5.0);
    c.problem.radius = 2, c.policy.cf = 4, c.problem.precision = Precision::FP64;
    EXPECT_EQ(ebisu_counts(c).a_sm, 5.0 + 0.5 + 1.0);
    EXPECT_EQ(ebisu_counts(c).cell_bytes, 8);
}

TEST(EbisuModel, PointStencilsCountTheirOwnPoints) {
    // points.cuh's temporal kernel reads every point from its shared-memory ring: a box R1 2D (9 points) loads 9
    // cells and stores one per step, and does 9 multiply-adds; the star's counts (3 and 10) would understate it.
    StencilConfig c = temporal(2, 1);
    use_shape(c.problem, *ebisu_shape("2d9pt"));
    EXPECT_EQ(ebisu_counts(c).a_sm, 10.0);
    EXPECT_EQ(ebisu_counts(c).a_cmp, 18.0);
    use_shape(c.problem, *ebisu_shape("3d27pt"));
    EXPECT_EQ(ebisu_counts(c).a_sm, 28.0);
    EXPECT_EQ(ebisu_counts(c).a_cmp, 54.0);
    EXPECT_EQ(ebisu_counts(c).a_gm, 2.0);
}

TEST(EbisuModel, TheCurveIsTheLeastCeilingTimesTheValidProportion) {
    const EbisuInputs in = ebisu_inputs(h100_with_clocks(), Precision::FP32, 2968e9);
    const StencilConfig c = temporal(2, 1);
    const BlockDims block = temporal_block(c);
    std::vector<int> depths;
    for (int t = 1; t <= 32; ++t) depths.push_back(t);
    const std::vector<EbisuPoint> curve = ebisu_curve(c, block, in, depths);
    ASSERT_EQ(curve.size(), depths.size());
    const double crossover = ebisu_crossover_depth(ebisu_counts(c), in);
    EXPECT_GT(crossover, 7.0); // a_gm S / B_gm = t a_sm S / B_sm: 2 x 33.45 / (3 x 2.968) = 7.5
    EXPECT_LT(crossover, 8.0);
    for (const EbisuPoint& p : curve) {
        EXPECT_GT(p.valid, 0.0);
        EXPECT_LE(p.valid, 1.0);
        EXPECT_DOUBLE_EQ(p.pp_gcells, std::min({ p.gm_gcells, p.sm_gcells, p.cmp_gcells }));
        EXPECT_EQ(p.bottleneck, p.depth < crossover ? "global memory" : "shared memory") << p.depth;
        EXPECT_NEAR(p.dram_bytes_per_cell_step, 8.0 / p.depth / p.valid, 1e-9);
    }
    EXPECT_NEAR(curve[0].gm_gcells, 2968.0 / 8 * curve[0].valid, 1e-6); // depth 1: the single-step roofline x V
}

// Why autotune and the depth sweep stop at 12 (2D) and 6 (3D): past the crossover more depth only lowers V,
// so on the H100 no deeper depth beats the best within the range, at any radius the tile holds.
TEST(EbisuModel, DepthsPastTheSearchedRangeCannotWin) {
    const EbisuInputs in = ebisu_inputs(h100_with_clocks(), Precision::FP32, 2968e9);
    for (int dims : { 2, 3 })
        for (int r : { 1, 2, 4 }) {
            StencilConfig c = temporal(dims, dims == 3 ? 4 : 1);
            c.problem.radius = r;
            const BlockDims block = temporal_block(c);
            const int deepest = dims == 3 ? kTemporalMaxSearchDepth3D : kTemporalMaxSearchDepth2D;
            double best_in_range = 0.0;
            for (int t = 1; t <= deepest; ++t)
                best_in_range = std::max(best_in_range, ebisu_point(c, block, in, t).pp_gcells);
            ASSERT_GT(best_in_range, 0.0);
            for (int t = deepest + 1; t <= kMaxTemporalDepth; ++t)
                EXPECT_LT(ebisu_point(c, block, in, t).pp_gcells, best_in_range)
                    << dims << "D R" << r << " depth " << t;
        }
}

} // namespace ss
