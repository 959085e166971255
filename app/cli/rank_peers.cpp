// SPDX-License-Identifier: MIT
#include "app/cli/rank_peers.h"

#include "gpu/plan/knobs.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>

namespace ss::cli {
namespace {

// A rank's host and its buffers' description travel in one fixed-size message (a CUDA IPC description is 160
// bytes): the host's length and bytes, then the description's. One that does not fit travels empty ("cannot share").
constexpr std::size_t kMessage = 1024;
using Message = std::array<unsigned char, kMessage>;

struct Card {
    std::string host;
    std::vector<unsigned char> description;
};

Message pack(const std::string& host, const std::vector<unsigned char>& description) {
    Message m {};
    const std::uint32_t h = host.size() <= 255 ? std::uint32_t(host.size()) : 0;
    const std::uint32_t d = 8 + h + description.size() <= kMessage ? std::uint32_t(description.size()) : 0;
    std::memcpy(m.data(), &h, 4);
    std::memcpy(m.data() + 4, host.data(), h);
    std::memcpy(m.data() + 4 + h, &d, 4);
    if (d > 0) std::memcpy(m.data() + 8 + h, description.data(), d);
    return m;
}

Card unpack(const Message& m) {
    std::uint32_t h = 0, d = 0;
    std::memcpy(&h, m.data(), 4);
    h = h <= 255 ? h : 0;
    std::memcpy(&d, m.data() + 4 + h, 4);
    d = 8 + h + d <= kMessage ? d : 0;
    const auto* at = m.data();
    return { std::string(at + 4, at + 4 + h), std::vector<unsigned char>(at + 8 + h, at + 8 + h + d) };
}

// Collective: along each axis of `neighbours` (the ranks on its two sides, -1 for none) this rank trades its card
// with those neighbours and opens each on its own host with open(axis, side, description). True where every rank
// opened every neighbour; otherwise every rank closes what it opened, and `why` says why this one could not.
bool connect(MpiWorld& world, const std::vector<std::array<int, 2>>& neighbours,
    const std::vector<unsigned char>& description,
    const std::function<Status(int axis, int side, const std::vector<unsigned char>&)>& open,
    const std::function<void()>& close, std::string& why) {
    const double timeout_s = knob_seconds(Knob::MpiTimeout);
    Message mine[2] = { pack(world.host(), description), {} }, theirs[2];
    mine[1] = mine[0];
    Status opened = Status::success();
    for (int axis = 0; axis < int(neighbours.size()); ++axis) {
        const int* neighbour = neighbours[std::size_t(axis)].data();
        unsigned char* s[2] = { mine[0].data(), mine[1].data() };
        unsigned char* r[2] = { theirs[0].data(), theirs[1].data() };
        world.exchange_with(neighbour, s, r, kMessage, timeout_s, 0);
        for (int side : { 0, 1 }) {
            if (neighbour[side] < 0 || !opened) continue;
            const std::string other = "rank " + std::to_string(neighbour[side]);
            const Card card = unpack(theirs[side]);
            if (card.host != world.host()) // a handle from another node must never be mapped
                opened = Status::failure(other + " is on another host");
            else if (Status o = open(axis, side, card.description); !o)
                opened = Status::failure(other + "'s buffers: " + o.reason);
        }
    }
    if (world.all(bool(opened))) return true;
    close();
    why = opened ? "another rank cannot map its neighbour's buffers" : opened.reason;
    return false;
}

} // namespace

bool connect_peer_ranks(MpiWorld& world, RankStrip& strip, std::string& why) {
    const int below = world.rank() > 0 ? world.rank() - 1 : -1;
    const int above = world.rank() + 1 < world.size() ? world.rank() + 1 : -1;
    return connect(
        world, { { below, above } }, strip.peer_description(),
        [&strip](int, int side, const std::vector<unsigned char>& d) { return strip.open_peer(side, d); },
        [&strip] { strip.close_peers(); }, why);
}

bool connect_grid_peers(MpiWorld& world, RankDomain& domain, const RankGridPlan& grid, std::string& why) {
    const RankBox& box = domain.plan().box;
    std::vector<std::array<int, 2>> neighbours;
    for (int axis = 0; axis < int(box.extent.size()); ++axis)
        neighbours.push_back({ box.neighbour_on(axis, 0), box.neighbour_on(axis, 1) });
    return connect(
        world, neighbours, domain.peer_description(),
        [&](int axis, int side, const std::vector<unsigned char>& d) {
            return domain.open_peer(
                axis, side, d, grid.boxes[std::size_t(neighbours[std::size_t(axis)][std::size_t(side)])]);
        },
        [&domain] { domain.close_peers(); }, why);
}

} // namespace ss::cli
