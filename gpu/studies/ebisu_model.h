// SPDX-License-Identifier: MIT
// EBISU's performance model (seed 002, sec. 5; digest 002-ebisu.md sec. 4) for the temporal variant, as a
// teaching chart draws it against the depth t. Per tile cell and t fused steps (D = 1):
//   T_gm  = a_gm x S_cell / B_gm                 one trip through DRAM per t steps
//   T_sm  = a_sm x t x S_cell / B_sm             every step reads and writes shared memory
//   T_cmp = a_cmp x t / THR_cmp
//   P = t / max(T_gm, T_sm, T_cmp)  (eq. 7),  PP = P x V  (eq. 10: SM tiling computes a halo it throws away)
// The bottleneck is the term equal to the max (eq. 6). V is the kernel's own valid proportion (core / tile,
// temporal_valid_proportion): the paper's eq. 8 prints t x rad, but its 95 % (256 cells, t = 7) needs 2 t rad.
// Pure host code: no CUDA, no Qt.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <string>
#include <vector>

namespace ss {

// One input of the model and where it comes from.
struct ModelInput {
    double value = 0.0; // 0: unknown (the chart leaves its ceiling out and says why)
    bool measured = false; // false: derived from the device catalogue and the spec sheet
    std::string source; // how: "copy kernel, measured in this process", "132 SMs x 32 banks x 4 B x 1.98 GHz"
    bool known() const { return value > 0.0; }
};

struct EbisuInputs {
    ModelInput dram_bytes_per_s; // B_gm
    ModelInput smem_bytes_per_s; // B_sm
    ModelInput flops_per_s; // THR_cmp, in the configuration's precision (an FMA counts 2)
};

// B_gm: `measured_copy_bytes_per_s` when > 0 (the app's copy roofline), else the spec's 2 x memory clock x bus
// width (DDR; the A100-PCIe's 1215 MHz x 5120 bits gives the paper's 1555 GB/s). B_sm: SMs x 32 banks x 4 B x
// SM clock (the A100's 108 x 128 B x 1.41 GHz gives the paper's 19.49 TB/s). THR_cmp: SMs x FMA lanes per SM
// (the CUDA programming guide's throughput table, by compute capability) x 2 x SM clock.
EbisuInputs ebisu_inputs(const DeviceInfo&, Precision, double measured_copy_bytes_per_s);

// FMA lanes per SM in `precision` for compute capability major.minor (the programming guide's table); 0 unknown.
int fma_lanes_per_sm(int cc_major, int cc_minor, Precision);

// Accesses and FLOPs per cell and step, counted as the paper's Table 2 counts them, for this kernel:
struct EbisuCounts {
    double a_gm = 2.0; // one load and one store per cell and trip through DRAM
    double a_sm = 0.0; // shared memory: the plane's store, the in-plane neighbours' loads (3D: the y neighbours
                       // another thread owns; a thread's own adjacent rows come from registers)
    double a_cmp = 0.0; // FLOPs: a multiply and an add per point of the star (j2d5pt 10, j3d7pt 14 as in Table 2);
                        // point stencils: per point, with every point read from shared memory (a_sm = 1 + points)
    int cell_bytes = 4; // S_cell
};
EbisuCounts ebisu_counts(const StencilConfig&);

struct EbisuPoint {
    int depth = 1;
    double valid = 0.0; // V: core cells / tile cells (0: the halo fills the tile)
    double t_gm = 0.0, t_sm = 0.0, t_cmp = 0.0; // seconds per tile cell for `depth` steps; 0 where the input is unknown
    // V x depth / T of each resource alone: the rate it allows, GCells/s (0 where unknown)
    double gm_gcells = 0.0, sm_gcells = 0.0, cmp_gcells = 0.0;
    double pp_gcells = 0.0; // PP: the least of the known three
    std::string bottleneck; // "global memory", "shared memory", "compute", "" when no input is known
    double dram_bytes_per_cell_step = 0.0; // a_gm x S_cell / (depth x V): DRAM traffic per updated cell and step
};
// The model at `depth` for `c` run with `block` (the tile: temporal_tile).
EbisuPoint ebisu_point(const StencilConfig& c, const BlockDims& block, const EbisuInputs&, int depth);
std::vector<EbisuPoint> ebisu_curve(
    const StencilConfig& c, const BlockDims& block, const EbisuInputs&, const std::vector<int>& depths);

// The depth from which global memory stops being the bottleneck, ignoring V: T_gm = max(T_sm, T_cmp), i.e.
// a_gm S / B_gm = t x max(a_sm S / B_sm, a_cmp / THR) (the paper's t >= 6.3 for j2d5pt on the A100). 0 unknown.
double ebisu_crossover_depth(const EbisuCounts&, const EbisuInputs&);

} // namespace ss
