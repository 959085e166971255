// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/point_kernel_source.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ss {
namespace {

std::string define(const char* name, long long value) {
    return "#define " + std::string(name) + " " + std::to_string(value) + "\n";
}

// " + 2 * sy" style terms of one axis' offset (none for 0).
std::string term(int d, const char* stride) {
    if (d == 0) return "";
    const std::string sign = d < 0 ? " - " : " + ";
    const std::string n = std::to_string(std::abs(d));
    return sign + (stride ? (std::abs(d) == 1 ? std::string(stride) : n + " * " + stride) : n);
}

} // namespace

std::string point_preamble(const KernelPlan& plan, const BlockDims* fixed_block, int min_blocks_per_sm) {
    const StencilConfig& c = plan.kernels;
    // points.cuh: 6 base, 7 smem, 8 stream, 9 temporal
    const Variant v = c.policy.variant;
    const int variant = v == Variant::Smem ? 7 : v == Variant::Stream ? 8 : v == Variant::Temporal ? 9 : 6;
    std::string s = define("R", c.problem.radius) + define("CF", c.policy.cf) + define("DIMS", c.problem.dims)
        + define("VARIANT", variant);
    if (v == Variant::Temporal)
        s += define("DEPTH", c.policy.depth) + define("TEMPORAL_AHEAD", std::max(plan.temporal_loads_ahead, 1))
            + define("TEMPORAL_SYNC_ROWS", plan.temporal_sync_rows);
    s += define("POINT_FORWARD", plan.point_forward);
    s += "#define SS_ENTRY " + plan.choice.entry + "\n"; // the name the backend looks the kernel up by
    const bool remote = c.placement.halo == HaloMode::Remote; // strips whose loads read the neighbours' buffers
    s += define("RULE_WAVE", 0) + define("HAS_CENTRE", 0) + define("REMOTE", remote);
    if (remote) s += define("SPLIT", split_axis(c)); // star.cuh's CELL_SRC picks the buffer along this axis
    s += "#define W_CENTRE T(0)\n";
    s += define("SNX", c.problem.size.nx) + define("SNY", c.problem.size.ny);
    // The temporal kernel's launch bounds follow STENCILSCOPE_TEMPORAL_MIN_BLOCKS, as the star's. (A 48-register cap
    // for 2D R1 fp32 gained 6.9 % at one row per barrier; at two rows, the default since, ptxas' own count is faster.)
    if (fixed_block) {
        const int knob = v == Variant::Temporal ? plan.temporal_min_blocks_per_sm : 0;
        s += define("SBX", fixed_block->x) + define("SBY", fixed_block->y) + define("SBZ", fixed_block->z)
            + define("SMINB", std::max({ min_blocks_per_sm, knob, 1 }));
    }
    return s;
}

