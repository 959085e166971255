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

// The roofline every "% of roofline" is judged against, the same in both programs (the GUI's metrics,
// `profile`, `bench` and the depth sweep): copies of kRooflineCopyBytes, median of kRooflineRepeats.
inline constexpr std::int64_t kRooflineCopyBytes = std::int64_t(1) << 30; // per buffer, far past any L2
inline constexpr int kRooflineRepeats = 10;
// The least worth measuring when free memory is short: still past the L2 of the GPUs that have little memory.
inline constexpr std::int64_t kRooflineMinCopyBytes = std::int64_t(64) << 20;

// The bytes per buffer for a device with `free_bytes` of free memory: kRooflineCopyBytes when both
// buffers take at most half of it (the rest stays for the simulation and the profiler), else the largest
// power of two that does, down to kRooflineMinCopyBytes; 0 when not even that fits.
inline std::int64_t roofline_copy_bytes(std::int64_t free_bytes) {
    std::int64_t bytes = kRooflineCopyBytes;
    while (bytes >= kRooflineMinCopyBytes && 4 * bytes > free_bytes) bytes /= 2; // two buffers, half the free memory
    return bytes >= kRooflineMinCopyBytes ? bytes : 0;
}

struct CopyRoofline {
    BandwidthResult measured; // its error says why there is no roofline
    // Copies smaller than kRooflineCopyBytes (free memory was short), with `note` saying so; a reduced
    // roofline can read a little low or high against the full one.
    bool reduced = false;
    std::string note; // empty unless reduced or failed
    double bytes_per_s() const { return measured.error.empty() ? measured.gbytes_per_s * 1e9 : 0.0; }
    double gbytes_per_s() const { return measured.error.empty() ? measured.gbytes_per_s : 0.0; }
};

// `device`'s copy roofline (kRooflineCopyBytes x kRooflineRepeats, smaller by roofline_copy_bytes when
// free memory is short), measured on the first call for that device and kept for the process: every
// caller gets the same numbers. Thread-safe; a second caller waits while the first measures. Call it
// before a metrics collector attaches to the device, and never on the GUI thread (it allocates two buffers
// of up to 1 GiB and copies them 60 times).
const CopyRoofline& measure_copy_roofline(int device);

} // namespace ss
