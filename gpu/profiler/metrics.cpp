// SPDX-License-Identifier: MIT
#include "gpu/profiler/metrics.h"

#include "gpu/problem/rates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ss {

const std::vector<MetricInfo>& kernel_metrics() {
    static const std::vector<MetricInfo> metrics = {
        { "gpu__time_duration.sum", "ns", "Duration", "Time the kernel ran on the GPU." },
        { "dram__bytes_read.sum", "byte", "DRAM read", "Bytes read from device memory (HBM)." },
        { "dram__bytes_write.sum", "byte", "DRAM write",
            "Bytes written to device memory. The thesis found DRAM write throughput tracks 2D performance." },
        { "dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", "DRAM throughput",
            "Device-memory traffic as a share of its peak: near 100 % the kernel is bandwidth bound." },
        { "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", "byte", "Local loads",
            "Bytes loaded from local memory: registers spilled by the compiler (the thesis' 3D bottleneck)." },
        { "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", "byte", "Local stores",
            "Bytes stored to local memory: register spills. Fewer registers per thread or a smaller radius/CF avoids "
            "them." },
        { "lts__t_sector_hit_rate.pct", "%", "L2 hit rate",
            "Share of L2 sector requests served without going to DRAM." },
        { "l1tex__t_sector_hit_rate.pct", "%", "L1 hit rate",
            "Share of L1 sector requests that hit: neighbour reuse in L1." },
        { "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "wavefront", "Shared-memory wavefronts",
            "Shared-memory accesses issued; bank conflicts show as more wavefronts per request." },
        { "sm__warps_active.avg.pct_of_peak_sustained_active", "%", "Achieved occupancy",
            "Active warps per SM as a share of the maximum, averaged while the SM was busy." },
    };
    return metrics;
}

const std::vector<MetricInfo>& supporting_metrics() {
    static const std::vector<MetricInfo> metrics = {
        { "dram__bytes_read.sum.per_second", "byte/second", "DRAM read rate",
            "Bytes read from device memory per second." },
        { "dram__bytes_write.sum.per_second", "byte/second", "DRAM write rate",
            "Bytes written to device memory per second." },
        { "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum.per_second", "byte/second", "Local load rate",
            "Local-memory (spill) bytes loaded per second." },
        { "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum.per_second", "byte/second", "Local store rate",
            "Local-memory (spill) bytes stored per second." },
        // The raw counts behind the hit rates (l2_hit_percent): the .pct metrics are derived from these very
        // counters, so asking for them adds no replay pass.
        { "lts__t_sectors_lookup_hit.sum", "sector", "L2 hits", "L2 sector lookups that hit." },
        { "lts__t_sectors_lookup_miss.sum", "sector", "L2 misses", "L2 sector lookups that missed." },
        { "l1tex__t_sectors_lookup_hit.sum", "sector", "L1 hits", "L1 sector lookups that hit." },
        { "l1tex__t_sectors_lookup_miss.sum", "sector", "L1 misses", "L1 sector lookups that missed." },
    };
    return metrics;
}

const std::vector<StallReason>& stall_reasons() {
    static const std::vector<StallReason> reasons = {
        { "long_scoreboard", "Long scoreboard",
            "Waiting for a global- or local-memory load (L1TEX): memory latency not hidden by other warps." },
        { "short_scoreboard", "Short scoreboard", "Waiting for shared memory or a special-function result (MIO)." },
        { "mio_throttle", "MIO throttle",
            "The memory-input/output queue is full: too many shared-memory or special instructions." },
        { "lg_throttle", "LG throttle",
            "The local/global memory queue is full: many small loads/stores (spills, uncoalesced access)." },
        { "barrier", "Barrier", "Waiting at __syncthreads for the other warps of the block (shared-memory kernels)." },
        { "membar", "Memory barrier", "Waiting for a memory fence to complete." },
        { "math_pipe_throttle", "Math pipe throttle",
            "The arithmetic pipe is busy: the kernel is compute bound there." },
        { "wait", "Wait", "A fixed-latency dependency between instructions." },
        { "not_selected", "Not selected", "Ready but another warp was issued: plenty of parallelism." },
        { "selected", "Selected", "Issued an instruction (not a stall)." },
        { "dispatch_stall", "Dispatch stall", "The dispatcher could not issue the selected instruction." },
        { "drain", "Drain", "Waiting for memory stores to drain at the end of the kernel." },
        { "imc_miss", "IMC miss", "Waiting for a constant-cache miss." },
        { "branch_resolving", "Branch resolving", "Waiting for a branch target to be computed." },
        { "no_instruction", "No instruction", "Waiting for instructions (instruction-cache miss)." },
        { "sleeping", "Sleeping", "The warp is sleeping (nanosleep or yield)." },
        { "tex_throttle", "TEX throttle", "The texture queue is full." },
        { "misc", "Misc", "Other reasons." },
    };
    return reasons;
}

