// SPDX-License-Identifier: MIT
#include "gpu/studies/ebisu_model.h"

#include "gpu/plan/axis_star_plan.h"

#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/rates.h"

#include <algorithm>
#include <cstdio>

namespace ss {
namespace {

std::string figure(const char* format, double a, double b = 0.0, double c = 0.0) {
    char text[160];
    std::snprintf(text, sizeof text, format, a, b, c);
    return text;
}

} // namespace

int fma_lanes_per_sm(int major, int minor, Precision p) {
    const bool fp64 = p == Precision::FP64;
    switch (major) {
    case 6:
        return minor == 0 ? (fp64 ? 32 : 64) : (fp64 ? 4 : 128);
    case 7: // V100: 64 / 32; Turing (7.5): 64 / 2
        return fp64 ? (minor == 0 || minor == 2 ? 32 : 2) : 64;
    case 8: // A100: 64 / 32; GA10x, AD10x: 128 / 2
        return minor == 0 ? (fp64 ? 32 : 64) : (fp64 ? 2 : 128);
    case 9: // H100, H200
    case 10: // B100, B200
        return fp64 ? 64 : 128;
    case 12: // consumer Blackwell
        return fp64 ? 2 : 128;
    default:
        return 0;
    }
}

EbisuInputs ebisu_inputs(const DeviceInfo& d, Precision p, double measured_copy_bytes_per_s) {
    EbisuInputs in;
    const double clock_hz = double(d.sm_clock_khz) * 1e3;
    if (measured_copy_bytes_per_s > 0) {
        in.dram_bytes_per_s = { measured_copy_bytes_per_s, true, "copy kernel, measured in this process" };
    } else if (d.memory_clock_khz > 0 && d.memory_bus_bits > 0) {
        const double bytes = 2.0 * d.memory_clock_khz * 1e3 * d.memory_bus_bits / 8.0;
        in.dram_bytes_per_s = { bytes, false,
            figure("2 x %.0f MHz x %.0f-bit bus", d.memory_clock_khz / 1e3, double(d.memory_bus_bits)) };
    } else {
        in.dram_bytes_per_s.source = "unknown: no memory clock in the device catalogue";
    }
    if (d.sm_count > 0 && clock_hz > 0) {
        in.smem_bytes_per_s = { d.sm_count * 128.0 * clock_hz, false,
            figure("%.0f SMs x 32 banks x 4 B x %.2f GHz", double(d.sm_count), clock_hz / 1e9) };
        const int lanes = fma_lanes_per_sm(d.cc_major, d.cc_minor, p);
        if (lanes > 0)
            in.flops_per_s = { d.sm_count * lanes * 2.0 * clock_hz, false,
                figure("%.0f SMs x %.0f FMA lanes x 2 x %.2f GHz", double(d.sm_count), double(lanes), clock_hz / 1e9) };
        else
            in.flops_per_s.source = "unknown: compute capability " + std::to_string(d.cc_major) + "."
                + std::to_string(d.cc_minor) + " is not in the throughput table";
    } else {
        in.smem_bytes_per_s.source = in.flops_per_s.source = "unknown: no SM count or SM clock in the device catalogue";
    }
    return in;
}

EbisuCounts ebisu_counts(const StencilConfig& config) {
    const StencilConfig c = planned_config(config); // a star with a weight per axis counts as the star's kernel
    EbisuCounts k;
    const int r = c.problem.radius, cf = std::max(c.policy.cf, 1);
    k.cell_bytes = element_size(c.problem.precision);
    if (c.problem.stencil == StencilKind::Points) { // points.cuh's temporal kernel: every point from its smem ring
        const double n = c.problem.shape ? double(c.problem.shape->points.size()) : 0.0;
        k.a_sm = 1.0 + n; // the store, each point's load
        k.a_cmp = 2.0 * n; // a multiply and an add per point, as Table 2 counts a star's
        return k;
    }
    k.a_sm = 1.0 + 2.0 * r; // the store, the x neighbours
    if (c.problem.dims == 3) {
        if (temporal_adjacent_rows()) // rows l - d < 0 and l + d >= CF come from shared memory
            for (int d = 1; d <= r; ++d) k.a_sm += 2.0 * std::min(d, cf) / cf;
        else
            k.a_sm += 2.0 * r;
    }
    k.a_cmp = 2.0 * (2 * c.problem.dims * r + 1);
    return k;
}

EbisuPoint ebisu_point(const StencilConfig& config, const BlockDims& block, const EbisuInputs& in, int depth) {
    StencilConfig c = config;
    c.policy.depth = std::max(depth, 1);
    const EbisuCounts k = ebisu_counts(c);
    EbisuPoint p;
    p.depth = c.policy.depth;
    p.valid = temporal_valid_proportion(c, block);
    const double t = p.depth, s = k.cell_bytes;
    if (in.dram_bytes_per_s.known()) p.t_gm = k.a_gm * s / in.dram_bytes_per_s.value;
    if (in.smem_bytes_per_s.known()) p.t_sm = k.a_sm * t * s / in.smem_bytes_per_s.value;
    if (in.flops_per_s.known()) p.t_cmp = k.a_cmp * t / in.flops_per_s.value;
    auto rate = [&](double seconds) { return gcells_per_second(p.valid, t, seconds * 1e3); };
    p.gm_gcells = rate(p.t_gm), p.sm_gcells = rate(p.t_sm), p.cmp_gcells = rate(p.t_cmp);
    const double t_stencil = std::max({ p.t_gm, p.t_sm, p.t_cmp });
    if (t_stencil > 0) {
        p.pp_gcells = rate(t_stencil);
        p.bottleneck = t_stencil == p.t_gm ? "global memory" : t_stencil == p.t_sm ? "shared memory" : "compute";
    }
    p.dram_bytes_per_cell_step = p.valid > 0 ? k.a_gm * s / (t * p.valid) : 0.0;
    return p;
}

std::vector<EbisuPoint> ebisu_curve(
    const StencilConfig& c, const BlockDims& block, const EbisuInputs& in, const std::vector<int>& depths) {
    std::vector<EbisuPoint> out;
    for (int depth : depths) out.push_back(ebisu_point(c, block, in, depth));
    return out;
}

double ebisu_crossover_depth(const EbisuCounts& k, const EbisuInputs& in) {
    if (!in.dram_bytes_per_s.known()) return 0.0;
    const double per_step
        = std::max(in.smem_bytes_per_s.known() ? k.a_sm * k.cell_bytes / in.smem_bytes_per_s.value : 0.0,
            in.flops_per_s.known() ? k.a_cmp / in.flops_per_s.value : 0.0);
    return per_step > 0 ? k.a_gm * k.cell_bytes / in.dram_bytes_per_s.value / per_step : 0.0;
}

} // namespace ss