namespace {

// The array a point's operand is loaded from: `array`, or in remote mode star.cuh's CELL_SRC of the cell it reads
// (its own buffer or a neighbour's, chosen by the cell's coordinate along the split axis).
std::string source_of(const StencilPoint& p, const char* array, bool remote) {
    if (!remote) return array;
    return "CELL_SRC(i" + term(p.dx, nullptr) + ", j" + term(p.dy, nullptr) + ", k" + term(p.dz, nullptr) + ")";
}

// One function summing every point's product in the shape's order: `array[at + offset]`, the offset in `sy`/`sz`.
// The products and their order do not depend on where an operand is loaded from, so remote strips keep the bits.
std::string sum_function(const StencilShape& shape, const std::string& signature, const char* array, const char* at,
    const char* sy, const char* sz, bool remote = false) {
    std::string s = "__device__ __forceinline__ T " + signature + "\n{\n    T acc = T(0);\n";
    char weight[64];
    for (const StencilPoint& p : shape.points) {
        std::snprintf(weight, sizeof weight, "T(%a)", p.weight);
        s += "    acc = fma_rn(" + std::string(weight) + ", " + source_of(p, array, remote) + "[" + at
            + term(p.dx, nullptr) + term(p.dy, sy) + term(p.dz, sz) + "], acc);\n";
    }
    if (remote) s += "    (void)nx, (void)ny, (void)nz, (void)i, (void)j, (void)k, (void)below, (void)above;\n";
    return s + "    (void)" + sz + ";\n    return acc;\n}\n";
}

// The stream kernel's sum over its ring of planes (points.cuh, VARIANT 8): a point's operand lies in the tile
// `plane[d + R]` for its offset d along the marching axis (y in 2D, z in 3D), at `s` plus its offset within the plane.
std::string ring_sum_function(const StencilShape& shape) {
    std::string s = "__device__ __forceinline__ T point_sum_ring(const T* ring, const int* plane, int s, int tsy)\n{\n"
                    "    T acc = T(0);\n";
    const bool three_d = shape.dims == 3;
    char weight[64];
    for (const StencilPoint& p : shape.points) {
        std::snprintf(weight, sizeof weight, "T(%a)", p.weight);
        const int along = three_d ? p.dz : p.dy;
        s += "    acc = fma_rn(" + std::string(weight) + ", ring[plane[" + std::to_string(along + shape.radius())
            + "] + s" + term(p.dx, nullptr) + (three_d ? term(p.dy, "tsy") : "") + "], acc);\n";
    }
    return s + "    (void)tsy;\n    return acc;\n}\n";
}

// The forward kernels' step (points.cuh, VARIANT 8 and 9 with POINT_FORWARD): the plane that has just arrived, at
// `s` in `tile`, is d planes along the marching axis from the output plane whose sum is acc[R - d]. Each in-plane
// operand is loaded once and added to every sum that needs it; each sum still gets its points in the shape's order
// (d ascends as the planes arrive; within a plane the canonical order is kept), so the bits are base's. The cell's
// own operand (in-plane offset 0) is `centre`, which the caller holds in a register: the same value, one load less.
std::string forward_sum_function(const StencilShape& shape) {
    const bool three_d = shape.dims == 3;
    const int r = shape.radius();
    std::string s = "__device__ __forceinline__ void point_forward(const T* tile, int s, int tsy, T centre, "
                    "T (&acc)[2 * R + 1])\n{\n";
    std::vector<std::pair<int, int>> operands; // (dx, in-plane dy in 3D), each loaded once
    auto operand = [&](const StencilPoint& p) {
        const std::pair<int, int> key { p.dx, three_d ? p.dy : 0 };
        const auto at = std::find(operands.begin(), operands.end(), key);
        if (at != operands.end()) return int(at - operands.begin());
        operands.push_back(key);
        const std::string name = "    const T v" + std::to_string(operands.size() - 1) + " = ";
        if (key == std::pair<int, int> { 0, 0 })
            s += name + "centre;\n";
        else
            s += name + "tile[s" + term(p.dx, nullptr) + (three_d ? term(p.dy, "tsy") : "") + "];\n";
        return int(operands.size() - 1);
    };
    std::vector<int> index;
    for (const StencilPoint& p : shape.points) index.push_back(operand(p));
    char weight[64];
    for (std::size_t n = 0; n < shape.points.size(); ++n) {
        const StencilPoint& p = shape.points[n];
        const std::string sum = "acc[" + std::to_string(r - (three_d ? p.dz : p.dy)) + "]";
        std::snprintf(weight, sizeof weight, "T(%a)", p.weight);
        s += "    " + sum + " = fma_rn(" + weight + ", v" + std::to_string(index[n]) + ", " + sum + ");\n";
    }
    return s + "    (void)tile, (void)s, (void)tsy, (void)centre;\n}\n";
}

} // namespace

std::string point_sum_source(const StencilShape& shape, Variant variant, bool remote, bool forward) {
    if ((variant == Variant::Stream || variant == Variant::Temporal) && forward) return forward_sum_function(shape);
    if (variant == Variant::Stream || variant == Variant::Temporal) // remote mode picks the buffer while loading
        return ring_sum_function(shape);
    if (variant == Variant::Smem) // remote mode picks the buffer while loading the tile (points.cuh)
        return sum_function(shape, "point_sum_tile(const T* tile, int s, int tsy, int tsz)", "tile", "s", "tsy", "tsz");
    if (remote)
        return sum_function(shape,
            "point_sum(const T* __restrict__ in, const T* __restrict__ below, const T* __restrict__ above, idx_t idx, "
            "idx_t sy, idx_t sz, int i, int j, int k, int nx, int ny, int nz)",
            "in", "idx", "sy", "sz", true);
    return sum_function(
        shape, "point_sum(const T* __restrict__ in, idx_t idx, idx_t sy, idx_t sz)", "in", "idx", "sy", "sz");
}

} // namespace ss
