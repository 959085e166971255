// SPDX-License-Identifier: MIT
#include "gpu/backends/rank_strip.h"

#include <algorithm>
#include <cstring>

namespace ss {

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
