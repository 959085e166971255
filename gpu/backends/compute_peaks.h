// SPDX-License-Identifier: MIT
// The roofline's other measured ceilings beside the copy roofline (bandwidth.h): the L2's bandwidth and the fp32 and
// fp64 FMA peaks, measured in process with kernels of our own.
#pragma once

#include <cstdint>
#include <string>

namespace ss {

struct ComputePeaks {
    double l2_bytes_per_s = 0.0; // read + write bytes per second of a copy that stays in the L2 (best of the repeats)
    std::int64_t l2_buffer_bytes = 0; // per buffer of that copy (two buffers: together about a quarter of the L2)
    int l2_passes = 0; // copies of the buffer per timed launch
    double fp32_flops_per_s = 0.0, fp64_flops_per_s = 0.0; // an FMA counts 2 (best of the repeats)
    int repeats = 0; // timed launches of each kernel, best kept
    std::string error; // non-empty when the measurement could not run
};

// `device`'s peaks, measured on the first call for that device and kept for the process (like
// measure_copy_roofline). Waits first for the work already queued on the device, so the timings are the
// measurement's alone. Thread-safe; never call it on the GUI thread (it runs for a few hundred milliseconds).
const ComputePeaks& measure_compute_peaks(int device);

} // namespace ss
