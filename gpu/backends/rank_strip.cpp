// SPDX-License-Identifier: MIT
#include "gpu/backends/rank_strip.h"

#include <algorithm>
#include <cstring>

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

void RankStrip::begin_step(const bool neighbour[2], unsigned char* const stage_out[2]) {
    for (int side : { kRankBelow, kRankAbove })
        m_neighbour[side] = neighbour[side], m_stage_out[side] = stage_out ? stage_out[side] : nullptr;
    m_compute_ms += compute_step();
}

void RankStrip::rows_out() {
    for (int side : { kRankBelow, kRankAbove })
        if (m_neighbour[side] && m_stage_out[side]) copy_out(side, m_stage_out[side]);
}

void RankStrip::rows_in(const unsigned char* const stage_in[2]) {
    for (int side : { kRankBelow, kRankAbove })
        if (stage_in && m_neighbour[side]) copy_in(side, stage_in[side]);
}

double RankStrip::take_compute_ms() {
    return std::exchange(m_compute_ms, 0.0);
}

std::uint64_t field_checksum(const std::vector<double>& values, std::int64_t first_cell) {
    auto mix = [](std::uint64_t z) { // splitmix64's finaliser
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    };
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &values[i], sizeof bits);
        sum += mix(mix(std::uint64_t(first_cell) + i) ^ bits);
    }
    return sum;
}

} // namespace ss
