// SPDX-License-Identifier: MIT
// What the metrics panel tests share: synthetic profiled launches (one GPU, or a run split over two) and
// lookups of the panel's parts by object name.
#pragma once
#include "session/metrics_sampler.h"
#include "session/session.h"

#include <QTest>
#include <QWidget>

#include <string>
#include <vector>

namespace ss::gui::test {

inline MetricsSample synthetic(double seconds, double long_scoreboard, double barrier) {
    MetricsSample s;
    s.seconds = seconds;
    s.settings.config.problem.size = { 4096, 4096, 1 };
    s.device_name = "test GPU";
    s.launch.passes = 7;
    s.launch.kernels = 1;
    s.launch.wall_ms = 12.0;
    s.launch.metrics = { { "gpu__time_duration.sum", 1.0e6 }, { "dram__bytes_read.sum", 64.0e6 },
        { "dram__bytes_write.sum", 64.0e6 }, { "lts__t_sector_hit_rate.pct", 42.5 },
        { stall_metric_name("long_scoreboard"), long_scoreboard }, { stall_metric_name("barrier"), barrier },
        { stall_metric_name("wait"), 0.5 } };
    s.figures.duration_ms = 1.0;
    s.figures.gcells_per_second = 16.7;
    s.figures.dram_read_gbs = 64.0;
    s.figures.dram_write_gbs = 64.0;
    s.figures.dram_peak_gbs = 3000.0;
    s.figures.verdict = { Limiter::LatencyOccupancy, "latency/occupancy: test" };
    s.figures.l2_hit_pct = l2_hit_percent(s.launch.metrics);
    s.figures.l1_hit_pct = l1_hit_percent(s.launch.metrics);
    return s;
}

// A 1026 x 1026 radius-1 run split over GPUs 0 and 1 (512 rows of 1024 cells each, 4 B per cell each way):
// GPU 0 moves its ideal bytes in 1 ms and stalls on memory, GPU 1 in 2 ms and stalls at barriers.
// With `hook`, both strips run on GPU 0 (the testing hook) and one GPU's counters cover them.
inline MetricsSample split_sample(double seconds, bool hook = false) {
    MetricsSample s;
    s.seconds = seconds;
    StencilConfig& c = s.settings.config;
    c.problem.size = { 1026, 1026, 1 };
    c.placement.gpus = hook ? 1 : 2;
    c.placement.strips_per_device = hook ? 2 : 1;
    s.device_name = "test GPU";
    std::vector<MetricsSampler::GpuCounters> gpus;
    for (const DeviceShare& share : device_shares(c)) {
        MetricsSampler::GpuCounters& g = gpus.emplace_back();
        g.share = share;
        g.device_name = "test GPU";
        g.peak_bytes_per_s = 10e9;
        const bool first = share.device == 0;
        const double bytes = 4.0 * double(share.updated_cells);
        g.launch.kernels = 3;
        g.launch.passes = 6;
        g.launch.metrics = { { "gpu__time_duration.sum", first ? 1.0e6 : 2.0e6 }, { "dram__bytes_read.sum", bytes },
            { "dram__bytes_write.sum", bytes }, { "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", 0.0 },
            { stall_metric_name("long_scoreboard"), first ? 4.0 : 1.0 },
            { stall_metric_name("barrier"), first ? 1.0 : 3.0 } };
    }
    MetricsSampler::derive(c, gpus, s);
    return s;
}

// The engine's statistics of a run split into strips on `devices` (one strip each, 513 rows), copies with overlap.
inline EngineStats strip_stats(const std::vector<int>& devices) {
    EngineStats stats;
    stats.ms_per_step = 1.0;
    stats.strips.timed = true;
    stats.strips.overlap = true;
    const int n = int(devices.size());
    for (int i = 0; i < n; ++i) {
        StripStats s;
        s.device = devices[std::size_t(i)], s.first_row = i * 513, s.end_row = (i + 1) * 513;
        s.updated_cells = 524288, s.compute_ms = 0.5, s.exchange_ms = 0.01, s.halo_bytes = 4096;
        const bool same = n > 1 && devices.front() == devices.back();
        const HaloPath path = same ? HaloPath::SameDevice : HaloPath::PeerToPeer;
        s.below = i > 0 ? path : HaloPath::None, s.above = i + 1 < n ? path : HaloPath::None;
        stats.strips.strips.push_back(s);
    }
    return stats;
}

template <typename W> W* child(QWidget& w, const char* name) {
    W* found = w.findChild<W*>(QLatin1String(name));
    if (!found) qFatal("no child named %s", name);
    return found;
}

// The continuous sampler's metrics (PM sampling) in the order the chunks below carry them.
inline const std::vector<std::string>& continuous_metrics() {
    static const std::vector<std::string> names
        = { "dram__bytes_read.sum", "dram__bytes_write.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
              "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum" };
    return names;
}

// GPU `device`'s continuous chunk: `n` back-to-back 1 ms samples from `t0` seconds, each with `values` (in the order
// of continuous_metrics()).
inline ContinuousChunk continuous_samples(
    int device, double t0, int n, const std::vector<double>& values, std::uint64_t generation = 0) {
    ContinuousChunk c;
    c.generation = generation;
    c.interval_ms = 1.0;
    c.chunk.metrics = continuous_metrics();
    c.chunk.device = device;
    c.device_name = "test GPU";
    for (int i = 0; i < n; ++i) {
        const std::uint64_t start = std::uint64_t((t0 + i * 1e-3) * 1e9);
        c.chunk.samples.push_back({ start, start + 1'000'000, values });
        c.seconds.push_back(t0 + (i + 1) * 1e-3);
    }
    return c;
}

} // namespace ss::gui::test
