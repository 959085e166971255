// SPDX-License-Identifier: MIT
#include "gpu/plan/validation.h"

#include "gpu/plan/launch_policy.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/stencil_catalog.h"

#include <algorithm>
#include <string>

namespace ss {
namespace {

constexpr std::int64_t kMaxCells = std::int64_t(1) << 40;

// nx * ny * nz without forming a product that could wrap: false when it exceeds `limit`.
bool cells_within(const Extent& e, std::int64_t limit) {
    std::int64_t cells = 1;
    for (const int n : { e.nx, e.ny, e.nz }) {
        if (cells > limit / n) return false;
        cells *= n;
    }
    return true;
}

Status check_devices(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    const Placement& p = c.placement;
    const int count = catalogue.count();
    if (!catalogue.has_cuda())
        return Status::failure("no CUDA device is available ("
            + (catalogue.unavailable.empty() ? std::string("none found") : catalogue.unavailable)
            + "); use --backend cpu");
    if (p.device < 0 || p.device >= count)
        return Status::failure(
            "CUDA device " + std::to_string(p.device) + " does not exist (" + std::to_string(count) + " present)");
    if (p.gpus > count)
        return Status::failure(std::to_string(p.gpus) + " GPUs requested but " + std::to_string(count) + " present");
    if (p.device + p.gpus > count)
        return Status::failure(std::to_string(p.gpus) + " GPUs from device " + std::to_string(p.device)
            + " need devices " + std::to_string(p.device) + ".." + std::to_string(p.device + p.gpus - 1) + " but "
            + std::to_string(count) + " are present");
    return Status::success();
}

Status check_device_memory(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    const std::vector<std::int64_t> need = device_bytes_per_gpu(c);
    for (std::size_t i = 0; i < need.size(); ++i) {
        const DeviceInfo& dev = *catalogue.find(c.placement.device + int(i));
        if (need[i] <= dev.free_memory) continue;
        const std::string whose
            = need.size() == 1 ? "the domain needs " : "GPU " + std::to_string(dev.index) + "'s strips need ";
        return Status::failure(whose + bytes_text(need[i]) + " of GPU memory but " + dev.name + " has "
            + bytes_text(dev.free_memory) + " free");
    }
    return Status::success();
}

// Remote halo mode: each strip's kernel loads its neighbours' rows from their memory, so neighbouring strips'
// devices must reach each other's memory. (check_temporal_policy refuses it for the temporal variant.)
Status check_remote(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    if (c.placement.halo != HaloMode::Remote) return Status::success();
    if (c.placement.backend == Backend::Cpu)
        return Status::failure("halo mode remote is for CUDA GPUs reading each other's memory; the CPU backend "
                               "has no strips: use --halo auto");
    if (strip_count(c.placement) == 1 || !has_dirichlet_border(c.problem.stencil)) return Status::success(); // no rows
    const std::vector<Strip> strips = plan_strips(c).strips;
    for (std::size_t i = 1; i < strips.size(); ++i) {
        const int a = strips[i - 1].device, b = strips[i].device;
        if (!catalogue.can_read(a, b) || !catalogue.can_read(b, a))
            return Status::failure("halo mode remote needs peer access between GPU " + std::to_string(a) + " and GPU "
                + std::to_string(b) + ", which the driver does not offer (cudaDeviceCanAccessPeer): use --halo auto");
    }
    return Status::success();
}

// A point stencil's shape agrees with the problem (use_shape keeps it so; a hand-built configuration may not).
Status check_point_problem(const StencilProblem& p) {
    if (!p.shape)
        return Status::failure("a point stencil needs its points (--stencil box, an EBISU name, --stencil-file)");
    if (Status s = check_shape(*p.shape); !s) return s;
    if (p.shape->dims != p.dims || p.shape->radius() != p.radius)
        return Status::failure("the stencil " + p.shape->name + " is " + std::to_string(p.shape->dims) + "D R"
            + std::to_string(p.shape->radius()) + " but the problem says " + std::to_string(p.dims) + "D R"
            + std::to_string(p.radius));
    if (p.rule != UpdateRule::Jacobi)
        return Status::failure("a point stencil computes out = sum of weight x neighbour (the jacobi rule); --rule "
            + std::string(to_string(p.rule)) + " is for star stencils");
    return Status::success();
}

// What runs point stencils so far: the base, smem, stream and temporal kernels (check_block checks that the smem tile
// fits the device's shared memory), on one GPU, on strips over GPUs in every halo mode (ghost depth R: check_strips),
// under mpirun, or on the CPU.
Status check_point_policy(const StencilConfig& c) {
    const Variant v = c.policy.variant;
    if (v != Variant::Base && v != Variant::Smem && v != Variant::Stream && v != Variant::Temporal)
        return Status::failure("--variant " + std::string(to_string(v))
            + " runs star stencils only so far (point stencils run base, smem, stream and temporal)");
    return Status::success();
}

Status check_host_memory(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    const std::int64_t host = catalogue.host_available;
    if (host >= 0 && host_bytes_needed(c) > host)
        return Status::failure("the domain needs " + bytes_text(host_bytes_needed(c))
            + " of host memory on the CPU backend but " + bytes_text(host) + " is available");
    return Status::success();
}

} // namespace

bool radius_in_range(int radius) {
    return radius >= 1 && radius <= kMaxRadius;
}

std::string radius_range_text() {
    return "1.." + std::to_string(kMaxRadius);
}

Status check_problem(const StencilProblem& p) {
    const bool star = has_dirichlet_border(p.stencil); // star and point stencils: a border of width R
    if (p.dims != 2 && p.dims != 3) return Status::failure("dims must be 2 or 3, got " + std::to_string(p.dims));
    if (star && !radius_in_range(p.radius))
        return Status::failure("radius must be " + radius_range_text() + ", got " + std::to_string(p.radius));
    if (p.size.nx < 1 || p.size.ny < 1 || p.size.nz < 1) return Status::failure("domain sizes must be positive");
    if (p.dims == 2 && p.size.nz != 1) return Status::failure("a 2D domain has nz = 1");
    const int min_extent = star ? 2 * p.radius + 1 : 2 * kDiffusionHalo;
    const bool too_small
        = p.size.nx < min_extent || p.size.ny < min_extent || (p.dims == 3 && star && p.size.nz < min_extent);
    if (too_small)
        return Status::failure("domain " + format_extent(p.size, p.dims) + " is smaller than the "
            + (star ? "R" + std::to_string(p.radius) + " stencil" : std::string("diffusion stencil"))
            + " needs (at least " + std::to_string(min_extent) + " cells per axis)");
    if (!cells_within(p.size, kMaxCells)) return Status::failure("domain has more than 2^40 cells");
    return p.stencil == StencilKind::Points ? check_point_problem(p) : Status::success();
}

StencilConfig auto_stand_in(const StencilConfig& c) {
    if (c.policy.variant != Variant::Auto) return c;
    StencilConfig out = c;
    out.policy.variant = c.problem.stencil == StencilKind::Diffusion4 ? Variant::Smem : Variant::Base;
    out.policy.cf = 1;
    out.policy.depth = 1;
    out.policy.heuristic_block = true;
    return out;
}

Status check_policy(const StencilConfig& c, const DeviceInfo* dev) {
    const KernelPolicy& k = c.policy;
    const bool star = c.problem.stencil == StencilKind::Star;
    if (k.variant == Variant::Auto) return Status::failure(kResolveAutoFirst);
    if (!variant_applies(c.problem.stencil, k.variant))
        return Status::failure("variant " + std::string(to_string(k.variant)) + " does not apply to the "
            + std::string(to_string(c.problem.stencil)) + " stencil ("
            + (star ? "base, smem, smem_padded, stream, uncoalesced, temporal" : "naive, merged, notemp, smem") + ")");
    if (k.variant == Variant::Uncoalesced && k.cf != 1)
        return Status::failure("uncoalesced is a teaching variant without coarsening: use --cf 1");
    if (std::find(std::begin(kCoarseningFactors), std::end(kCoarseningFactors), k.cf) == std::end(kCoarseningFactors))
        return Status::failure("coarsening factor must be 1, 2, 4 or 8, got " + std::to_string(k.cf));
    if (c.problem.stencil == StencilKind::Diffusion4 && k.cf != 1)
        return Status::failure("the diffusion ladder has no coarsened kernels: CF must be 1");
    if (c.problem.stencil == StencilKind::Points)
        if (Status s = check_point_policy(c); !s) return s;
    if (Status s = check_temporal_policy(c); !s) return s;
    if (!dev) return Status::success(); // the CPU backend runs no block
    if (k.heuristic_block) {
        if (!heuristic_block(c, dev->max_threads_per_block, dev)) {
            // name the rule that the thesis heuristic cannot meet
            const Status s = check_block(c, distribute_threads(c, dev->max_threads_per_block), dev);
            return Status::failure("the heuristic finds no valid block: " + s.reason);
        }
        return Status::success();
    }
    return check_block(c, k.block, dev);
}

Status check_placement(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    const Placement& p = c.placement;
    if (p.gpus < 1) return Status::failure("GPU count must be at least 1");
    if (p.backend == Backend::Cpu && p.halo == HaloMode::Remote) return check_remote(c, catalogue);
    if (p.backend == Backend::Cpu) {
        if (p.gpus != 1)
            return Status::failure("the CPU backend runs on one host, not on " + std::to_string(p.gpus) + " GPUs");
        if (Status s = check_strips(c); !s) return s;
        return check_memory(c, catalogue);
    }
    if (Status s = check_devices(c, catalogue); !s) return s;
    if (Status s = check_strips(c); !s) return s;
    if (Status s = check_remote(c, catalogue); !s) return s;
    return check_memory(c, catalogue);
}

Status check_memory(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    return c.placement.backend == Backend::Cpu ? check_host_memory(c, catalogue) : check_device_memory(c, catalogue);
}

Status can_implement(const StencilConfig& c, const DeviceCatalogue& catalogue) {
    if (Status s = check_problem(c.problem); !s) return s;
    const bool cpu = c.placement.backend == Backend::Cpu;
    const DeviceInfo* dev = cpu ? nullptr : catalogue.find(c.placement.device);
    if (!cpu && !dev) return check_devices(c, catalogue);
    if (Status s = check_policy(c, dev); !s) return s;
    // The CPU backend runs no block, yet its report, CSV row and sweep points name the kernel asked for: what no
    // GPU could launch (the heuristic finding no block, or a given one) is refused with the GPU's reason, against
    // the most capable GPU (largest_gpu_limits), so that no backend reports a rate for it.
    if (cpu) {
        const DeviceInfo largest_gpu = largest_gpu_limits();
        if (Status s = check_policy(c, &largest_gpu); !s)
            return Status::failure(std::string(c.policy.heuristic_block ? "no GPU could run this configuration: "
                                                                        : "no GPU could launch this block: ")
                + s.reason);
    }
    return check_placement(c, catalogue);
}

std::vector<std::int64_t> device_bytes_per_gpu(const StencilConfig& c) {
    if (strip_count(c.placement) == 1) return { device_bytes_needed(c) };
    std::vector<std::int64_t> bytes(std::size_t(std::max(c.placement.gpus, 1)), 0);
    for (const Strip& s : plan_strips(c).strips)
        bytes[std::size_t(s.device - c.placement.device)] += device_bytes_needed(strip_config(c, s));
    return bytes;
}

std::int64_t host_bytes_needed(const StencilConfig& c) {
    const int buffers = c.problem.stencil == StencilKind::Diffusion4 ? 3 : 2;
    return c.problem.size.cells() * (std::int64_t(element_size(c.problem.precision)) * buffers + 8);
}

std::vector<int> temporal_depths(const StencilConfig& config) {
    std::vector<int> out;
    StencilConfig c = config;
    c.policy.variant = Variant::Temporal;
    const int deepest = c.problem.dims == 3 ? kTemporalMaxSearchDepth3D : kTemporalMaxSearchDepth2D;
    for (int depth = 1; depth <= deepest; ++depth) {
        c.policy.depth = depth;
        if (check_temporal_policy(c) && check_temporal_block(c, temporal_block(c)) && check_strips(c))
            out.push_back(depth); // strips: each must own the R x depth rows its neighbours' ghost rows take
    }
    return out;
}

} // namespace ss
