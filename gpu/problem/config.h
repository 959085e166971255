// SPDX-License-Identifier: MIT
// The description of one stencil run: what is computed (the problem), how (the kernel policy) and
// where (the placement). Plain values, no Qt, no CUDA.
#pragma once

#include "gpu/problem/stencil_shape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

// The problem: what is computed, whatever runs it. Points: any stencil given as (offset, weight) points
// (gpu/problem/stencil_shape.h), the problem's `shape`.
enum class StencilKind { Star, Diffusion4, Points };
// The largest stencil radius any kind may have (gpu/plan/launch_policy.h's kMaxRadius is the same limit).
inline constexpr int kMaxStencilRadius = 16;
// Update rules of the star stencil (thesis ch. 2.1; RTM acoustic wave).
enum class UpdateRule { Thesis, Jacobi, Wave };
enum class Precision { FP32, FP64 };
// The field a run starts from (gpu/problem/physics.h makes it); Random draws from `seed`.
enum class InitialCondition { Gaussian, Random, Square, HotEdges };

struct Extent {
    int nx = 1, ny = 1, nz = 1;
    std::int64_t cells() const { return std::int64_t(nx) * ny * nz; }
    bool operator==(const Extent&) const = default;
};

struct StencilProblem {
    StencilKind stencil = StencilKind::Star;
    UpdateRule rule = UpdateRule::Jacobi;
    int dims = 2;
    Extent size { 1024, 1024, 1 };
    int radius = 1;
    Precision precision = Precision::FP32;
    InitialCondition initial = InitialCondition::Random;
    std::uint64_t seed = 1;
    // Points only: the stencil's points (use_shape, gpu/problem/stencil_catalog.h, keeps dims and radius equal to
    // the shape's). Empty for the star and diffusion.
    SharedShape shape;
    bool operator==(const StencilProblem&) const = default;
};
// The field is dense with a Dirichlet border of width R that no step writes (star and point stencils; diffusion
// layers are periodic).
inline bool has_dirichlet_border(StencilKind k) {
    return k != StencilKind::Diffusion4;
}

// The kernel policy: how one step is computed (CUB's policy types: the knobs of one kernel family).
// Star variants follow thesis table 3.2 plus 2.5D streaming; the diffusion variants are the
// optimisation ladder of the fourth-order diffusion study (sec. 5).
// Uncoalesced: base with thread x mapped to the slow axis, the course's first lesson (a teaching variant).
// Temporal: `depth` steps fused per trip through DRAM (EBISU, seed 002): overlapped tiles streamed along the
// slow axis, one pipeline stage per fused step (gpu/plan/temporal_policy.h, gpu/kernels/temporal.cuh).
// Auto: no kernel of its own but a request for the fastest of a short list of candidates (variant, CF, depth),
// ranked by EBISU's model and timed on the device (gpu/studies/auto_choice.h). The CLI's run and bench resolve it to
// a concrete variant before planning; can_implement refuses it unresolved (the window, too, so far).
enum class Variant { Base, Smem, SmemPadded, Stream, Naive, Merged, NoTemp, Uncoalesced, Temporal, Auto };
inline constexpr int kVariantCount = 10;

struct BlockDims {
    int x = 32, y = 8, z = 1;
    int threads() const { return x * y * z; }
    bool operator==(const BlockDims&) const = default;
};

struct KernelPolicy {
    Variant variant = Variant::Base;
    int cf = 1; // block-level coarsening factor along x
    bool heuristic_block = true;
    BlockDims block {}; // used when !heuristic_block
    int depth = 1; // temporal: steps fused per launch (t); 1 for every other variant
    bool operator==(const KernelPolicy&) const = default;
};

// The one rule of the depth: the temporal variant fuses `depth` steps per launch, every other variant runs at 1.
inline int depth_for(Variant v, int depth) {
    return v == Variant::Temporal ? depth : 1;
}
// Steps one launch fuses.
inline int fused_steps(const KernelPolicy& p) {
    return depth_for(p.variant, p.depth);
}
// Whether the policy's depth is one its variant runs at (any for temporal, 1 for the others).
inline bool depth_fits_variant(const KernelPolicy& p) {
    return p.depth == fused_steps(p);
}

// The placement: where it runs.
enum class Backend { Cuda, Cpu };
// How multi-GPU strips exchange ghost rows: Auto takes peer-to-peer copies where the devices allow it
// (a plain device copy between strips on one device) and pinned host memory otherwise; Staged always
// goes through the host, so that the fallback can be seen and tested on any machine. Remote copies
// nothing: each strip's kernel loads the rows it needs beyond its strip straight from its neighbours'
// buffers (peer access, as GPU-SM, seed 003), steps ordered across strips by events.
enum class HaloMode { Auto, Staged, Remote };
// The axis strips are cut along (GPU-SM's X/Y/Z comparison, seed 003). Slowest: y in 2D, z in 3D, the layers of
// diffusion; the ghost layers are then whole contiguous rows (planes). x (fastest) or y in 3D: each strip holds a
// box of the domain and its ghost layers are strided (R columns, or R rows of every plane).
enum class SplitAxis { Slowest, X, Y, Z };

