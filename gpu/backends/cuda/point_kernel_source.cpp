// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/point_kernel_source.h"

#include <algorithm>
#include <cstdio>

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
    const int variant = c.policy.variant == Variant::Smem ? 7 : 6; // points.cuh: 6 base, 7 smem
    std::string s = define("R", c.problem.radius) + define("CF", c.policy.cf) + define("DIMS", c.problem.dims)
        + define("VARIANT", variant);
    s += "#define SS_ENTRY " + plan.choice.entry + "\n"; // the name the backend looks the kernel up by
    s += define("RULE_WAVE", 0) + define("HAS_CENTRE", 0) + define("REMOTE", 0) + "#define W_CENTRE T(0)\n";
    s += define("SNX", c.problem.size.nx) + define("SNY", c.problem.size.ny);
    if (fixed_block)
        s += define("SBX", fixed_block->x) + define("SBY", fixed_block->y) + define("SBZ", fixed_block->z)
            + define("SMINB", std::max(min_blocks_per_sm, 1));
    return s;
}

namespace {

// One function summing every point's product in the shape's order: `array[at + offset]`, the offset in `sy`/`sz`.
std::string sum_function(const StencilShape& shape, const std::string& signature, const char* array, const char* at,
    const char* sy, const char* sz) {
    std::string s = "__device__ __forceinline__ T " + signature + "\n{\n    T acc = T(0);\n";
    char weight[64];
    for (const StencilPoint& p : shape.points) {
        std::snprintf(weight, sizeof weight, "T(%a)", p.weight);
        s += "    acc = fma_rn(" + std::string(weight) + ", " + array + "[" + at + term(p.dx, nullptr) + term(p.dy, sy)
            + term(p.dz, sz) + "], acc);\n";
    }
    return s + "    (void)" + sz + ";\n    return acc;\n}\n";
}

} // namespace

std::string point_sum_source(const StencilShape& shape, Variant variant) {
    if (variant == Variant::Smem)
        return sum_function(shape, "point_sum_tile(const T* tile, int s, int tsy, int tsz)", "tile", "s", "tsy", "tsz");
    return sum_function(
        shape, "point_sum(const T* __restrict__ in, idx_t idx, idx_t sy, idx_t sz)", "in", "idx", "sy", "sz");
}

} // namespace ss
