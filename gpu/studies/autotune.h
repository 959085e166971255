// SPDX-License-Identifier: MIT
// Block-dimension autotuning over the thesis' space (sec. 4.3.2): Bx, By, Bz powers of two,
// Bx >= By >= Bz, 32 <= Bx*By*Bz <= 1024, minus what the variant's launch rules refuse. The temporal
// variant searches its depth too: every block x depth of temporal_depths (odd and even) that the launch rules accept.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <functional>
#include <string>
#include <vector>

namespace ss {

class Simulation;

// The one way StencilScope times a configuration for comparison (autotune, experiments): one warm-up
// run, then `repeats` runs of `steps` steps from the current field; the median run's milliseconds per
// step. Synchronises; throws what the simulation throws.
double median_ms_per_step(Simulation&, int steps, int repeats);
// `steps` rounded up to whole launches of `config` (a multiple of the temporal depth), so that a timed run of
// the temporal variant runs its fused kernel only (a remainder would run the one-step kernel).
int whole_launch_steps(const StencilConfig& config, int steps);
// Updated cells per second, in billions, at `ms_per_step` (0 when it is not positive).
double gcells_per_s(const StencilConfig&, double ms_per_step);

// The blocks for `config` (its block fields are ignored), in a fixed order; for the temporal variant those valid
// at depth 1 (a deeper halo only narrows them).
std::vector<BlockDims> autotune_space(const StencilConfig& config, const DeviceInfo* device);

struct AutotuneCandidate {
    BlockDims block;
    int depth = 1; // the temporal variant's depth; the configuration's own (1) for every other variant
    bool operator==(const AutotuneCandidate&) const = default;
};
// What autotune() times, in order: the temporal variant every block of autotune_space at each depth of
// temporal_depths that its launch rules accept, block-major; every other variant its blocks at its depth.
std::vector<AutotuneCandidate> autotune_candidates(const StencilConfig& config, const DeviceInfo* device);

struct AutotuneResult {
    BlockDims block;
    double ms_per_step = 0.0; // median over the timed runs
    double gcells_per_s = 0.0;
    std::string error; // non-empty: the candidate could not run (it is skipped, not fatal)
    int depth = 1; // the temporal variant's depth the candidate ran at (1 for other variants)
};

// "32x8x1", or "256x1x1 depth 9" for a temporal candidate (progress lines, tables).
std::string describe_candidate(const StencilConfig& config, const AutotuneResult&);

// Times every candidate (autotune_candidates): `steps` steps per run, `repeats` timed runs after one warm-up, from
// `field`. `progress(done, total, last)` is called after each candidate; returning false cancels.
std::vector<AutotuneResult> autotune(const StencilConfig& config, const DeviceCatalogue& catalogue,
    const std::vector<double>& field, int steps, int repeats,
    const std::function<bool(int, int, const AutotuneResult&)>& progress = {});

} // namespace ss
