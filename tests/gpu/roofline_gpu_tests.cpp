// SPDX-License-Identifier: MIT
// The roofline's measured ceilings on a real GPU are plausible: L2 above DRAM above 0, fp64 at most fp32, and fp32
// within 20..110 % of the catalogue's SMs x FMA lanes x 2 x clock where the catalogue knows it.
#include "gpu/studies/ebisu_model.h"
#include "gpu/studies/roofline_ceilings.h"

#include "gpu_test_util.h"

namespace ss {
namespace {

TEST(RooflineGpu, MeasuredCeilingsArePlausible) {
    SKIP_WITHOUT_GPU();
    const DeviceCatalogue& devices = test::catalogue();
    const RooflineCeilings c = measure_roofline_ceilings(0, devices);
    ASSERT_TRUE(c.ok()) << c.unavailable;
    ASSERT_TRUE(c.dram_bytes_per_s.measured) << c.dram_bytes_per_s.source;
    ASSERT_TRUE(c.l2_bytes_per_s.measured) << c.l2_bytes_per_s.source;
    ASSERT_TRUE(c.fp32_flops_per_s.measured) << c.fp32_flops_per_s.source;
    ASSERT_TRUE(c.fp64_flops_per_s.measured) << c.fp64_flops_per_s.source;
    EXPECT_GT(c.dram_bytes_per_s.value, 0.0);
    EXPECT_GT(c.l2_bytes_per_s.value, c.dram_bytes_per_s.value);
    EXPECT_LE(c.fp64_flops_per_s.value, c.fp32_flops_per_s.value);
    const ModelInput catalogue = ebisu_inputs(*devices.find(0), Precision::FP32, 0.0).flops_per_s;
    if (catalogue.known()) {
        EXPECT_GE(c.fp32_flops_per_s.value, 0.2 * catalogue.value) << catalogue.source;
        EXPECT_LE(c.fp32_flops_per_s.value, 1.1 * catalogue.value) << catalogue.source;
    }
    std::printf("DRAM %.0f GB/s, L2 %.0f GB/s, fp32 %.1f TFLOP/s, fp64 %.1f TFLOP/s (catalogue fp32 %.1f)\n",
        c.dram_bytes_per_s.value / 1e9, c.l2_bytes_per_s.value / 1e9, c.fp32_flops_per_s.value / 1e12,
        c.fp64_flops_per_s.value / 1e12, catalogue.value / 1e12);
}

TEST(RooflineGpu, MeasuredOncePerProcess) {
    SKIP_WITHOUT_GPU();
    const ComputePeaks& first = measure_compute_peaks(0);
    const ComputePeaks& second = measure_compute_peaks(0);
    EXPECT_EQ(&first, &second);
}

} // namespace
} // namespace ss
