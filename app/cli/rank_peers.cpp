// SPDX-License-Identifier: MIT
#include "app/cli/rank_peers.h"

#include "gpu/plan/knobs.h"

#include <array>
#include <cstring>

namespace ss::cli {
namespace {

// A description travels in a fixed-size message (a CUDA IPC description is 160 bytes): its length, then its bytes.
constexpr std::size_t kMessage = 512;
using Message = std::array<unsigned char, kMessage>;

Message pack(const std::vector<unsigned char>& bytes) {
    Message m {};
    const std::uint64_t n = bytes.size() <= kMessage - 8 ? bytes.size() : 0; // too long: "cannot share"
    std::memcpy(m.data(), &n, 8);
    if (n > 0) std::memcpy(m.data() + 8, bytes.data(), n);
    return m;
}

std::vector<unsigned char> unpack(const Message& m) {
    std::uint64_t n = 0;
    std::memcpy(&n, m.data(), 8);
    return n <= kMessage - 8 ? std::vector<unsigned char>(m.begin() + 8, m.begin() + 8 + std::ptrdiff_t(n))
                             : std::vector<unsigned char>();
}

} // namespace

bool connect_peer_ranks(MpiWorld& world, RankStrip& strip, std::string& why) {
    const double timeout_s = knob_seconds(Knob::MpiTimeout);
    const bool neighbour[2] = { world.rank() > 0, world.rank() + 1 < world.size() };
    // Hosts by name: a handle from another node must never be mapped.
    Message host[2] = { pack({ world.host().begin(), world.host().end() }), {} }, their_host[2];
    host[1] = host[0];
    Message description[2] = { pack(strip.peer_description()), {} }, theirs[2];
    description[1] = description[0];
    auto trade = [&](Message* send, Message* receive) {
        unsigned char* s[2] = { send[0].data(), send[1].data() };
        unsigned char* r[2] = { receive[0].data(), receive[1].data() };
        world.exchange(s, r, kMessage, timeout_s, 0);
    };
    trade(host, their_host);
    trade(description, theirs);

    Status mine = Status::success();
    for (int side : { kRankBelow, kRankAbove }) {
        if (!neighbour[side] || !mine) continue;
        const int other = world.rank() + (side == kRankAbove ? 1 : -1);
        if (unpack(their_host[side]) != unpack(host[0]))
            mine = Status::failure("rank " + std::to_string(other) + " is on another host");
        else if (Status s = strip.open_peer(side, unpack(theirs[side])); !s)
            mine = Status::failure("rank " + std::to_string(other) + "'s buffers: " + s.reason);
    }
    if (world.all(bool(mine))) return true;
    strip.close_peers();
    why = mine ? "another rank cannot map its neighbour's buffers" : mine.reason;
    return false;
}

bool connect_grid_peers(MpiWorld& world, RankDomain& domain, const RankGridPlan& grid, std::string& why) {
    const double timeout_s = knob_seconds(Knob::MpiTimeout);
    const RankBox& box = domain.plan().box;
    const Message host = pack({ world.host().begin(), world.host().end() }),
                  description = pack(domain.peer_description());
    Status mine = Status::success();
    for (int axis = 0; axis < int(box.extent.size()); ++axis) {
        const int neighbour[2] = { box.neighbour_on(axis, 0), box.neighbour_on(axis, 1) };
        Message send[2][2] = { { host, host }, { description, description } }, theirs[2][2];
        for (int what : { 0, 1 }) { // hosts, then descriptions
            unsigned char* s[2] = { send[what][0].data(), send[what][1].data() };
            unsigned char* r[2] = { theirs[what][0].data(), theirs[what][1].data() };
            world.exchange_with(neighbour, s, r, kMessage, timeout_s, 0);
        }
        for (int side : { 0, 1 }) {
            if (neighbour[side] == kNoNeighbour || !mine) continue;
            const std::string other = "rank " + std::to_string(neighbour[side]);
            if (unpack(theirs[0][side]) != unpack(host))
                mine = Status::failure(other + " is on another host");
            else if (Status s
                     = domain.open_peer(axis, side, unpack(theirs[1][side]), grid.boxes[std::size_t(neighbour[side])]);
                     !s)
                mine = Status::failure(other + "'s buffers: " + s.reason);
        }
    }
    if (world.all(bool(mine))) return true;
    domain.close_peers();
    why = mine ? "another rank cannot map its neighbour's buffers" : mine.reason;
    return false;
}

} // namespace ss::cli
