// SPDX-License-Identifier: MIT
#include "gpu/plan/temporal_policy.h"

#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/knobs.h"

#include <algorithm>
#include <string>

namespace ss {

int default_temporal_depth(const StencilProblem& p) {
    // The star's kernel at R1 in 3D (its default CF 4): depth 4 (H100, 2026-11-28: 3d7pt fp32 577.1 GCells/s against
    // 481.0 at depth 3; fp64 299.6 against 268.8 at CF 2, depth 3).
    const bool star_kernel = temporal_on_star_kernel(p);
    if (p.dims == 3 && p.radius == 1 && star_kernel) return 4;
    // ... and at R2 in 2D: depth 4 (2ds9pt fp32 624.5 against 602.2 at depth 3; fp64 at CF 2 410.5 against 363.0).
    if (p.dims == 2 && p.radius == 2 && star_kernel) return 4;
    // The point kernel at R1 in 3D (its default CF 4 / 2): depth 2 (H100, 2026-11-28, forward sums: 3d27pt fp32
    // 282.4 against 226.6 at depth 3, 3d17pt 324.5 / 253.4, poisson 310.7 / 251.2; fp64 174.3 / 129.0 for 3d27pt).
    if (p.dims == 3 && p.radius == 1 && p.stencil == StencilKind::Points && !star_kernel) return 2;
    // The point kernel in 2D, taking 2 (R1) or 4 rows per barrier: depth 4 at R1, 2 beyond (one H200, 2026-11-28:
    // 2d9pt fp32 818.8 GCells/s against 759.6 at depth 6, fp64 549.0 / 509.8; 2d25pt 490.0 / 455.5 at depth 3).
    if (p.dims == 2 && p.stencil == StencilKind::Points && !star_kernel) return p.radius == 1 ? 4 : 2;
    return p.dims == 3 ? std::max(1, 4 - p.radius) : std::max(2, 6 / p.radius);
}

int default_temporal_cf(const StencilConfig& c) {
    if (!temporal_on_star_kernel(c.problem)) {
        if (c.problem.stencil != StencilKind::Points) return 1;
        // The point kernel (H100, 2026-11-28, forward sums, EBISU's sizes): 2D CF 2 (2d9pt fp32 682.8 GCells/s against
        // 562.8 at CF 1, fp64 496.6 / 442.5, 2d49pt 272.8 / 243.7), 3D CF 4 in fp32 (3d27pt 282.4 / 197.5 at depth
        // 2), CF 2 in fp64 (174.3 / 123.6).
        return c.problem.dims == 3 && c.problem.precision == Precision::FP32 ? 4 : 2;
    }
    // The star's kernel: CF 4 in 3D; CF 1 in 2D, where the rows a stage takes per barrier give each thread its cells
    // (one H200, 2026-11-28: 2d5pt fp64 888.0 GCells/s at CF 1 and 4 rows, 810.0 at CF 2 and 4 rows, 679.2 at CF 2
    // and one row).
    return c.problem.dims == 3 ? 4 : 1;
}

TemporalTile temporal_tile(const StencilConfig& c, const BlockDims& b, int depth) {
    const int halo = c.problem.radius * depth;
    TemporalTile t;
    if (c.problem.dims == 3) {
        t.x = b.x, t.y = b.y * c.policy.cf;
        t.core_x = t.x - 2 * halo, t.core_y = t.y - 2 * halo;
    } else {
        t.x = b.x * c.policy.cf, t.y = 1;
        t.core_x = t.x - 2 * halo, t.core_y = 1;
    }
    return t;
}

double temporal_valid_proportion(const StencilConfig& c, const BlockDims& b) {
    const TemporalTile t = temporal_tile(c, b, c.policy.depth);
    if (t.core_x <= 0 || t.core_y <= 0) return 0.0;
    return double(t.core_x) * t.core_y / (double(t.x) * t.y);
}

int temporal_pending_registers(const StencilConfig& c) {
    const int sums = 2 * c.problem.radius + (c.problem.stencil == StencilKind::Points ? 1 : 0); // points: 2R+1
    return sums * c.policy.cf * c.policy.depth * (element_size(c.problem.precision) / 4);
}

Status check_temporal_policy(const StencilConfig& c) {
    const KernelPolicy& k = c.policy;
    if (k.variant != Variant::Temporal) {
        if (!depth_fits_variant(k))
            return Status::failure("depth " + std::to_string(k.depth)
                + " applies to the temporal variant only (steps fused per launch): use depth 1 or variant temporal");
        return Status::success();
    }
    if (k.depth < 1 || k.depth > kMaxTemporalDepth)
        return Status::failure("temporal depth must be 1.." + std::to_string(kMaxTemporalDepth) + " (steps fused per "
            + "launch), got " + std::to_string(k.depth));
    if (c.problem.rule == UpdateRule::Wave)
        return Status::failure("temporal does not run the wave rule: it reads u(t-1) too, so every fused step would "
                               "need two planes per stage; use the thesis or jacobi rule");
    if (strip_count(c.placement) > 1 && !splits_slowest(c))
        return Status::failure(std::string("temporal strips are cut along the axis it streams (")
            + axis_name(c.problem.dims - 1) + "), not along " + axis_name(split_axis(c))
            + ": its tiles span the other axes whole; use --split slowest");
    if (strip_count(c.placement) > 1 && c.placement.halo == HaloMode::Remote)
        return Status::failure("halo mode remote does not apply to temporal: a fused launch reads R x depth ("
            + std::to_string(c.problem.radius * k.depth)
            + ") ghost rows, which its neighbours copy after every launch; use --halo auto or staged");
    // The star's kernel (a point stencil planned as the star too) keeps 2R sums per cell and stage; the point kernel
    // 2R+1 where it sums forward, else planes in shared memory.
    const bool star_kernel = temporal_on_star_kernel(c.problem);
    const bool points = !star_kernel && c.problem.stencil == StencilKind::Points;
    const bool pending_sums = star_kernel || point_temporal_forward(c);
    const int regs = temporal_pending_registers(star_kernel ? planned_config(c) : c);
    if (pending_sums && regs > kTemporalRegisterBudget)
        return Status::failure(std::string("temporal keeps ") + (points ? "(2 x R + 1)" : "2 x R")
            + " x CF x depth pending sums per thread: R" + std::to_string(c.problem.radius) + " CF"
            + std::to_string(k.cf) + " depth " + std::to_string(k.depth) + " "
            + std::string(to_string(c.problem.precision)) + " needs " + std::to_string(regs) + " registers (at most "
            + std::to_string(kTemporalRegisterBudget) + "): lower the depth or CF");
    return Status::success();
}

Status check_temporal_block(const StencilConfig& c, const BlockDims& b) {
    const bool three = c.problem.dims == 3;
    if (b.z != 1 || (!three && b.y != 1))
        return Status::failure(std::string("temporal streams along ")
            + (three ? "z: the block must be BX x BY x 1" : "y: the block must be BX x 1 x 1") + ", got "
            + format_block(b));
    const TemporalTile t = temporal_tile(c, b, c.policy.depth);
    const int halo = c.problem.radius * c.policy.depth;
    if (t.core_x < 1 || t.core_y < 1) {
        const std::string tile = three ? std::to_string(t.x) + " x " + std::to_string(t.y) : std::to_string(t.x);
        return Status::failure("temporal depth " + std::to_string(c.policy.depth) + " at R"
            + std::to_string(c.problem.radius) + " computes a halo of " + std::to_string(halo)
            + " cells on each side of the tile, so the tile (" + tile + " cells: block " + format_block(b) + ", CF"
            + std::to_string(c.policy.cf) + ") must be wider than " + std::to_string(2 * halo)
            + ": use a larger block or CF, or a smaller depth");
    }
    return Status::success();
}

// The knobs are read once (gpu/plan/knobs.h); unset, empty or out of range, the default applies.
int temporal_loads_ahead() {
    static const int v = int(knob_integer(Knob::TemporalAhead));
    return v;
}

int temporal_min_blocks_per_sm() {
    static const int v = int(knob_integer(Knob::TemporalMinBlocks)); // 0: not given
    return v;
}

bool temporal_fast_path() {
    static const bool v = knob_flag(Knob::TemporalFastPath);
    return v;
}

bool temporal_adjacent_rows() {
    static const bool v = knob_flag(Knob::TemporalRows);
    return v;
}

int temporal_waves(int dims) {
    static const int v = int(knob_integer(Knob::TemporalWaves)); // 0: by the dimensions
    return v > 0 ? v : dims == 3 ? 8 : 4;
}

int temporal_sync_rows(const StencilConfig& c) {
    static const int v = int(knob_integer(Knob::TemporalSyncRows)); // 0: by the configuration
    const bool star_kernel = temporal_on_star_kernel(c.problem);
    if (c.policy.variant != Variant::Temporal || !(star_kernel || point_temporal_forward(c))) return 1;
    if (v > 0) return v;
    // One H200, 2026-11-28, at EBISU's sizes (docs/PERFORMANCE.md "Rows per barrier"): a thread's cells per barrier,
    // CF x rows, at 8 for the star's kernel in 2D R1 fp32 (2d5pt 1406.7 GCells/s against 996.1 at one row), else at
    // 4 (2d5pt fp64 888.0 / 679.2, 2ds9pt fp32 869.3 / 643.4); the point kernel's at 4 at R1 (2d9pt fp32 818.8 /
    // 766.4) and 8 beyond, at most 4 rows (2d25pt fp32 490.0 / 418.0, 2d49pt fp64 223.0 / 196.5). In 3D the star's
    // kernel takes two planes at CF 4 and R1 (3d7pt fp64 380.3 / 310.8, fp32 611.5 / 590.0; at CF 2 fp64 lost 19 %),
    // the point kernel one (3d27pt, 3d17pt and poisson lost 1-10 % at two).
    const int cf = std::max(c.policy.cf, 1), r = c.problem.radius;
    if (c.problem.dims == 3) return star_kernel && r == 1 && cf >= 4 ? 2 : 1;
    if (star_kernel) return std::max(1, (r == 1 && c.problem.precision == Precision::FP32 ? 8 : 4) / cf);
    return std::clamp((r == 1 ? 4 : 8) / cf, 1, 4);
}

int temporal_chunks(int updated, std::int64_t tiles_per_plane, std::int64_t resident, int waves, int min_chunk) {
    updated = std::max(updated, 1);
    tiles_per_plane = std::max<std::int64_t>(tiles_per_plane, 1), resident = std::max<std::int64_t>(resident, 1);
    min_chunk = std::clamp(min_chunk, 1, updated);
    for (int w = std::max(waves, 1); w >= 1; --w) {
        const int chunks = int(std::min<std::int64_t>(w * resident / tiles_per_plane, 65535));
        if (chunks >= 1 && (updated + chunks - 1) / chunks >= min_chunk) return chunks;
    }
    const int filling = int(std::clamp<std::int64_t>(waves * resident / tiles_per_plane, 1, 65535));
    const int chunk = std::max((updated + filling - 1) / filling, min_chunk);
    return (updated + chunk - 1) / chunk;
}

std::int64_t temporal_smem_bytes(const StencilConfig& c, const BlockDims& b) {
    const TemporalTile t = temporal_tile(c, b, c.policy.depth);
    const std::int64_t r = c.problem.radius;
    const std::int64_t plane = (t.x + 2 * r) * (c.problem.dims == 3 ? t.y + 2 * r : 1);
    return 2 * temporal_sync_rows(c) * plane * element_size(c.problem.precision);
}

bool point_temporal_forward(const StencilConfig& c) {
    static const int mode = int(knob_integer(Knob::PointForward));
    return c.problem.stencil == StencilKind::Points && c.policy.variant == Variant::Temporal && mode != 0;
}

std::int64_t point_temporal_smem_bytes(const StencilConfig& c, const BlockDims& b) {
    const TemporalTile t = temporal_tile(c, b, c.policy.depth);
    const std::int64_t r = c.problem.radius;
    const std::int64_t plane = (t.x + 2 * r) * (c.problem.dims == 3 ? t.y + 2 * r : 1);
    const std::int64_t planes
        = point_temporal_forward(c) ? 2 * temporal_sync_rows(c) : std::int64_t(c.policy.depth) * (2 * r + 1);
    return planes * plane * element_size(c.problem.precision);
}

BlockDims temporal_block(const StencilConfig& c) {
    const int cf = std::max(c.policy.cf, 1);
    if (c.problem.dims == 3) return { 32, std::max(32 / cf, 1), 1 };
    return { std::max(256 / cf, 1), 1, 1 };
}

} // namespace ss
