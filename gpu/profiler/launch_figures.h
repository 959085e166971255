// SPDX-License-Identifier: MIT
// The figures of one profiled launch, derived from its counters: GCells/s, DRAM bytes per cell and step against the
// ideal, DRAM and local-memory rates, the share of the copy roofline, cache hit rates and the verdict. The CLI's
// profile report, the metrics panel and its charts, the metrics CSV (CLI and GUI) and the scripted runs read these
// from a LaunchFigures. Rates here are over the kernels' own gpu__time_duration; the rates of timed runs (bench,
// autotune, sweeps: CUDA events) are computed from their times elsewhere (reports/run_report.cpp,
// gpu/studies/autotune.cpp), and the verdict (gpu/profiler/metrics.cpp) forms its own DRAM rate.
#pragma once

#include "gpu/profiler/metrics.h"

#include <cstdint>
#include <limits>

namespace ss {

// What one profiled launch computed: a temporal launch advances `steps` (fused_steps) steps of `cells`
// cells, and moves each cell through DRAM once for all of them.
struct LaunchWork {
    std::int64_t cells = 0; // the updated cells of one step that the counters cover
    int steps = 1; // steps the launch advances: fused_steps(policy) for one launch
    double ideal_bytes_per_cell = 0.0; // of the launch: each cell read once and written once (ideal_bytes_per_cell)
};

struct LaunchFigures {
    std::int64_t cells = 0; // the updated cells of one step that the counters cover
    int steps = 1; // steps the launch advances (the temporal variant's depth, else 1)
    double duration_ms = 0.0; // gpu__time_duration.sum of the launch's kernels
    double gcells_per_second = 0.0; // cell updates (cells x steps) over that duration
    double dram_read_bytes = 0.0, dram_write_bytes = 0.0; // NaN when not collected
    double dram_read_gbs = 0.0, dram_write_gbs = 0.0; // GB/s over the duration
    double local_load_gbs = 0.0, local_store_gbs = 0.0;
    // Read + written per updated cell and step (a fused launch's bytes over cells x steps: about 8/t in fp32);
    // NaN when not collected.
    double dram_bytes_per_cell = 0.0;
    // Per cell and step at best: each cell read once and written once per launch (the wave: its previous field
    // too), shared by the launch's steps.
    double ideal_bytes_per_cell = 0.0;
    double dram_peak_gbs = 0.0; // the measured copy roofline (read + write); 0 when unknown
    // Read + write rate as a share of that roofline, 0..100 (a kernel can beat a measured copy by a hair:
    // the share is capped, the rate itself is not); NaN when the roofline or the duration is unknown.
    double dram_pct_of_roofline = 0.0;
    double dram_vs_ideal = 0.0; // DRAM bytes over the ideal bytes
    // 0..100 (l2_hit_percent); NaN when not measurable
    double l2_hit_pct = std::numeric_limits<double>::quiet_NaN(), l1_hit_pct = std::numeric_limits<double>::quiet_NaN();
    double working_set_bytes = 0.0, l2_bytes = 0.0; // what the verdict was told (CacheFit)
    Verdict verdict;

    double dram_gbs() const { return dram_read_gbs + dram_write_gbs; }
    // The ideal DRAM bytes of the whole launch (the verdict's VerdictInputs::ideal_bytes).
    double ideal_launch_bytes() const { return double(cells) * steps * ideal_bytes_per_cell; }
};

// Whether the field fits in L2 (the verdict's VerdictInputs::working_set_bytes, l2_bytes); zeros: unknown.
struct CacheFit {
    double working_set_bytes = 0.0, l2_bytes = 0.0;
};

// From one launch's counters (a split run: combine_devices first), what the launch computed and the copy
// roofline in bytes/s (0 when not measured).
LaunchFigures derive_launch_figures(
    const KernelMetrics&, const LaunchWork&, double dram_peak_bytes_per_s, const CacheFit& = {});

} // namespace ss
