// SPDX-License-Identifier: MIT
// The roofline chart's maths, as Nsight Compute draws it: ceilings (DRAM and L2 bytes/s, fp32 and fp64 FMA
// FLOP/s), ridge points, which ceiling bounds an arithmetic intensity, the attainable rate there and a kernel's
// share of it; and the kernel's point from its own figures. Pure host code: no CUDA, no Qt.
#pragma once

#include "gpu/problem/config.h"

#include <string>

namespace ss {

// One ceiling and where it comes from.
struct RooflineCeiling {
    double value = 0.0; // bytes/s or FLOP/s; 0: unknown (the chart leaves it out and says why)
    bool measured = false; // false: derived from the device catalogue
    std::string source; // how: "FMA kernel, 8 chains per thread, best of 5", or why it is unknown
    bool known() const { return value > 0.0; }
    // "measured" or "from the catalogue" (what the chart and the CLI print beside the value)
    const char* origin() const { return measured ? "measured" : "from the catalogue"; }
};

struct RooflineCeilings {
    std::string device_name;
    RooflineCeiling dram_bytes_per_s; // the copy roofline (read + write), gpu/backends/bandwidth.h
    RooflineCeiling l2_bytes_per_s; // a read + write copy that stays in the L2
    RooflineCeiling fp32_flops_per_s, fp64_flops_per_s; // FMA peaks (an FMA counts 2)
    std::string unavailable; // non-empty: no ceilings at all, and why ("no GPU: ...")
    bool ok() const { return unavailable.empty(); }
    const RooflineCeiling& flops(Precision p) const {
        return p == Precision::FP64 ? fp64_flops_per_s : fp32_flops_per_s;
    }
};

// FLOP per byte where the memory diagonal meets the compute roof; 0 when either is unknown.
double ridge_point(double flops_per_s, double bytes_per_s);

// What bounds a kernel of `intensity` FLOP per DRAM byte in `precision` against the DRAM diagonal and the FMA roof.
struct RooflineBound {
    double attainable_flops_per_s = 0.0; // min(roof, intensity x DRAM); 0 when unknown
    std::string ceiling; // "DRAM" (left of the ridge), "fp32 FMA" / "fp64 FMA" (right of it), "" unknown
};
RooflineBound roofline_bound(const RooflineCeilings&, Precision, double intensity);

// The rate at `intensity` under one diagonal (`bytes_per_s`) and the roof: min(roof, intensity x bytes/s). Where
// only one is known, that one; 0 when neither is.
double attainable_flops(double intensity, double bytes_per_s, double roof_flops_per_s);

// `achieved` as a share of `attainable`, capped at 100 (rates.h percent_of); NaN when unknown.
double percent_of_roof(double achieved_flops_per_s, double attainable_flops_per_s);

// The kernel's point: x = FLOP per DRAM byte, y = FLOP/s.
struct RooflinePoint {
    int flops_per_cell = 0;
    double flops_per_s = 0.0; // flops_per_cell x the GPU-timed cell rate
    double intensity = 0.0; // flops_per_cell / DRAM bytes per updated cell and step
    double dram_bytes_per_cell = 0.0; // what the intensity is over
    bool measured_traffic = false; // from the counters; false: the launch's ideal traffic
    std::string traffic; // "DRAM counters (profiled launch)" or "ideal traffic (counters off)"
    // The single-step ideal intensity (ideal_arithmetic_intensity), drawn hollow at the same y: a temporal kernel
    // there sits above the DRAM diagonal, because it reads each cell from DRAM once for `depth` steps.
    double single_step_intensity = 0.0;
    bool valid() const { return flops_per_s > 0.0 && intensity > 0.0; }
};

// `cells_per_s`: the kernel's GPU-timed rate (the headline). `dram_bytes_per_cell_step`: read + written per updated
// cell and step from the counters of the profiled launch (LaunchFigures::dram_bytes_per_cell); NaN or 0 when the
// counters are off, and then the launch's ideal traffic stands in: each cell through DRAM once per launch, shared by
// its fused steps (the single-step ideal intensity x depth).
RooflinePoint roofline_point(const StencilConfig&, double cells_per_s, double dram_bytes_per_cell_step);

} // namespace ss
