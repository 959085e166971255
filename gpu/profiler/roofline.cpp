// SPDX-License-Identifier: MIT
#include "gpu/profiler/roofline.h"

#include "gpu/problem/arithmetic_intensity.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"

#include <algorithm>
#include <cmath>

namespace ss {

double ridge_point(double flops_per_s, double bytes_per_s) {
    return flops_per_s > 0.0 && bytes_per_s > 0.0 ? flops_per_s / bytes_per_s : 0.0;
}

double attainable_flops(double intensity, double bytes_per_s, double roof_flops_per_s) {
    const double diagonal = intensity > 0.0 && bytes_per_s > 0.0 ? intensity * bytes_per_s : 0.0;
    if (diagonal > 0.0 && roof_flops_per_s > 0.0) return std::min(diagonal, roof_flops_per_s);
    return diagonal > 0.0 ? diagonal : std::max(roof_flops_per_s, 0.0);
}

RooflineBound roofline_bound(const RooflineCeilings& c, Precision p, double intensity) {
    RooflineBound b;
    const double dram = c.dram_bytes_per_s.value, roof = c.flops(p).value;
    b.attainable_flops_per_s = attainable_flops(intensity, dram, roof);
    if (b.attainable_flops_per_s <= 0.0) return b;
    const bool compute = roof > 0.0 && b.attainable_flops_per_s >= roof;
    b.ceiling = compute ? (p == Precision::FP64 ? "fp64 FMA" : "fp32 FMA") : "DRAM";
    return b;
}

double percent_of_roof(double achieved_flops_per_s, double attainable_flops_per_s) {
    return percent_of(achieved_flops_per_s, attainable_flops_per_s);
}

RooflinePoint roofline_point(const StencilConfig& c, double cells_per_s, double dram_bytes_per_cell_step) {
    RooflinePoint p;
    p.flops_per_cell = flops_per_cell(c);
    p.single_step_intensity = ideal_arithmetic_intensity(c);
    p.flops_per_s = cells_per_s > 0.0 ? p.flops_per_cell * cells_per_s : 0.0;
    p.measured_traffic = dram_bytes_per_cell_step > 0.0 && std::isfinite(dram_bytes_per_cell_step);
    if (p.measured_traffic) {
        p.dram_bytes_per_cell = dram_bytes_per_cell_step;
        p.traffic = "DRAM counters (profiled launch)";
    } else {
        p.dram_bytes_per_cell = double(ideal_bytes_per_cell(c)) / std::max(fused_steps(c.policy), 1);
        p.traffic = "ideal traffic (counters off)";
    }
    p.intensity = p.dram_bytes_per_cell > 0.0 ? p.flops_per_cell / p.dram_bytes_per_cell : 0.0;
    return p;
}

} // namespace ss
