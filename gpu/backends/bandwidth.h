// SPDX-License-Identifier: MIT
// The device-copy roofline: how fast this GPU moves bytes DRAM -> SM -> DRAM, measured in process.
#pragma once

#include <cstdint>
#include <string>

namespace ss {

struct BandwidthResult {
    double gbytes_per_s = 0.0; // read + write bytes per second / 1e9 (median of the repeats)
    double milliseconds = 0.0; // median time of one copy
    std::int64_t bytes_per_copy = 0; // bytes read (= bytes written)
    std::string error; // non-empty when the measurement could not run
};

// Copies `bytes` `repeats` times after a warm-up with several launch shapes of a vectorised kernel
// and with cudaMemcpy; the best median wins.
BandwidthResult measure_copy_bandwidth(int device, std::int64_t bytes, int repeats);

} // namespace ss
