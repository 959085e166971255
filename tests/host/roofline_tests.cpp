// SPDX-License-Identifier: MIT
// The roofline's maths and the assembly of its ceilings from (made-up) measurements and the catalogue.
#include "gpu/profiler/roofline.h"
#include "gpu/studies/roofline_ceilings.h"

#include "test_devices.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ss {
namespace {

RooflineCeilings h100_like() {
    RooflineCeilings c;
    c.dram_bytes_per_s = { 3.0e12, true, "copy" };
    c.l2_bytes_per_s = { 9.0e12, true, "L2 copy" };
    c.fp32_flops_per_s = { 60e12, true, "FMA" };
    c.fp64_flops_per_s = { 30e12, true, "FMA" };
    return c;
}

TEST(Roofline, RidgePointIsPeakOverBandwidth) {
    EXPECT_DOUBLE_EQ(ridge_point(60e12, 3e12), 20.0);
    EXPECT_DOUBLE_EQ(ridge_point(30e12, 3e12), 10.0);
    EXPECT_EQ(ridge_point(0.0, 3e12), 0.0);
    EXPECT_EQ(ridge_point(60e12, 0.0), 0.0);
}

TEST(Roofline, LeftOfTheRidgeDramBoundsRightOfItTheFmaRoof) {
    const RooflineCeilings c = h100_like();
    const RooflineBound low = roofline_bound(c, Precision::FP32, 1.0);
    EXPECT_EQ(low.ceiling, "DRAM");
    EXPECT_DOUBLE_EQ(low.attainable_flops_per_s, 3e12);
    const RooflineBound high = roofline_bound(c, Precision::FP32, 100.0);
    EXPECT_EQ(high.ceiling, "fp32 FMA");
    EXPECT_DOUBLE_EQ(high.attainable_flops_per_s, 60e12);
    // Between the two ridges: fp64 is already compute-bound, fp32 not yet.
    EXPECT_EQ(roofline_bound(c, Precision::FP64, 15.0).ceiling, "fp64 FMA");
    EXPECT_EQ(roofline_bound(c, Precision::FP32, 15.0).ceiling, "DRAM");
}

TEST(Roofline, UnknownCeilingsLeaveTheBoundUnknownOrToTheKnownOne) {
    RooflineCeilings none;
    EXPECT_EQ(roofline_bound(none, Precision::FP32, 2.0).attainable_flops_per_s, 0.0);
    EXPECT_EQ(roofline_bound(none, Precision::FP32, 2.0).ceiling, "");
    RooflineCeilings dram_only;
    dram_only.dram_bytes_per_s.value = 2e12;
    EXPECT_DOUBLE_EQ(attainable_flops(4.0, 2e12, 0.0), 8e12);
    EXPECT_EQ(roofline_bound(dram_only, Precision::FP64, 4.0).ceiling, "DRAM");
    EXPECT_DOUBLE_EQ(attainable_flops(0.0, 2e12, 5e12), 5e12);
}

TEST(Roofline, PercentOfRoofIsCappedAt100AndNaNWhenUnknown) {
    EXPECT_DOUBLE_EQ(percent_of_roof(1.5e12, 3e12), 50.0);
    EXPECT_DOUBLE_EQ(percent_of_roof(4e12, 3e12), 100.0); // a temporal kernel above the DRAM diagonal
    EXPECT_TRUE(std::isnan(percent_of_roof(1e12, 0.0)));
    EXPECT_TRUE(std::isnan(percent_of_roof(std::numeric_limits<double>::quiet_NaN(), 3e12)));
}

StencilConfig star2d(Variant v, int depth) {
    StencilConfig c = test::star_config(2, 1, v);
    c.policy.depth = depth;
    return c;
}

TEST(Roofline, PointUsesTheCountersBytesWhenThereAreAny) {
    const StencilConfig c = star2d(Variant::Base, 1);
    const RooflinePoint p = roofline_point(c, 100e9, 7.0);
    EXPECT_TRUE(p.measured_traffic);
    EXPECT_EQ(p.flops_per_cell, 7); // the jacobi star R1: four weighted points
    EXPECT_DOUBLE_EQ(p.flops_per_s, 700e9);
    EXPECT_DOUBLE_EQ(p.intensity, 1.0);
    EXPECT_DOUBLE_EQ(p.single_step_intensity, 7.0 / 8.0);
    EXPECT_TRUE(p.valid());
}

TEST(Roofline, WithCountersOffTheLaunchsIdealTrafficIsSharedByItsFusedSteps) {
    const RooflinePoint base
        = roofline_point(star2d(Variant::Base, 1), 100e9, std::numeric_limits<double>::quiet_NaN());
    EXPECT_FALSE(base.measured_traffic);
    EXPECT_EQ(base.traffic, "ideal traffic (counters off)");
    EXPECT_DOUBLE_EQ(base.intensity, base.single_step_intensity);
    const RooflinePoint temporal = roofline_point(star2d(Variant::Temporal, 4), 100e9, 0.0);
    EXPECT_DOUBLE_EQ(temporal.intensity, 4.0 * temporal.single_step_intensity);
    EXPECT_DOUBLE_EQ(temporal.dram_bytes_per_cell, 2.0);
}

TEST(Roofline, ATemporalKernelFasterThanDramAllowsSitsAboveTheDiagonalAtTheSingleStepIntensity) {
    const RooflineCeilings c = h100_like();
    // 3 TB/s moves 375 GCells/s of single-step fp32 traffic; a depth-4 kernel at 800 GCells/s passes it.
    const RooflinePoint p = roofline_point(star2d(Variant::Temporal, 4), 800e9, 2.5);
    const double diagonal_at_single_step = p.single_step_intensity * c.dram_bytes_per_s.value;
    EXPECT_GT(p.flops_per_s, diagonal_at_single_step);
    EXPECT_LT(p.flops_per_s, roofline_bound(c, Precision::FP32, p.intensity).attainable_flops_per_s);
}

TEST(RooflineCeilings, MeasuredValuesWinAndSayHowTheyWereMeasured) {
    CopyRoofline copy;
    copy.measured.gbytes_per_s = 3000.0;
    copy.measured.bytes_per_copy = 1ll << 30;
    ComputePeaks peaks;
    peaks.l2_bytes_per_s = 8e12, peaks.fp32_flops_per_s = 55e12, peaks.fp64_flops_per_s = 28e12;
    peaks.l2_buffer_bytes = 4 << 20, peaks.l2_passes = 1000, peaks.repeats = 5;
    const DeviceInfo d = test::h100();
    const RooflineCeilings c = assemble_roofline_ceilings(copy, peaks, &d);
    EXPECT_TRUE(c.ok());
    EXPECT_DOUBLE_EQ(c.dram_bytes_per_s.value, 3e12);
    EXPECT_TRUE(c.dram_bytes_per_s.measured);
    EXPECT_STREQ(c.fp64_flops_per_s.origin(), "measured");
    EXPECT_DOUBLE_EQ(c.flops(Precision::FP64).value, 28e12);
    EXPECT_NE(c.l2_bytes_per_s.source.find("1000 passes"), std::string::npos);
}

TEST(RooflineCeilings, WithoutMeasurementsTheCatalogueStandsInLabelledAsSuch) {
    CopyRoofline copy;
    copy.measured.error = "out of memory";
    copy.note = "copy roofline not measured: out of memory";
    ComputePeaks peaks;
    peaks.error = "launch failed";
    DeviceInfo d = test::h100();
    d.cc_major = 9, d.cc_minor = 0, d.sm_clock_khz = 1980000, d.memory_clock_khz = 2619000, d.memory_bus_bits = 5120;
    const RooflineCeilings c = assemble_roofline_ceilings(copy, peaks, &d);
    EXPECT_FALSE(c.fp32_flops_per_s.measured);
    EXPECT_STREQ(c.fp32_flops_per_s.origin(), "from the catalogue");
    EXPECT_NEAR(c.fp32_flops_per_s.value, 132 * 128 * 2 * 1.98e9, 1e6); // SMs x FMA lanes x 2 x clock
    EXPECT_NEAR(c.fp64_flops_per_s.value, c.fp32_flops_per_s.value / 2, 1e6);
    EXPECT_GT(c.dram_bytes_per_s.value, 0.0);
    EXPECT_FALSE(c.dram_bytes_per_s.measured);
    EXPECT_FALSE(c.l2_bytes_per_s.known()); // no catalogue figure for the L2
    EXPECT_NE(c.l2_bytes_per_s.source.find("launch failed"), std::string::npos);
}

TEST(RooflineCeilings, NoGpuSaysSoAndMeasuresNothing) {
    DeviceCatalogue none;
    none.unavailable = "no CUDA driver";
    const RooflineCeilings c = measure_roofline_ceilings(0, none);
    EXPECT_FALSE(c.ok());
    EXPECT_EQ(c.unavailable, "no GPU: no CUDA driver");
}

} // namespace
} // namespace ss
