// SPDX-License-Identifier: MIT
#include "gpu/plan/launch_policy.h"

#include "gpu/plan/knobs.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/physics.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace ss {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

// Registers that one thread of the one-role forward kernel would give its 2R pending sums per cell (XB x CF cells).
std::int64_t one_role_pending_registers(const StencilConfig& c, int x_cells) {
    return std::int64_t(2) * c.problem.radius * c.policy.cf * x_cells * element_size(c.problem.precision) / 4;
}

// Point stencils' 2D stream kernel in fp32 with its ring of planes (not summing forward): the one whose rows follow CF.
bool point_ring_fp32_2d(const StencilConfig& c) {
    return c.problem.stencil == StencilKind::Points && c.policy.variant == Variant::Stream && c.problem.dims == 2
        && c.problem.precision == Precision::FP32 && !point_stream_forward(c);
}

} // namespace

std::string bytes_text(std::int64_t bytes) {
    char buf[32];
    const double mib = double(bytes) / (1024.0 * 1024.0);
    if (mib >= 1024.0)
        std::snprintf(buf, sizeof buf, "%.1f GiB", mib / 1024.0);
    else if (bytes >= 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.0f MiB", mib);
    else
        std::snprintf(buf, sizeof buf, "%lld KiB", (long long)((bytes + 1023) / 1024));
    return buf;
}

BlockDims distribute_threads(const StencilConfig& c, int threads) {
    threads = std::max(threads, 1);
    if (has_dirichlet_border(c.problem.stencil) && c.policy.variant == Variant::Temporal)
        return temporal_block(c); // the tile, whatever the thread count (star and point stencils)
    if (c.problem.stencil == StencilKind::Points && c.policy.variant == Variant::Stream) {
        // A row of 128 threads marching along y (2D); 32 x N tiles marching along z (3D), whose planes carry an
        // R-wide halo on all four sides: wider tiles waste less of each plane on it. The 2D ring kernel (fp32) takes
        // rows of 128 x CF threads, as the occupancy API allows, and whole rows of 1024 where they split the field's
        // rows into whole blocks (point_stream_full_rows). H100, box R1 16384^2, CF 2 / 4 / 8: 1024 x 1 328.6 / 317.3
        // / 338.2 GCells/s (91.0 % of the copy roofline at CF 8), the API's rows 314.6 / 312.8 / 319.9, 128 x 1
        // 306.3 / 302.3 / 312.0; but 2d9pt at 8640^2, where a last block of 1024 x CF is mostly idle: 290.4 / 288.4
        // / 239.1 with 1024 against 320.8 with 256 at CF 2 (docs/PERFORMANCE.md "Box R1 2D: the block").
        if (c.problem.dims == 2) {
            if (point_stream_full_rows(c)) return { std::min(threads, 1024), 1, 1 };
            return { std::min(threads, point_ring_fp32_2d(c) ? std::min(1024, 128 * c.policy.cf) : 128), 1, 1 };
        }
        return { std::min(threads, 32), std::clamp(threads / 32, 1, 8), 1 };
    }
    if (c.problem.stencil == StencilKind::Star && c.policy.variant == Variant::Stream) {
        // 2D: rows of 128 threads measured best on the H100 up to CF 4 (16384^2, R1..R16, fp32 and fp64: 256 lost
        // up to 14 points); at CF 8 rows of 256 (R1 fp32 93.0 % against 88.7 %; docs/PERFORMANCE.md).
        if (c.problem.dims == 2) return { std::min(threads, c.policy.cf >= 8 ? 256 : 128), 1, 1 };
        // 3D, measured on the H100 (docs/PERFORMANCE.md, issue 19): the gathering kernel (R1) 128x4; the forward
        // kernel at R2..R4 64x8 (3 to 8 points of the roofline better than 32x8), 64x4 at CF 8, where 512 threads
        // would spill the pending sums; from R5 on 16x16 (0 to 9 points better than 32x8 at R8 and R16), but
        // 128 threads at R16 where two roles hold what one role's sums would spill (~175-190 registers: a block of
        // 256 threads is alone on its SM, two of 128 do not wait at one barrier), with rows of 128 bytes: fp32
        // CF 4 16x8 (1024^3 42.3 against 39.6 %), fp64 CF 2 8x16 (39.2 against 38.7 %; 16x8 35.4 %).
        const StreamLayout layout = stream_layout(c);
        // The gathering kernel (R1): rows of 128 threads, 128x4 (1024^3 CF 4: fp32 82.9 against 62.8 % with 32x8,
        // fp64 87.1 against 76.3 %; fp32 CF 1 71.3 against 73.9 %).
        if (!layout.forward) return { std::min(threads, 128), std::clamp(threads / 128, 1, 4), 1 };
        // The tensor-core kernel: 8x32 (tiles of 16 x 32 cells, two 8 x 8 warp tiles wide) measured best at R8..R16
        // (1024^3, R16: 45.7 % against 42.8 % with 16x16 and 41.2 % with 8x16).
        if (layout.tensor) return { 8, std::clamp(threads / 8 / 8 * 8, 8, 32), 1 };
        if (c.problem.radius <= 4) return { 64, std::clamp(threads / 64, 1, c.policy.cf <= 4 ? 8 : 4), 1 };
        const bool crowded
            = c.problem.radius >= 16 && layout.roles == 2 && one_role_pending_registers(c, layout.x_cells) >= 256;
        if (!crowded) return { 16, std::clamp(threads / 16, 1, 16), 1 };
        const int row_threads = std::max(128 / (layout.x_cells * element_size(c.problem.precision)), 1);
        return { row_threads, std::clamp(threads / row_threads, 1, 128 / row_threads), 1 };
    }
    if (c.problem.dims == 3 && has_dirichlet_border(c.problem.stencil)) { // star and point stencils
        const int r = c.problem.radius;
        int b0 = 32;
        if (c.policy.variant == Variant::SmemPadded)
            while (threads / (b0 * r * r) == 0 && b0 > 1) b0 /= 2;
        int b1 = std::min(std::max(2, r), 8);
        int b2 = std::max(1, threads / (b0 * b1));
        int d[3] = { b0, b1, b2 };
        std::sort(d, d + 3, [](int a, int b) { return a > b; });
        return { d[0], d[1], d[2] };
    }
    // 2D smem (the hybrid): flat 128x2 blocks. With two rows most y neighbours come from global memory (L1 hits)
    // instead of shared memory, which relieves the load/store pipe that bounds 32x32 tiles; measured 1.19 to 1.60x
    // the thesis' kernels with their 32x32 over R1..R16 x CF 1..8 on the H100, 32x32 0.96 to 1.14x (PERFORMANCE.md).
    if (c.problem.dims == 2 && c.problem.stencil == StencilKind::Star && c.policy.variant == Variant::Smem)
        return { std::min(threads, 128), std::clamp(threads / 128, 1, 2), 1 };
    // 2D star, and the diffusion layers (2D blocks, one layer per grid z).
    return { 32, std::max(1, threads / 32), 1 };
}

std::int64_t dynamic_smem_bytes(const StencilConfig& c, const BlockDims& b) {
    const std::int64_t es = element_size(c.problem.precision);
    const std::int64_t r = c.problem.radius, wx = std::int64_t(b.x) * c.policy.cf;
    if (c.problem.stencil == StencilKind::Diffusion4) {
        if (c.policy.variant != Variant::Smem) return 0;
        // the input tile with its 2-wide halo, and the first Laplacian with a 1-wide halo
        return ((b.x + 4) * std::int64_t(b.y + 4) + (b.x + 2) * std::int64_t(b.y + 2)) * es;
    }
    if (c.problem.stencil == StencilKind::Points) { // smem: the tile and its R-wide halo on every side (points.cuh)
        if (c.policy.variant == Variant::Stream) // a ring of 2R + 2 planes (the next lands while 2R + 1 are read), or
            return (point_stream_forward(c) ? 2 : 2 * r + 2) // two when each plane is summed forward as it arrives
                * (wx + 2 * r) * (c.problem.dims == 3 ? b.y + 2 * r : 1) * es;
        if (c.policy.variant == Variant::Temporal) return point_temporal_smem_bytes(c, b);
        if (c.policy.variant != Variant::Smem) return 0;
        return (wx + 2 * r) * (b.y + 2 * r) * (c.problem.dims == 3 ? b.z + 2 * r : 1) * es;
    }
    switch (c.policy.variant) {
    case Variant::Smem:
        return wx * b.y * (c.problem.dims == 3 ? b.z : 1) * es;
    case Variant::SmemPadded:
        return (wx + 2 * r) * (b.y + 2 * r) * (c.problem.dims == 3 ? b.z + 2 * r : 1) * es;
    case Variant::Stream: // a ring of PIPE + 1 planes (stream.cuh); in 3D each thread owns XB x CF cells of the tile
        if (c.problem.dims == 3) {
            const StreamLayout l = stream_layout(c);
            const std::int64_t margin = (r + l.x_cells - 1) / l.x_cells * l.x_cells; // OFF in stream_forward.cuh
            const std::int64_t w = std::int64_t(b.x) * l.x_cells,
                               h = std::int64_t(stream_cell_rows(c, b)) * c.policy.cf;
            const std::int64_t handover = l.roles == 2 ? 2 * w * h : 0; // the past role's sums, two planes
            const std::int64_t band = l.tensor ? (8 + 2 * r) / 4 * 32 : 0; // stream_tensor.cuh: TC_STEPS x 32 lanes
            return ((stream_pipeline(c) + 1) * stream_row_pitch(w, margin, l.tensor) * (h + 2 * r) + handover + band)
                * es;
        }
        return (stream_pipeline(c) + 1) * (wx + 2 * r) * es;
    case Variant::Temporal:
        return temporal_smem_bytes(c, b);
    default:
        return 0;
    }
}

int stream_pipeline(const StencilConfig&) {
    static const int v = int(knob_integer(Knob::StreamPipe)); // read once
    return v;
}

int fix_block_mode() {
    static const int v = int(knob_integer(Knob::FixBlock));
    return v;
}

bool specialise_for_block(const StencilConfig& c) {
    const bool streaming = c.policy.variant == Variant::Stream || c.policy.variant == Variant::Temporal;
    if (c.problem.stencil == StencilKind::Points) // points.cuh's planes in flight follow the block: generic, one
        return streaming && fix_block_mode() > 0; // plane at a time (STENCILSCOPE_FIX_BLOCK=0 keeps that, for A/B)
    if (c.problem.stencil != StencilKind::Star) return false;
    if (streaming) return true;
    return fix_block_mode() > 0
        && (c.policy.variant == Variant::Base || c.policy.variant == Variant::Smem
            || c.policy.variant == Variant::SmemPadded);
}

int blocks_per_sm_without_registers(const StencilConfig& c, const BlockDims& b, const DeviceInfo& dev) {
    const int warps = (b.threads() + dev.warp_size - 1) / dev.warp_size;
    int blocks = std::min(dev.max_blocks_per_sm, dev.max_threads_per_sm / dev.warp_size / std::max(warps, 1));
    const std::int64_t smem = dynamic_smem_bytes(c, b);
    if (smem > 0 && dev.smem_per_sm > 0) blocks = std::min<std::int64_t>(blocks, dev.smem_per_sm / (smem + 1024));
    return blocks;
}

std::optional<BlockDims> occupancy_block(const StencilConfig& c, const DeviceInfo& dev) {
    std::optional<BlockDims> best;
    int best_threads = 0;
    for (int t = dev.max_threads_per_block; t >= dev.warp_size; t -= dev.warp_size) {
        const BlockDims b = distribute_threads(c, t);
        if (!check_block(c, b, &dev)) continue;
        const int resident = blocks_per_sm_without_registers(c, b, dev) * b.threads();
        if (resident > best_threads) best = b, best_threads = resident;
    }
    return best;
}

int stream_min_blocks_per_sm() {
    static const int v = int(knob_integer(Knob::StreamMinBlocks));
    return v;
}

bool point_stream_full_rows(const StencilConfig& c) {
    if (!point_ring_fp32_2d(c) || c.policy.cf < 2) return false;
    // Blocks of 1024 x CF cells along a row leave at most 3 % of the cells they cover idle.
    const std::int64_t per_block = 1024ll * c.policy.cf, nx = c.problem.size.nx;
    const std::int64_t covered = (nx + per_block - 1) / per_block * per_block;
    return (covered - nx) * 100 <= 3 * nx;
}

bool point_stream_forward(const StencilConfig& c) {
    static const int mode = int(knob_integer(Knob::PointForward));
    if (c.problem.stencil != StencilKind::Points || c.policy.variant != Variant::Stream) return false;
    return mode == 1 || (mode == 2 && (c.problem.dims == 3 || c.problem.radius > 1));
}

bool stream_lean_addresses() {
    static const bool v = knob_flag(Knob::StreamLeanAddr);
    return v;
}

StreamLayout stream_layout(const StencilConfig& c) {
    if (c.problem.dims != 3) return {};
    static const int fwd_env = int(knob_integer(Knob::StreamFwd)); // -1: by the radius
    static const int xb_env = int(knob_integer(Knob::StreamXb));
    StreamLayout l;
    const bool by_default = c.problem.radius >= kStreamForwardRadius;
    l.forward = fwd_env >= 0 ? fwd_env >= 1 : by_default;
    l.x_cells = l.forward ? xb_env : 1;
    // Two roles where one thread's 2R pending sums per cell would take 256 registers or more (they spill), and from
    // R16 on where they take 128: measured faster there and slower elsewhere at R4, R8 and R16, fp32 and fp64
    // (H100: fp32 R16 CF 2 41.9 against 35.7 %, fp64 R16 CF 1 28.1 against 27.0 %; fp32 R8 CF 4 (128) 57.1
    // against 70.5 %; docs/PERFORMANCE.md, issue 19).
    l.forward_knob = fwd_env;
    l.one_role_registers = one_role_pending_registers(c, l.x_cells);
    const bool two_by_default
        = l.forward && (l.one_role_registers >= 256 || (c.problem.radius >= 16 && l.one_role_registers >= 128));
    l.roles = l.forward && c.problem.radius >= 2 && (fwd_env == 2 || (fwd_env != 1 && two_by_default)) ? 2 : 1;
    static const int tc_env = int(knob_integer(Knob::StreamTc)); // -1: by precision, radius and CF
    const int r = c.problem.radius;
    const bool tensor_rules = l.forward && fwd_env != 2 && tc_env != 0 && c.problem.precision == Precision::FP64
        && c.policy.cf == 1 && r % 2 == 0 && r >= (tc_env == 1 ? 2 : kStreamTensorRadius);
    const bool whole_warp_tiles = c.policy.heuristic_block || stream_tensor_block(c.policy.block);
    l.tensor = tensor_rules && whole_warp_tiles;
    l.tensor_refused_by_block = tensor_rules && !whole_warp_tiles;
    if (l.tensor) l.roles = 1, l.x_cells = 2;
    return l;
}

bool stream_tensor_block(const BlockDims& b) {
    return b.x % 4 == 0 && b.y % 8 == 0 && b.z == 1;
}

std::int64_t stream_row_pitch(std::int64_t interior_width, std::int64_t margin, bool tensor) {
    const std::int64_t px = interior_width + 2 * margin;
    return px + (tensor ? (20 - px % 16) % 16 : 0);
}

int stream_cell_rows(const StencilConfig& c, const BlockDims& b) {
    return std::max(b.y / stream_layout(c).roles, 1);
}

int stream_chunk_count(std::int64_t tiles_per_plane, std::int64_t slots) {
    tiles_per_plane = std::max<std::int64_t>(tiles_per_plane, 1), slots = std::max<std::int64_t>(slots, 1);
    const std::int64_t target = 2 * slots;
    const std::int64_t more = std::clamp<std::int64_t>(ceil_div(target, tiles_per_plane), 1, 65535);
    const std::int64_t fewer = std::clamp<std::int64_t>(target / tiles_per_plane, 1, 65535);
    auto filled = [&](std::int64_t chunks) { // the share of the rounds' slots that have a block
        const std::int64_t blocks = chunks * tiles_per_plane;
        return double(blocks) / double(ceil_div(blocks, slots) * slots);
    };
    return int(filled(fewer) >= filled(more) ? fewer : more);
}

int stream_max_halo(const StencilConfig& c) {
    return std::clamp(c.problem.radius * c.policy.cf / 2 + 2, 8, 64);
}

int stream_halo_per_thread(const StencilConfig& c, const BlockDims& b) {
    const std::int64_t r = c.problem.radius;
    const std::int64_t halo = c.problem.dims == 3 ? 2 * r * b.x + 2 * r * b.y * c.policy.cf : 2 * r;
    const std::int64_t threads = std::int64_t(b.x) * (c.problem.dims == 3 ? b.y : 1);
    return int((halo + threads - 1) / threads);
}

std::int64_t device_bytes_needed(const StencilConfig& c) {
    const std::int64_t es = element_size(c.problem.precision);
    if (c.problem.stencil == StencilKind::Diffusion4) {
        const std::int64_t layer
            = std::int64_t(c.problem.size.nx + 2 * kDiffusionHalo) * (c.problem.size.ny + 2 * kDiffusionHalo);
        const int arrays = c.policy.variant == Variant::Smem ? 2 : (c.policy.variant == Variant::NoTemp ? 3 : 4);
        return layer * (c.problem.dims == 3 ? c.problem.size.nz : 1) * es * arrays;
    }
    return c.problem.size.cells() * es * 2;
}

Status check_block(const StencilConfig& c, const BlockDims& b, const DeviceInfo* dev) {
    const int max_threads = dev ? dev->max_threads_per_block : 1024;
    if (b.x < 1 || b.y < 1 || b.z < 1) return Status::failure("block dims must be at least 1");
    if (b.threads() > max_threads)
        return Status::failure("block " + format_block(b) + " has " + std::to_string(b.threads())
            + " threads; the device allows at most " + std::to_string(max_threads));
    if (b.z > 64) return Status::failure("block z dim " + std::to_string(b.z) + " exceeds CUDA's limit of 64");
    const bool star = c.problem.stencil == StencilKind::Star, bordered = has_dirichlet_border(c.problem.stencil);
    if ((c.problem.dims == 2 || !bordered) && b.z != 1)
        return Status::failure(std::string(bordered ? "a 2D stencil" : "the diffusion layers")
            + " need a 2D block (Bz = 1), got " + format_block(b));
    const int r = c.problem.radius;
    if (star && c.policy.variant == Variant::SmemPadded) {
        const bool small = b.x < r || b.y < r || (c.problem.dims == 3 && b.z < r);
        if (small)
            return Status::failure("smem_padded needs every block dim >= R (" + std::to_string(r) + "), got "
                + format_block(b) + (c.problem.dims == 3 ? " (thesis: Bx, By, Bz >= RADIUS)" : " (Bx, By >= RADIUS)"));
    }
    if (bordered && c.policy.variant == Variant::Stream) {
        if (c.problem.dims == 2 && b.y != 1)
            return Status::failure("stream in 2D marches along y: the block must be Bx x 1, got " + format_block(b));
        if (c.problem.dims == 3 && b.z != 1)
            return Status::failure(
                "stream in 3D marches along z: the block must be Bx x By x 1, got " + format_block(b));
    }
    if (star && c.policy.variant == Variant::Stream) {
        if (stream_layout(c).roles == 2 && (b.y % 2 != 0 || (b.x * b.y / 2) % 32 != 0))
            return Status::failure(
                "the two-role stream kernel gives each role half of the block's rows in whole warps: "
                "By must be even and Bx x By / 2 a multiple of 32, got "
                + format_block(b));
        if (stream_layout(c).tensor && !stream_tensor_block(b))
            return Status::failure("the fp64 tensor-core stream kernel gives each warp 8 x 8 cells: Bx must be a "
                                   "multiple of 4 and By of 8, got "
                + format_block(b));
        const bool forward = stream_layout(c).forward; // its copy map needs no registers per halo item
        if (const int need = stream_halo_per_thread(c, b); !forward && need > stream_max_halo(c))
            return Status::failure("stream with block " + format_block(b) + " needs " + std::to_string(need)
                + " halo loads per thread (at most " + std::to_string(stream_max_halo(c)) + "): use a larger block");
    }
    if (bordered && c.policy.variant == Variant::Temporal)
        if (Status s = check_temporal_block(c, b); !s) return s;
    const std::int64_t smem = dynamic_smem_bytes(c, b);
    const std::int64_t smem_max = dev ? dev->smem_per_block_optin : 48 * 1024;
    if (smem > smem_max)
        return Status::failure(std::string(to_string(c.policy.variant)) + " with block " + format_block(b) + " needs "
            + std::to_string((smem + 1023) / 1024) + " KiB of shared memory per block; the device allows "
            + std::to_string(smem_max / 1024) + " KiB");
    const GridDims g = grid_dims(c, b);
    if (g.y > 65535 || g.z > 65535)
        return Status::failure("block " + format_block(b) + " needs a grid of " + std::to_string(g.y) + " x "
            + std::to_string(g.z) + " blocks in y x z; CUDA allows 65535");
    return Status::success();
}

DeviceInfo largest_gpu_limits() {
    DeviceInfo d;
    d.name = "an H100-class GPU";
    d.cc_major = 9, d.cc_minor = 0;
    d.max_threads_per_block = 1024, d.max_threads_per_sm = 2048, d.max_blocks_per_sm = 32;
    d.smem_per_block_optin = 227 * 1024, d.smem_per_sm = 228 * 1024;
    return d;
}

std::optional<BlockDims> heuristic_block(const StencilConfig& c, int suggested, const DeviceInfo* dev) {
    for (int t = std::max(suggested, 1); t >= 1; t /= 2) {
        const BlockDims b = distribute_threads(c, t);
        if (check_block(c, b, dev)) return b;
    }
    return std::nullopt;
}

GridDims grid_dims(const StencilConfig& c, const BlockDims& b, int chunks) {
    GridDims g;
    const bool coarsened_in_y
        = c.problem.stencil == StencilKind::Star && c.policy.variant == Variant::Stream && c.problem.dims == 3;
    g.x = unsigned(
        ceil_div(c.problem.size.nx, std::int64_t(b.x) * (coarsened_in_y ? stream_layout(c).x_cells : c.policy.cf)));
    if (c.problem.stencil == StencilKind::Diffusion4) {
        g.y = unsigned(ceil_div(c.problem.size.ny, b.y));
        g.z = unsigned(c.problem.dims == 3 ? c.problem.size.nz : 1);
        return g;
    }
    if (c.policy.variant == Variant::Stream && c.problem.stencil == StencilKind::Points) { // points.cuh's stream
        if (c.problem.dims == 3) g.y = unsigned(ceil_div(c.problem.size.ny, b.y));
        (c.problem.dims == 3 ? g.z : g.y) = unsigned(std::max(chunks, 1));
        return g;
    }
    if (c.policy.variant == Variant::Stream) {
        if (c.problem.dims == 2)
            g.y = unsigned(std::max(chunks, 1));
        else
            g.y = unsigned(ceil_div(c.problem.size.ny, std::int64_t(stream_cell_rows(c, b)) * c.policy.cf)),
            g.z = unsigned(std::max(chunks, 1));
        return g;
    }
    if (c.policy.variant == Variant::Temporal) { // overlapped tiles: each writes its core (temporal_policy.h)
        const TemporalTile t = temporal_tile(c, b, c.policy.depth);
        g.x = unsigned(ceil_div(c.problem.size.nx, std::max(t.core_x, 1)));
        if (c.problem.dims == 3) g.y = unsigned(ceil_div(c.problem.size.ny, std::max(t.core_y, 1)));
        (c.problem.dims == 3 ? g.z : g.y) = unsigned(std::max(chunks, 1));
        return g;
    }
    if (c.policy.variant == Variant::Uncoalesced) { // thread x walks the slow axis, the last block dim walks x
        const Extent& e = c.problem.size;
        g.x = unsigned(ceil_div(c.problem.dims == 3 ? e.nz : e.ny, b.x));
        g.y = unsigned(ceil_div(c.problem.dims == 3 ? e.ny : e.nx, b.y));
        g.z = unsigned(c.problem.dims == 3 ? ceil_div(e.nx, b.z) : 1);
        return g;
    }
    g.y = unsigned(ceil_div(c.problem.size.ny, b.y));
    if (c.problem.dims == 3) g.z = unsigned(ceil_div(c.problem.size.nz, b.z));
    return g;
}

} // namespace ss
