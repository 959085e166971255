// SPDX-License-Identifier: MIT
#include "gpu/plan/rank_plan.h"

#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/validation.h"

namespace ss {

StencilConfig rank_split_config(const StencilConfig& whole, int ranks) {
    StencilConfig c = whole;
    c.placement.gpus = ranks;
    c.placement.strips_per_device = 1;
    return c;
}

Status check_rank_split(const StencilConfig& c, int ranks) {
    if (ranks < 1) return Status::failure("a run needs at least one rank");
    if (c.placement.gpus != 1)
        return Status::failure("under mpirun each rank drives one GPU: use --gpus 1 and more ranks (got --gpus "
            + std::to_string(c.placement.gpus) + ")");
    if (ranks == 1) return Status::success();
    const std::string over = " over " + std::to_string(ranks) + " ranks";
    if (!splits_slowest(c))
        return Status::failure(std::string("under mpirun ranks split the slowest axis only; --split ")
            + axis_name(split_axis(c)) + " is for --gpus N in one process");
    if (c.policy.variant == Variant::Temporal)
        return Status::failure("the temporal variant runs in one process: its fused steps would need ghost rows of "
                               "depth R x depth, which the rank exchange does not provide; use another variant or "
                               "one rank");
    if (c.problem.stencil == StencilKind::Diffusion4) {
        if (c.problem.dims == 2)
            return Status::failure(
                "a 2D diffusion field is a single periodic layer and cannot be split" + over + "; use --dims 3");
        if (c.problem.size.nz < ranks)
            return Status::failure("splitting " + std::to_string(c.problem.size.nz) + " diffusion layers" + over
                + " leaves a rank without a layer");
        return Status::success();
    }
    const int r = c.problem.radius, rows = slow_extent(c.problem) - 2 * r, thinnest = rows / ranks;
    if (thinnest < r) {
        const int fit = rows / r;
        return Status::failure("the domain is too small for " + std::to_string(ranks) + " ranks: splitting its "
            + std::to_string(rows) + " updated rows along " + (c.problem.dims == 3 ? "z" : "y") + " gives strips of "
            + std::to_string(thinnest) + " rows, thinner than the R" + std::to_string(r) + " ghost zone ("
            + (fit > 1 ? "at most " + std::to_string(fit) + " ranks fit" : "run one process") + ")");
    }
    return Status::success();
}

int rank_device(int first_device, int local_rank, int device_count) {
    if (device_count < 1 || first_device < 0 || first_device >= device_count) return first_device;
    return (first_device + local_rank) % device_count;
}

RankPlan plan_ranks(const StencilConfig& whole, int ranks) {
    RankPlan plan;
    plan.whole = whole;
    plan.ranks = ranks;
    plan.verdict = check_rank_split(whole, ranks);
    plan.split = rank_split_config(whole, ranks);
    if (plan.verdict) plan.strips = plan_strips(plan.split);
    return plan;
}

RankStripPlan plan_rank_strip(const RankPlan& ranks, int rank, int device, const DeviceCatalogue& catalogue) {
    RankStripPlan plan;
    plan.verdict = ranks.verdict;
    if (!plan.verdict) return plan;
    if (rank < 0 || rank >= ranks.ranks || std::size_t(rank) >= ranks.strips.strips.size()) {
        plan.verdict = Status::failure("rank " + std::to_string(rank) + " has no strip");
        return plan;
    }
    const bool cuda = ranks.whole.placement.backend == Backend::Cuda;
    plan.strip = ranks.strips.strips[std::size_t(rank)];
    plan.strip.device = cuda ? device : 0;
    plan.ghost_depth = ranks.strips.ghost_depth;
    plan.local = strip_config(ranks.split, plan.strip);
    StencilConfig text = single_gpu_equivalent(ranks.whole);
    text.placement.device = device;
    plan.verdict = plan_rank_kernels(plan.local, text, cuda, device, catalogue, plan.kernels);
    return plan;
}

Status plan_rank_kernels(const StencilConfig& local, const StencilConfig& text, bool cuda, int device,
    const DeviceCatalogue& catalogue, std::optional<KernelPlan>& kernels) {
    Status verdict = can_implement(local, catalogue);
    if (!verdict || !cuda) return verdict;
    const DeviceInfo* d = catalogue.find(device);
    if (!d) // can_implement refuses a device that is not present: not reached
        return Status::failure("GPU " + std::to_string(device) + " is not present");
    kernels = plan_kernels(planned_config(local), planned_config(text), *d); // as make_launch_plan's
    return verdict;
}

} // namespace ss
