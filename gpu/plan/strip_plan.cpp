// SPDX-License-Identifier: MIT
#include "gpu/plan/strip_plan.h"

#include "gpu/plan/knobs.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/physics.h"

#include <algorithm>

namespace ss {

std::string_view to_string(HaloPath p) {
    switch (p) {
    case HaloPath::None:
        return "none";
    case HaloPath::SameDevice:
        return "same device";
    case HaloPath::PeerToPeer:
        return "peer-to-peer";
    case HaloPath::Staged:
        return "staged through host";
    case HaloPath::Remote:
        return "remote";
    case HaloPath::MpiDevice:
        return "MPI device buffers";
    case HaloPath::MpiHost:
        return "MPI host buffers";
    case HaloPath::MpiPeer:
        return "CUDA IPC peer copies";
    }
    return "?";
}

int split_extent(const StencilConfig& c) {
    return extent_along(c.problem.size, std::clamp(split_axis(c), 0, c.problem.dims - 1));
}

std::int64_t layer_cells(const StencilConfig& c) {
    return c.problem.size.cells() / split_extent(c);
}

std::int64_t updated_layer_cells(const StencilConfig& c) {
    if (c.problem.stencil == StencilKind::Diffusion4) return layer_cells(c); // every cell of a layer is updated
    const int r = c.problem.radius, axis = split_axis(c);
    std::int64_t cells = 1;
    for (int a = 0; a < c.problem.dims; ++a)
        if (a != axis) cells *= extent_along(c.problem.size, a) - 2 * r;
    return cells;
}

namespace {
// The fixed border on the split axis: R rows at each end for the star and point stencils (whose ghost zone is R deep
// too: a point stencil reads at most R cells away along any axis, corners included, and a ghost layer is a whole
// row, plane or box face across the split axis, so the corners come along); none for the diffusion's periodic layers.
int border_rows(const StencilConfig& c) {
    return has_dirichlet_border(c.problem.stencil) ? c.problem.radius : 0;
}

// Strips beyond one per GPU come from a test hook only: the message names it, so that a run it breaks says why.
std::string strips_text(const StencilConfig& c) {
    const int n = strip_count(c.placement);
    if (c.placement.strips_per_device == 1) return std::to_string(n) + " GPUs";
    return std::to_string(n) + " strips (" + knob_spec(Knob::StripsPerGpu).name + "="
        + std::to_string(c.placement.strips_per_device) + ", a test hook)";
}
} // namespace

Status check_strips(const StencilConfig& c) {
    const int n = strip_count(c.placement);
    if (c.placement.strips_per_device < 1) return Status::failure("strips per device must be at least 1");
    if (n == 1) return Status::success();
    if (c.placement.backend == Backend::Cpu)
        return Status::failure("the CPU backend runs on one host, not on " + strips_text(c));
    const int split = split_axis(c);
    const std::string axis(1, axis_name(split));
    if (c.placement.split != SplitAxis::Slowest && split >= c.problem.dims)
        return Status::failure("--split " + axis + ": a " + std::to_string(c.problem.dims) + "D domain has no " + axis
            + " axis (split along x or y)");
    if (c.problem.stencil == StencilKind::Diffusion4 && !splits_slowest(c))
        return Status::failure("--split " + axis + ": the diffusion field is split into its independent z layers "
            + "only; use --split z");
    if (c.problem.stencil == StencilKind::Diffusion4) {
        if (c.problem.dims == 2)
            return Status::failure("a 2D diffusion field is a single periodic layer and cannot be split over "
                + strips_text(c) + "; use --gpus 1 or --dims 3 (layers are split)");
        if (c.problem.size.nz < n)
            return Status::failure("splitting " + std::to_string(c.problem.size.nz) + " diffusion layers over "
                + strips_text(c) + " leaves a GPU without a layer");
        return Status::success();
    }
    // Every strip must own at least G ghost rows' worth: a neighbour's G ghost rows come from exactly one strip.
    const int unit = strip_cut_unit(c), rows = split_extent(c) - 2 * c.problem.radius,
              thinnest = rows / unit / n * unit, g = strip_ghost_depth(c);
    if (thinnest < g) {
        const int fit = rows / g;
        const std::string zone = g == c.problem.radius
            ? "R" + std::to_string(g) + " ghost zone "
            : std::to_string(g) + "-row ghost zone (R x depth: the temporal variant fuses "
                + std::to_string(c.policy.depth) + " steps between exchanges; ";
        return Status::failure("splitting the " + std::to_string(rows) + " updated rows along " + axis + " over "
            + strips_text(c) + " gives strips of " + std::to_string(thinnest) + " rows, thinner than the " + zone
            + (g == c.problem.radius ? "(" : "") + "each strip needs at least " + std::to_string(g)
            + " rows: " + (fit > 1 ? "at most " + std::to_string(fit) + " strips fit" : "use --gpus 1") + ")");
    }
    if (splits_slowest(c)) return Status::success();
    // A box strip's kernels index the neighbour's cells with their own pitch (x) or plane size (y in 3D).
    if (c.placement.halo == HaloMode::Remote && rows % (n * unit) != 0)
        return Status::failure("halo mode remote along " + axis + " needs strips of equal width (the kernels read a "
            + "neighbour's cells with their own row pitch): the " + std::to_string(rows) + " updated cells along "
            + axis + " do not divide into " + strips_text(c) + "; pick a size whose " + axis + " extent minus 2R is a "
            + "multiple of " + std::to_string(n * unit)
            + (unit > 1 ? " (strips are cut at multiples of CF " + std::to_string(unit) + ")" : std::string())
            + ", or use --halo auto");
    // The kernels cut a step along the slowest axis only, so the cells the neighbours need cannot go first.
    if (c.placement.overlap && c.placement.halo != HaloMode::Remote)
        return Status::failure("--overlap on needs the boundary computed before the interior, which the kernels "
                               "can only cut along the slowest axis, not along "
            + axis + ": use --overlap off with --split " + axis);
    return Status::success();
}

int strip_ghost_depth(const StencilConfig& c) {
    return border_rows(c) * fused_steps(c.policy);
}

int strip_cut_unit(const StencilConfig& c) {
    const bool stream_3d
        = c.problem.dims == 3 && c.problem.stencil == StencilKind::Star && c.policy.variant == Variant::Stream;
    // The tensor-core kernel groups a cell's x (y) neighbours in fours from its tile's origin: box strips start at
    // multiples of 4 along x and y so that the groups, and the bits, are one GPU's.
    if (stream_3d && split_axis(c) <= 1 && stream_layout(c).tensor) return 4;
    return stream_3d && split_axis(c) == 1 ? std::max(c.policy.cf, 1) : 1;
}

StripPlan plan_strips(const StencilConfig& c) {
    StripPlan plan;
    plan.ghost_depth = strip_ghost_depth(c);
    const int n = std::max(strip_count(c.placement), 1), extent = split_extent(c), g = plan.ghost_depth,
              border = border_rows(c);
    const int unit = strip_cut_unit(c), rows = extent - 2 * border, units = rows / unit, base = units / n,
              extra = units % n;
    int begin = border;
    for (int i = 0; i < n; ++i) {
        Strip s;
        s.device = c.placement.device + i / std::max(c.placement.strips_per_device, 1);
        s.update_begin = begin;
        s.update_end = begin + (base + (i < extra ? 1 : 0)) * unit + (i == n - 1 ? rows % unit : 0);
        s.first_row = i == 0 ? 0 : s.update_begin;
        s.end_row = i == n - 1 ? extent : s.update_end;
        s.local_begin = s.update_begin - (i == 0 ? border : g); // at the domain's edges: its border only
        s.local_end = s.update_end + (i == n - 1 ? border : g);
        begin = s.update_end;
        plan.strips.push_back(s);
    }
    return plan;
}

StencilConfig strip_config(const StencilConfig& c, const Strip& s) {
    StencilConfig local = single_gpu_equivalent(c);
    local.placement.device = s.device;
    extent_along(local.problem.size, split_axis(c)) = s.local_rows();
    return local;
}

StencilConfig single_gpu_equivalent(const StencilConfig& c) {
    StencilConfig one = c;
    one.placement.gpus = 1;
    one.placement.strips_per_device = 1;
    one.placement.overlap = StencilConfig {}.placement.overlap;
    one.placement.halo = StencilConfig {}.placement.halo;
    one.placement.split = StencilConfig {}.placement.split;
    return one;
}

PlaneSplit plane_split(const StencilConfig& c, SliceAxis a) {
    // The plane's axes (u, v) and its normal; a 2D run shows the XY plane.
    const int u = c.problem.dims == 3 && a == SliceAxis::YZ ? 1 : 0;
    const int v = c.problem.dims == 3 && a != SliceAxis::XY ? 2 : 1;
    const int axis = split_axis(c);
    return axis == v ? PlaneSplit::AlongV : axis == u ? PlaneSplit::AlongU : PlaneSplit::Normal;
}

std::vector<DeviceShare> device_shares(const StencilConfig& c) {
    std::vector<DeviceShare> shares;
    for (const Strip& s : plan_strips(c).strips) {
        // strip_config sizes the strip's buffers (ghost rows included), so its updated cells are the strip's
        const std::int64_t cells = updated_cells(strip_config(c, s));
        if (shares.empty() || shares.back().device != s.device) shares.push_back({ s.device, 0, s.first_row, 0, 0 });
        DeviceShare& d = shares.back();
        d.strips += 1;
        d.end_row = s.end_row;
        d.updated_cells += cells;
    }
    return shares;
}

std::int64_t MultiGpuStats::halo_bytes() const {
    std::int64_t sum = 0;
    for (const StripStats& s : strips) sum += s.halo_bytes;
    return sum;
}

std::int64_t MultiGpuStats::remote_bytes() const {
    std::int64_t sum = 0;
    for (const StripStats& s : strips) sum += s.remote_bytes;
    return sum;
}

double MultiGpuStats::max_exchange_ms() const {
    double most = 0.0;
    for (const StripStats& s : strips) most = std::max(most, s.exchange_ms);
    return most;
}

double MultiGpuStats::halo_gbytes_per_s() const {
    const double ms = max_exchange_ms();
    return gbytes_per_second(double(halo_bytes()), ms);
}

std::string MultiGpuStats::path_summary() const {
    std::vector<HaloPath> seen;
    for (const StripStats& s : strips)
        for (HaloPath p : { s.below, s.above })
            if (p != HaloPath::None && std::find(seen.begin(), seen.end(), p) == seen.end()) seen.push_back(p);
    if (seen.empty()) return std::string(to_string(HaloPath::None));
    std::sort(seen.begin(), seen.end());
    std::string out;
    for (HaloPath p : seen) out += (out.empty() ? "" : " + ") + std::string(to_string(p));
    return out;
}

} // namespace ss