struct Placement {
    Backend backend = Backend::Cuda;
    int device = 0;
    int gpus = 1; // strips along the slow axis, on devices device .. device + gpus - 1 (gpu/plan/strip_plan.h)
    bool overlap = true; // multi-GPU: exchange ghost rows while the interior computes
    HaloMode halo = HaloMode::Auto;
    SplitAxis split = SplitAxis::Slowest;
    // Testing hook, not a user option: > 1 cuts each GPU's share into this many strips, each with its own
    // streams and host thread, so that one device runs every multi-GPU code path.
    int strips_per_device = 1;
    bool operator==(const Placement&) const = default;
};

// The description of one run: the three parts change independently (a knob edit touches one of them;
// repartition moves a run to another policy or placement of the same problem).
struct StencilConfig {
    StencilProblem problem;
    KernelPolicy policy;
    Placement placement;
    bool operator==(const StencilConfig&) const = default;
};

// Either ok, or a one-line reason meant for a user.
struct Status {
    bool ok = true;
    std::string reason;
    static Status success() { return {}; }
    static Status failure(std::string why) { return { false, std::move(why) }; }
    explicit operator bool() const { return ok; }
};

std::string_view to_string(StencilKind);
std::string_view to_string(UpdateRule);
std::string_view to_string(Variant);
std::string_view to_string(Precision);
std::string_view to_string(Backend);
std::string_view to_string(HaloMode);
std::string_view to_string(InitialCondition);
std::string_view to_string(SplitAxis); // "slowest", "x", "y", "z"
std::optional<StencilKind> parse_stencil(std::string_view);
std::optional<UpdateRule> parse_rule(std::string_view);
std::optional<Variant> parse_variant(std::string_view);
std::optional<Precision> parse_precision(std::string_view);
std::optional<Backend> parse_backend(std::string_view);
std::optional<HaloMode> parse_halo(std::string_view);
std::optional<InitialCondition> parse_initial(std::string_view);
std::optional<SplitAxis> parse_split(std::string_view); // x, y, z or slowest
// "NXxNY" or "NXxNYxNZ"; the number of parts must equal dims.
std::optional<Extent> parse_extent(std::string_view, int dims);
std::optional<BlockDims> parse_block(std::string_view);
std::string format_extent(const Extent&, int dims);
std::string format_block(const BlockDims&);
// The fields between separators, empty ones kept ("1,,2" -> "1", "", "2"): option lists and cache lines.
std::vector<std::string> split_fields(std::string_view, char separator);

inline int element_size(Precision p) {
    return p == Precision::FP32 ? 4 : 8;
}
// The slowest axis, along which multi-GPU strips and streaming run: y in 2D, z in 3D.
inline int slow_extent(const StencilProblem& p) {
    return p.dims == 3 ? p.size.nz : p.size.ny;
}

// The axis index (0 x, 1 y, 2 z) strips are cut along: Slowest resolved for the problem (z for diffusion, whose
// layers are split). An axis the domain lacks (z in 2D) is returned as is: check_strips refuses it.
inline int split_axis(const StencilConfig& c) {
    switch (c.placement.split) {
    case SplitAxis::X:
        return 0;
    case SplitAxis::Y:
        return 1;
    case SplitAxis::Z:
        return 2;
    case SplitAxis::Slowest:
        break;
    }
    return c.problem.stencil == StencilKind::Diffusion4 ? 2 : c.problem.dims - 1;
}
// True when strips are cut along the slowest axis (whole contiguous rows or planes per strip).
inline bool splits_slowest(const StencilConfig& c) {
    return split_axis(c) == (c.problem.stencil == StencilKind::Diffusion4 ? 2 : c.problem.dims - 1);
}
inline char axis_name(int axis) {
    return axis == 0 ? 'x' : axis == 1 ? 'y' : 'z';
}
inline int extent_along(const Extent& e, int axis) {
    return axis == 0 ? e.nx : axis == 1 ? e.ny : e.nz;
}
inline int& extent_along(Extent& e, int axis) {
    return axis == 0 ? e.nx : axis == 1 ? e.ny : e.nz;
}

// Strips the domain is cut into: one per GPU, times the testing hook.
inline int strip_count(const Placement& p) {
    return p.gpus * p.strips_per_device;
}

// Variants that make sense for a stencil kind, in display order.
bool variant_applies(StencilKind, Variant);
// A short label: "star R4 jacobi 2D fp32 smem_padded CF2" (+ " 2 GPUs overlap off staged" when split).
std::string describe(const StencilConfig&);

} // namespace ss
