// SPDX-License-Identifier: MIT
// Block-dimension autotuning over the thesis' space (sec. 4.3.2): Bx, By, Bz powers of two,
// Bx >= By >= Bz, 32 <= Bx*By*Bz <= 1024, minus what the variant's launch rules refuse.
#pragma once

#include "gpu/config.h"
#include "gpu/device.h"

#include <functional>
#include <string>
#include <vector>

namespace ss {

class Simulation;

// The one way StencilScope times a configuration for comparison (autotune, experiments): one warm-up
// run, then `repeats` runs of `steps` steps from the current field; the median run's milliseconds per
// step. Synchronises; throws what the simulation throws.
double median_ms_per_step(Simulation&, int steps, int repeats);
// Updated cells per second, in billions, at `ms_per_step` (0 when it is not positive).
double gcells_per_s(const StencilConfig&, double ms_per_step);

// The candidates for `config` (its block fields are ignored), in a fixed order.
std::vector<BlockDims> autotune_space(const StencilConfig& config, const DeviceInfo* device);

struct AutotuneResult {
    BlockDims block;
    double ms_per_step = 0.0; // median over the timed runs
    double gcells_per_s = 0.0;
    std::string error; // non-empty: the candidate could not run (it is skipped, not fatal)
};

// Times every candidate: `steps` steps per run, `repeats` timed runs after one warm-up, from `field`.
// `progress(done, total, last)` is called after each candidate; returning false cancels.
std::vector<AutotuneResult> autotune(const StencilConfig& config, const DeviceCatalogue& catalogue,
    const std::vector<double>& field, int steps, int repeats,
    const std::function<bool(int, int, const AutotuneResult&)>& progress = {});

} // namespace ss
