// SPDX-License-Identifier: MIT
#include "gpu/plan/process_grid.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace ss {

namespace {

// Every non-increasing way to write `remaining` as `slots` factors below `largest`, after `prefix`; keeps the closest.
void closest_factors(int remaining, int slots, int largest, std::vector<int>& prefix, std::vector<int>& best) {
    if (slots == 1) {
        if (remaining > largest) return;
        prefix.push_back(remaining);
        const auto spread = [](const std::vector<int>& g) { return g.front() - g.back(); };
        if (best.empty() || spread(prefix) < spread(best) || (spread(prefix) == spread(best) && prefix < best))
            best = prefix;
        prefix.pop_back();
        return;
    }
    for (int f = std::min(remaining, largest); f >= 1; --f) {
        if (remaining % f != 0) continue;
        prefix.push_back(f);
        closest_factors(remaining / f, slots - 1, f, prefix, best);
        prefix.pop_back();
    }
}

std::string axes_text(int dims) {
    return dims == 2 ? "PxQ" : dims == 3 ? "PxQxR" : std::to_string(dims) + " counts";
}

// The `count` near-equal parts of `cells`, cut at multiples of `unit`: the first (cells / unit) % count parts are one
// unit longer, and the last part also takes the cells % unit left over (plan_strips cuts strips so).
int part_offset(int cells, int count, int index, int unit) {
    const int units = cells / unit;
    if (index == count) return cells;
    return (index * (units / count) + std::min(index, units % count)) * unit;
}

} // namespace

std::vector<int> balanced_grid(int ranks, int dims) {
    if (ranks < 1 || dims < 1) return {};
    std::vector<int> prefix, best;
    closest_factors(ranks, dims, ranks, prefix, best);
    return best;
}

RankGridText parse_rank_grid(std::string_view text, int dims, int ranks) {
    const auto refuse = [&](const std::string& why) {
        return RankGridText { Status::failure("--ranks " + std::string(text) + ": " + why), {} };
    };
    std::vector<int> grid;
    for (std::string_view rest = text;;) {
        const auto cut = rest.find('x');
        const auto piece = rest.substr(0, cut);
        int v = 0;
        const auto [end, ec] = std::from_chars(piece.data(), piece.data() + piece.size(), v);
        if (piece.empty() || ec != std::errc() || end != piece.data() + piece.size())
            return refuse("expected " + axes_text(dims) + ", whole numbers joined by 'x'");
        if (v < 1) return refuse("every count must be at least 1");
        grid.push_back(v);
        if (cut == std::string_view::npos) break;
        rest.remove_prefix(cut + 1);
    }
    if (static_cast<int>(grid.size()) != dims)
        return refuse(std::to_string(grid.size()) + " counts for a " + std::to_string(dims) + "D domain (expected "
            + axes_text(dims) + ")");
    long long product = 1;
    for (int g : grid) product *= g;
    if (ranks >= 1 && product != ranks)
        return refuse("the grid holds " + std::to_string(product) + " ranks, the run has " + std::to_string(ranks));
    return { Status::success(), grid };
}

RankBoxPlan box_of(
    int rank, const std::vector<int>& grid, const std::vector<int>& extent, int radius, const std::vector<int>& unit) {
    const int dims = static_cast<int>(grid.size());
    if (dims == 0 || extent.size() != grid.size())
        return { Status::failure("the process grid has " + std::to_string(dims) + " axes, the domain "
                     + std::to_string(extent.size())),
            {} };
    long long ranks = 1;
    for (int g : grid) ranks *= g;
    if (rank < 0 || rank >= ranks)
        return { Status::failure(
                     "rank " + std::to_string(rank) + " is outside a grid of " + std::to_string(ranks) + " ranks"),
            {} };
    static constexpr char kAxis[] = { 'x', 'y', 'z' };
    const auto unit_of = [&unit](int a) { return a < int(unit.size()) ? std::max(unit[std::size_t(a)], 1) : 1; };
    for (int a = 0; a < dims; ++a)
        if (const int thinnest = extent[a] / unit_of(a) / grid[a] * unit_of(a); grid[a] > 1 && thinnest < radius)
            return { Status::failure("cutting " + std::to_string(extent[a]) + " cells along "
                         + (a < 3 ? std::string(1, kAxis[a]) : std::to_string(a)) + " into " + std::to_string(grid[a])
                         + " gives boxes of " + std::to_string(thinnest) + ", thinner than the R"
                         + std::to_string(radius) + " ghost zone (at most " + std::to_string(extent[a] / radius)
                         + " ranks fit along it)"),
                {} };
    RankBox box;
    box.ghost_depth = radius;
    box.coordinate.resize(dims), box.offset.resize(dims), box.extent.resize(dims);
    box.neighbour.assign(2 * dims, kNoNeighbour);
    int stride = 1; // ranks between neighbours along axis a
    for (int a = 0, left = rank; a < dims; stride *= grid[a], left /= grid[a], ++a) {
        const int at = left % grid[a];
        box.coordinate[a] = at;
        box.offset[a] = part_offset(extent[a], grid[a], at, unit_of(a));
        box.extent[a] = part_offset(extent[a], grid[a], at + 1, unit_of(a)) - box.offset[a];
        if (at > 0) box.neighbour[2 * a] = rank - stride;
        if (at + 1 < grid[a]) box.neighbour[2 * a + 1] = rank + stride;
    }
    return { Status::success(), box };
}

} // namespace ss
