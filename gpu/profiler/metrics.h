// SPDX-License-Identifier: MIT
// What the hardware-metrics view collects and says: Nsight Compute metric names with units and
// one-line explanations (tooltips, CSV column docs), warp-stall reasons, the plain-language reason
// when counters are unavailable, and the verdict naming the likely limiter. No CUPTI here: the
// collector (Range Profiler) fills a KernelMetrics by these names.
#pragma once

#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

struct MetricInfo {
    std::string_view name; // the Nsight Compute / CUPTI metric name
    std::string_view unit; // "byte", "ns", "%", "ratio", "byte/second"
    std::string_view label; // short, for a chart axis
    std::string_view explanation;
};

// The per-kernel metrics of the summary and time series, in display order.
const std::vector<MetricInfo>& kernel_metrics();

// Metrics the collector reads besides kernel_metrics() and the stall ratios: DRAM and local-memory rates
// for the CLI summary and the CSV. Not charted. Every metric costs replay passes: on the H100 the whole
// set takes 6; sm__throughput.avg.pct_of_peak_sustained_elapsed alone would add 8, so it is left out,
// and theoretical occupancy comes from the occupancy API (KernelResources), not from counters.
const std::vector<MetricInfo>& supporting_metrics();

// Warp-stall reasons: metric smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio.
struct StallReason {
    std::string_view reason; // e.g. "long_scoreboard"
    std::string_view label; // e.g. "Long scoreboard"
    std::string_view explanation;
};
const std::vector<StallReason>& stall_reasons();
std::string stall_metric_name(std::string_view reason);

// Values of one profiled launch, by metric name.
using KernelMetrics = std::map<std::string, double, std::less<>>;

// The reason warps stall on most, "selected" (issuing) not counted; reason is null when none was collected.
struct TopStall {
    const StallReason* reason = nullptr;
    double ratio = 0.0; // warp cycles stalled for it per issued instruction
    double share = 0.0; // of all stall ratios, 0..1
};
TopStall top_stall(const KernelMetrics&);

// One profiled piece of work from its per-kernel ranges: ".sum" metrics add up; every other metric
// (ratios, percentages, rates) is averaged weighted by each range's gpu__time_duration.sum, so a rate
// becomes total amount / total time. A plain mean when no range has a duration; a metric missing
// from some ranges is averaged over those that have it.
KernelMetrics aggregate_ranges(const std::vector<KernelMetrics>& ranges);

// The thesis' bottleneck throughputs (fig. 5.1c) in GB/s: bytes over gpu__time_duration.sum. DRAM writes
// (2D) and local memory, loads plus stores, as the verdict counts spills (3D). NaN when a counter or the
// duration is missing.
double dram_write_gbs(const KernelMetrics&);
double local_memory_gbs(const KernelMetrics&);

// A launch's DRAM traffic against the copy roofline, derived once for the figures (LaunchFigures) and the
// verdict alike, so both show the same numbers: bytes read and written (a missing counter counts 0) over
// gpu__time_duration.sum, and their share of the roofline capped at 100 (percent_of).
struct DramFigures {
    double read_gbs = 0.0, write_gbs = 0.0; // 0 without a duration
    double pct_of_roofline = std::numeric_limits<double>::quiet_NaN(); // NaN: roofline or duration unknown
    double gbs() const { return read_gbs + write_gbs; }
};
DramFigures dram_figures(const KernelMetrics&, double dram_peak_bytes_per_s);

// Why counters cannot be read, in plain words with what to do; `cupti_result` is CUPTI's enum value
// and name (e.g. 35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES").
std::string counters_unavailable_reason(int cupti_result, std::string_view cupti_name);

// Cache hit rates in percent, 0..100, from the raw sector counts (hits / (hits + misses)): a ratio of
// sums, so several kernels, GPUs or samples add up right. NVIDIA's own .pct metric divides the hits of
// one replay pass by the lookups of another; on a launch much shorter than ~20 µs (1024² R1 on the H100
// runs 5 µs) the passes disagree and it read 101.1 %. Without the raw counts the .pct is used when it is
// a share (0..100); NaN otherwise or when nothing was collected.
double l2_hit_percent(const KernelMetrics&);
double l1_hit_percent(const KernelMetrics&);

enum class Limiter { DramBandwidth, LocalMemorySpills, SharedMemory, LatencyOccupancy, Compute, Unknown };
std::string_view to_string(Limiter);

struct Verdict {
    Limiter limiter = Limiter::Unknown;
    std::string sentence; // names the limiter with the numbers that support it
    // The field's buffers fit in the GPU's L2 and DRAM ran below the bandwidth threshold: the sentence
    // starts "L2-resident" and names the limiter among the others (latency of L2 hits, compute...).
    bool l2_resident = false;
};

struct VerdictInputs {
    double dram_peak_bytes_per_s = 0.0; // the measured copy roofline (read + write)
    double ideal_bytes = 0.0; // ideal DRAM bytes of the launch (cells x ideal bytes per cell)
    double working_set_bytes = 0.0; // the field's buffers on the GPU(s); 0: unknown
    double l2_bytes = 0.0; // the L2 of the GPU(s) holding them; 0: unknown
    // The limiter shown so far for this kernel: its thresholds are eased a little (hysteresis), so a
    // figure hovering at a threshold does not flip the verdict from sample to sample.
    Limiter held = Limiter::Unknown;
};

// The teacher's one-liner: which resource limits this kernel, from its metrics.
Verdict diagnose(const KernelMetrics&, const VerdictInputs&);

// The verdict the panel shows for one kernel: diagnosed over the last few profiled launches together
// (sums add, ratios are weighted by duration, as aggregate_ranges does) with the shown limiter held
// (VerdictInputs::held). One profiled launch of a short kernel is noisy: single samples of the same
// 1024² configuration flipped between latency/occupancy and compute.
class VerdictSmoother {
public:
    static constexpr int kWindow = 5;
    void reset();
    // `in.ideal_bytes` is one launch's; the smoother scales it by the launches it combines.
    Verdict add(const KernelMetrics&, VerdictInputs in);
    int samples() const { return int(m_recent.size()); }

private:
    std::vector<KernelMetrics> m_recent; // oldest first, at most kWindow
    Limiter m_held = Limiter::Unknown;
};

} // namespace ss