std::string stall_metric_name(std::string_view reason) {
    return "smsp__average_warps_issue_stalled_" + std::string(reason) + "_per_issue_active.ratio";
}

TopStall top_stall(const KernelMetrics& m) {
    TopStall top;
    double total = 0.0;
    for (const StallReason& r : stall_reasons()) {
        if (r.reason == "selected") continue;
        const auto it = m.find(stall_metric_name(r.reason));
        if (it == m.end()) continue;
        total += it->second;
        if (!top.reason || it->second > top.ratio) top.reason = &r, top.ratio = it->second;
    }
    top.share = total > 0.0 ? top.ratio / total : 0.0;
    return top;
}

KernelMetrics aggregate_ranges(const std::vector<KernelMetrics>& ranges) {
    constexpr std::string_view kDuration = "gpu__time_duration.sum", kSum = ".sum";
    bool timed = false;
    for (const auto& r : ranges) {
        const auto it = r.find(kDuration);
        timed = timed || (it != r.end() && it->second > 0.0);
    }
    struct Accumulator {
        double total = 0.0, weight = 0.0;
        bool adds = false;
    };
    std::map<std::string, Accumulator, std::less<>> acc;
    for (const auto& r : ranges) {
        const auto d = r.find(kDuration);
        const double weight = timed ? (d == r.end() ? 0.0 : d->second) : 1.0;
        for (const auto& [name, v] : r) {
            Accumulator& a = acc[name];
            a.adds = name.size() >= kSum.size() && name.compare(name.size() - kSum.size(), kSum.size(), kSum) == 0;
            a.total += a.adds ? v : v * weight;
            a.weight += weight;
        }
    }
    KernelMetrics out;
    for (const auto& [name, a] : acc)
        if (a.adds || a.weight > 0.0) out[name] = a.adds ? a.total : a.total / a.weight;
    return out;
}

namespace {
double gbytes_per_s(const KernelMetrics& m, double bytes) {
    const auto ns = m.find("gpu__time_duration.sum");
    if (ns == m.end() || !(ns->second > 0.0)) return std::nan("");
    return gbytes_per_second(bytes, ns->second * 1e-6);
}
double counter(const KernelMetrics& m, std::string_view name) {
    const auto it = m.find(name);
    return it == m.end() ? std::nan("") : it->second;
}
double value_or_zero(const KernelMetrics& m, std::string_view name) {
    const double v = counter(m, name);
    return std::isnan(v) ? 0.0 : v;
}
} // namespace

double dram_write_gbs(const KernelMetrics& m) {
    return gbytes_per_s(m, counter(m, "dram__bytes_write.sum"));
}

double local_memory_gbs(const KernelMetrics& m) {
    return gbytes_per_s(m,
        counter(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")
            + counter(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum"));
}

DramFigures dram_figures(const KernelMetrics& m, double dram_peak_bytes_per_s) {
    DramFigures d;
    const double ns = value_or_zero(m, "gpu__time_duration.sum");
    if (!(ns > 0.0)) return d;
    const double ms = ns * 1e-6;
    d.read_gbs = gbytes_per_second(value_or_zero(m, "dram__bytes_read.sum"), ms);
    d.write_gbs = gbytes_per_second(value_or_zero(m, "dram__bytes_write.sum"), ms);
    d.pct_of_roofline = percent_of(d.gbs(), dram_peak_bytes_per_s / 1e9);
    return d;
}

namespace {
double hit_percent(const KernelMetrics& m, std::string_view hits, std::string_view misses, std::string_view pct) {
    const double hit = counter(m, hits), miss = counter(m, misses);
    if (hit >= 0.0 && miss >= 0.0 && hit + miss > 0.0) return 100.0 * hit / (hit + miss);
    const double given = counter(m, pct);
    return given >= 0.0 && given <= 100.0 ? given : std::nan("");
}
} // namespace

double l2_hit_percent(const KernelMetrics& m) {
    return hit_percent(
        m, "lts__t_sectors_lookup_hit.sum", "lts__t_sectors_lookup_miss.sum", "lts__t_sector_hit_rate.pct");
}

double l1_hit_percent(const KernelMetrics& m) {
    return hit_percent(
        m, "l1tex__t_sectors_lookup_hit.sum", "l1tex__t_sectors_lookup_miss.sum", "l1tex__t_sector_hit_rate.pct");
}

std::string counters_unavailable_reason(int cupti_result, std::string_view cupti_name) {
    if (cupti_name == "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")
        return "GPU performance counters are restricted to administrators on this machine. Run StencilScope as "
               "root, or allow them for everyone: add 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' to "
               "/etc/modprobe.d/ and reboot. Timing-based figures stay available.";
    if (cupti_name == "CUPTI_ERROR_NOT_SUPPORTED" || cupti_name == "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED")
        return "This GPU does not support the CUPTI profiling API that StencilScope uses (Volta or newer is needed). "
               "Timing-based figures stay available.";
    if (cupti_name == "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED")
        return "Another profiler (Nsight Compute or Nsight Systems) holds the GPU's counters. Close it, or turn off "
               "StencilScope's metrics while it runs.";
    char buf[64];
    std::snprintf(buf, sizeof buf, " (%d)", cupti_result);
    return "GPU counters could not be read: " + std::string(cupti_name) + buf
        + ". Timing-based figures stay available.";
}

std::string_view to_string(Limiter l) {
    switch (l) {
    case Limiter::DramBandwidth:
        return "DRAM bandwidth";
    case Limiter::LocalMemorySpills:
        return "local-memory spills";
    case Limiter::SharedMemory:
        return "shared memory";
    case Limiter::LatencyOccupancy:
        return "latency/occupancy";
    case Limiter::Compute:
        return "compute";
    case Limiter::Unknown:
        break;
    }
    return "unknown";
}

namespace {
double value(const KernelMetrics& m, std::string_view name, double fallback = 0.0) {
    const auto it = m.find(name);
    return it == m.end() ? fallback : it->second;
}
} // namespace

namespace {
// How much a held limiter's threshold is eased (hysteresis): in shares of the stalls or of DRAM peak.
constexpr double kHoldShare = 0.07, kHoldDramPct = 7.0;

double threshold(double base, double ease, Limiter which, const VerdictInputs& in) {
    return in.held == which ? base - ease : base;
}

std::string mib_text(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, bytes >= 10.0 * (1 << 20) ? "%.0f MiB" : "%.1f MiB", bytes / double(1 << 20));
    return buf;
}
} // namespace

Verdict diagnose(const KernelMetrics& m, const VerdictInputs& in) {
    char buf[256];
    const double ns = value(m, "gpu__time_duration.sum");
    const double read = value(m, "dram__bytes_read.sum"), write = value(m, "dram__bytes_write.sum");
    const double local = value(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")
        + value(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum");
    if (ns <= 0.0) return { Limiter::Unknown, "no duration measured" };
    // The figures' own DRAM rate and capped share (dram_figures): the verdict never says more than 100 %.
    const DramFigures dram = dram_figures(m, in.dram_peak_bytes_per_s);
    const double dram_pct = std::isnan(dram.pct_of_roofline) ? 0.0 : dram.pct_of_roofline;
    const double occupancy = value(m, "sm__warps_active.avg.pct_of_peak_sustained_active", -1.0);
    // The dominant stall reason (not counting "selected", which is issuing).
    std::string_view top;
    double top_ratio = 0.0, total = 0.0;
    for (const auto& r : stall_reasons()) {
        if (r.reason == "selected") continue;
        const double v = value(m, stall_metric_name(r.reason));
        total += v;
        if (v > top_ratio) top_ratio = v, top = r.label;
    }
    const double top_share = total > 0 ? 100.0 * top_ratio / total : 0.0;

    if (local > 0 && local > threshold(0.1, 0.02, Limiter::LocalMemorySpills, in) * (read + write)) {
        std::snprintf(buf, sizeof buf,
            "local-memory spills: %.2f GB of local traffic, %.0f%% of the DRAM traffic; registers spilled", local / 1e9,
            100.0 * local / std::max(read + write, 1.0));
        return { Limiter::LocalMemorySpills, buf };
    }
    const bool dram_bound = dram_pct >= threshold(70.0, kHoldDramPct, Limiter::DramBandwidth, in);
    const bool fits_l2 = in.working_set_bytes > 0 && in.l2_bytes > 0 && in.working_set_bytes <= in.l2_bytes;
    if (dram_bound) {
        std::snprintf(buf, sizeof buf,
            "DRAM bandwidth: %.0f GB/s, %.0f%% of the measured peak; %.2fx the ideal bytes%s", dram.gbs(), dram_pct,
            in.ideal_bytes > 0 ? (read + write) / in.ideal_bytes : 0.0,
            fits_l2 ? ", although the field would fit in L2" : "");
        return { Limiter::DramBandwidth, buf };
    }
    // Which of the rest limits; an L2-resident field says first that DRAM is out of the picture.
    const std::string prefix = fits_l2 ? "L2-resident: the " + mib_text(in.working_set_bytes) + " field fits in the "
            + mib_text(in.l2_bytes) + " L2, so DRAM is not the limit; "
                                       : std::string();
    const auto verdict = [&](Limiter l) { return Verdict { l, prefix + buf, fits_l2 }; };
    const double mio = value(m, stall_metric_name("mio_throttle")) + value(m, stall_metric_name("short_scoreboard"))
        + value(m, stall_metric_name("barrier"));
    if (total > 0 && mio / total >= threshold(0.4, kHoldShare, Limiter::SharedMemory, in)) {
        std::snprintf(buf, sizeof buf,
            "shared memory: MIO throttle, short scoreboard and barrier make %.0f%% of the stalls; DRAM at %.0f%% of "
            "peak",
            100.0 * mio / total, dram_pct);
        return verdict(Limiter::SharedMemory);
    }
    const double long_sb = value(m, stall_metric_name("long_scoreboard"));
    if (total > 0 && long_sb / total >= threshold(0.4, kHoldShare, Limiter::LatencyOccupancy, in)) {
        std::snprintf(buf, sizeof buf,
            "latency/occupancy: %.0f%% of the stalls wait on memory (long scoreboard) at %.0f%% achieved occupancy; "
            "DRAM at %.0f%% of peak",
            100.0 * long_sb / total, occupancy, dram_pct);
        return verdict(Limiter::LatencyOccupancy);
    }
    std::snprintf(buf, sizeof buf, "compute: DRAM at %.0f%% of peak, the top stall is %s (%.0f%%)", dram_pct,
        top.empty() ? "none" : std::string(top).c_str(), top_share);
    return verdict(Limiter::Compute);
}

void VerdictSmoother::reset() {
    m_recent.clear();
    m_held = Limiter::Unknown;
}

Verdict VerdictSmoother::add(const KernelMetrics& m, VerdictInputs in) {
    m_recent.push_back(m);
    if (int(m_recent.size()) > kWindow) m_recent.erase(m_recent.begin());
    in.ideal_bytes *= double(m_recent.size()); // the combined launches' sums
    in.held = m_held;
    Verdict v = diagnose(aggregate_ranges(m_recent), in);
    if (v.limiter != Limiter::Unknown) m_held = v.limiter;
    return v;
}

} // namespace ss
