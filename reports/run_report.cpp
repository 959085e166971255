// SPDX-License-Identifier: MIT
#include "reports/run_report.h"

#include "gpu/io/timestamp.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"
#include "gpu/problem/stencil_catalog.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <thread>

namespace ss {
namespace {
void append(CsvRow& row, const CsvRow& more) {
    row.insert(row.end(), more.begin(), more.end());
}
} // namespace

double RunReport::median_ms_per_step() const {
    if (ms_per_step.empty()) return 0.0;
    std::vector<double> v = ms_per_step;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double RunReport::gcells_per_s() const {
    const double ms = median_ms_per_step();
    return gcells_per_second(double(updated_cells(options.config)), 1, ms);
}

int fused_launches(const StencilConfig& c, int steps) {
    const int fused = fused_steps(c.policy);
    steps = std::max(steps, 1);
    return steps / fused + steps % fused;
}

double ideal_bytes_per_step(const StencilConfig& c, int steps) {
    return double(ideal_bytes_per_cell(c)) * fused_launches(c, steps) / std::max(steps, 1);
}

double RunReport::gbytes_per_s() const {
    return gcells_per_s() * ideal_bytes_per_step(options.config, options.steps);
}

double RunReport::single_step_roofline_gcells_per_s() const {
    const int gpus = std::max(options.config.placement.gpus, 1);
    return copy_gbytes_per_s > 0 ? copy_gbytes_per_s * gpus / ideal_bytes_per_cell(options.config) : 0.0;
}

double RunReport::pct_of_roofline() const {
    return percent_of(gbytes_per_s(), copy_gbytes_per_s * std::max(options.config.placement.gpus, 1));
}

MultiGpuStats RunReport::median_strip_stats() const {
    if (strip_stats.empty()) return {};
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    };
    MultiGpuStats out = strip_stats.back();
    for (std::size_t i = 0; i < out.strips.size(); ++i) {
        std::vector<double> compute, exchange;
        for (const MultiGpuStats& run : strip_stats)
            if (i < run.strips.size())
                compute.push_back(run.strips[i].compute_ms), exchange.push_back(run.strips[i].exchange_ms);
        out.strips[i].compute_ms = median(compute);
        out.strips[i].exchange_ms = median(exchange);
    }
    return out;
}

namespace {
std::string device_range(const MultiGpuStats& m) {
    const int first = m.strips.front().device, last = m.strips.back().device;
    return first == last ? "GPU " + std::to_string(first)
                         : "GPUs " + std::to_string(first) + ".." + std::to_string(last);
}

std::string format_strips(const RunReport& r) {
    const MultiGpuStats m = r.median_strip_stats();
    if (m.strips.size() < 2) return "";
    char buf[256];
    std::snprintf(buf, sizeof buf, "strips   %zu on %s, ghost depth %d, halo %s, overlap %s\n", m.strips.size(),
        device_range(m).c_str(), m.ghost_depth, m.path_summary().c_str(), m.overlap ? "on" : "off");
    std::string out = buf;
    const bool remote = m.remote_bytes() > 0; // remote loads: the exchange is the wait for the neighbours' kernels
    for (std::size_t i = 0; i < m.strips.size(); ++i) {
        const StripStats& s = m.strips[i];
        std::snprintf(buf, sizeof buf,
            "  strip %zu GPU %d rows %d..%d: %.4f ms compute (%.1f GCells/s), %s %.4f ms %s %s\n", i, s.device,
            s.first_row, s.end_row - 1, s.compute_ms, s.gcells_per_s(), remote ? "waits" : "exchange", s.exchange_ms,
            remote ? "and loads" : "for", bytes_text(remote ? s.remote_bytes : s.halo_bytes).c_str());
        out += buf;
    }
    if (remote)
        std::snprintf(buf, sizeof buf,
            "remote   %s per step loaded by the kernels from the neighbours' buffers, nothing copied (computed from "
            "the geometry, not measured)\n",
            bytes_text(m.remote_bytes()).c_str());
    else
        std::snprintf(buf, sizeof buf,
            "halo     %s per step, slowest exchange %.4f ms: %s (sampled: last step of each run)\n",
            bytes_text(m.halo_bytes()).c_str(), m.max_exchange_ms(),
            transfer_rate_text(double(m.halo_bytes()), m.max_exchange_ms()).c_str());
    return out + buf;
}

double slowest_compute_ms(const MultiGpuStats& m) {
    double most = 0.0;
    for (const StripStats& s : m.strips) most = std::max(most, s.compute_ms);
    return most;
}
} // namespace

std::string format_number(double v) {
    if (std::isnan(v)) return "";
    char buf[64]; // std::to_chars: "%.6g" in the C locale, whatever the process's (CSV files are read anywhere)
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);
    return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string si_bytes_text(double bytes) {
    char buf[64];
    if (bytes >= 1e9)
        std::snprintf(buf, sizeof buf, "%.3f GB", bytes / 1e9);
    else if (bytes >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f MB", bytes / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    return buf;
}

std::string transfer_rate_text(double bytes, double milliseconds) {
    if (!(milliseconds > 0.0) || !std::isfinite(bytes)) return "n/a (too short to time)";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f GB/s", gbytes_per_second(bytes, milliseconds));
    return buf;
}

std::string timestamp_now() {
    return utc_timestamp();
}

std::string cpu_device_name() {
    return "CPU (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " threads)";
}

namespace {
// "kernel   NAME (label): why": the entry point to give `ncu -k regex:NAME`, or the CPU loop.
std::string kernel_line(const KernelChoice& k) {
    return k.label.empty() ? "" : "kernel   " + kernel_title(k) + ": " + kernel_reason(k) + "\n";
}
} // namespace

std::string format_report(const RunReport& r) {
    const StencilConfig& c = r.options.config;
    const KernelResources& k = r.resources;
    char buf[512];
    std::string out = "config   " + describe(c) + "\n";
    out += "device   " + r.device
        + (c.placement.backend == Backend::Cuda ? " (" + std::string(to_string(c.placement.backend)) + ")" : "") + "\n";
    out += kernel_line(k.kernel);
    if (!r.auto_reason.empty()) out += "chosen   " + r.auto_reason + "\n";
    if (!r.options.temporal_defaults.empty()) out += "defaults " + r.options.temporal_defaults + "\n";
    if (c.placement.backend == Backend::Cuda) {
        std::snprintf(buf, sizeof buf, "block    %s (%s), %d blocks\n", format_block(k.block).c_str(),
            c.policy.heuristic_block ? "heuristic" : "manual", k.grid_blocks);
        out += buf;
        std::snprintf(buf, sizeof buf,
            "uses     %d registers/thread, %d B spilled (local), %d B shared/block, occupancy %.0f%% (limited by "
            "%s)%s\n",
            k.registers, k.local_bytes, k.static_smem + k.dynamic_smem, 100.0 * k.theoretical_occupancy,
            k.occupancy_limiter.c_str(),
            k.from_cache ? ", kernel from cache"
                         : (", kernel built in " + format_number(k.compile_ms) + " ms").c_str());
        out += buf;
    }
    const double ms = r.median_ms_per_step();
    std::snprintf(buf, sizeof buf, "time     %.4f ms/step (%s of %zu run%s, %d steps each)\n", ms,
        r.ms_per_step.size() > 1 ? "median" : "one", r.ms_per_step.size(), r.ms_per_step.size() > 1 ? "s" : "",
        r.options.steps);
    out += buf;
    const int fused = fused_steps(c.policy), steps = std::max(r.options.steps, 1);
    if (fused > 1 && steps % fused == 0)
        std::snprintf(buf, sizeof buf,
            "rate     %.2f GCells/s, %.1f GB/s at the ideal %.2f B/cell per step (%d B per cell every %d fused "
            "steps)\n",
            r.gcells_per_s(), r.gbytes_per_s(), ideal_bytes_per_step(c, steps), ideal_bytes_per_cell(c), fused);
    else if (fused > 1) // the rate is of this mix, not of the fused kernel alone
        std::snprintf(buf, sizeof buf,
            "rate     %.2f GCells/s, %.1f GB/s at the ideal %.2f B/cell per step (%d B per cell and launch: %d "
            "launches of %d fused steps and %d single steps; a multiple of %d steps times the fused kernel alone)\n",
            r.gcells_per_s(), r.gbytes_per_s(), ideal_bytes_per_step(c, steps), ideal_bytes_per_cell(c), steps / fused,
            fused, steps % fused, fused);
    else
        std::snprintf(buf, sizeof buf, "rate     %.2f GCells/s, %.1f GB/s at the ideal %d B/cell\n", r.gcells_per_s(),
            r.gbytes_per_s(), ideal_bytes_per_cell(c));
    out += buf;
    out += format_strips(r);
    if (r.copy_gbytes_per_s > 0) {
        const int gpus = std::max(c.placement.gpus, 1);
        std::snprintf(buf, sizeof buf, "roofline %.1f GB/s device copy%s: %.1f%% reached\n", r.copy_gbytes_per_s,
            gpus > 1 ? (" x " + std::to_string(gpus) + " GPUs").c_str() : "", r.pct_of_roofline());
        out += buf;
        if (fused_steps(c.policy) > 1) { // what no single-step kernel can pass
            std::snprintf(buf, sizeof buf, "beyond   %.2f x the single-step bound (%.1f GCells/s at %d B/cell)\n",
                r.gcells_per_s() / r.single_step_roofline_gcells_per_s(), r.single_step_roofline_gcells_per_s(),
                ideal_bytes_per_cell(c));
            out += buf;
        }
    }
    if (r.verified) {
        std::snprintf(buf, sizeof buf, "verify   relative L2 error %.2e vs the fp64 CPU reference (limit %.0e): %s\n",
            r.rel_l2_error, r.tolerance(), r.passed() ? "PASS" : "FAIL");
        out += buf;
    }
    return out;
}

CsvRow config_csv_header() {
    return { "backend", "stencil", "rule", "dims", "nx", "ny", "nz", "radius", "variant", "cf", "block_x", "block_y",
        "block_z", "heuristic_block", "gpus", "precision" };
}

namespace {

// The CPU loop launches no block and has no registers or occupancy: its fields stay empty rather than a
// fictitious block 0x0x0 with 0 registers.
bool launched_a_kernel(const KernelResources& k) {
    return k.block.x > 0;
}

std::string kernel_count(const KernelResources& k, int value) {
    return launched_a_kernel(k) ? std::to_string(value) : std::string();
}

} // namespace

CsvRow config_csv_values(const StencilConfig& c, const KernelResources& k) {
    return { std::string(to_string(c.placement.backend)), std::string(to_string(c.problem.stencil)),
        std::string(to_string(c.problem.rule)), std::to_string(c.problem.dims), std::to_string(c.problem.size.nx),
        std::to_string(c.problem.size.ny), std::to_string(c.problem.size.nz), std::to_string(c.problem.radius),
        std::string(to_string(c.policy.variant)), std::to_string(c.policy.cf), kernel_count(k, k.block.x),
        kernel_count(k, k.block.y), kernel_count(k, k.block.z), c.policy.heuristic_block ? "1" : "0",
        std::to_string(c.placement.gpus), std::string(to_string(c.problem.precision)) };
}

CsvRow resources_csv_header() {
    return { "registers", "local_bytes", "smem_bytes", "theoretical_occupancy", "occupancy_limiter" };
}

CsvRow resources_csv_values(const KernelResources& k) {
    if (!launched_a_kernel(k)) return { "", "", "", "", "" };
    return { std::to_string(k.registers), std::to_string(k.local_bytes), std::to_string(k.static_smem + k.dynamic_smem),
        format_number(k.theoretical_occupancy), k.occupancy_limiter };
}

CsvRow report_csv_header() {
    CsvRow h { "timestamp", "command", "device" };
    append(h, config_csv_header());
    append(h,
        { "steps", "timed_runs", "ms_per_step", "gcells_per_s", "gbytes_per_s", "ideal_bytes_per_cell",
            "copy_gbytes_per_s", "pct_of_roofline" });
    append(h, resources_csv_header());
    append(h, { "compile_ms", "rel_l2_error", "verified" });
    // multi-GPU columns, added at the end so that older files keep their prefix
    append(h,
        { "overlap", "halo_path", "halo_bytes_per_step", "exchange_ms_per_step", "halo_gbytes_per_s",
            "slowest_gpu_ms_per_step" });
    append(h, { "depth" }); // added last, like the multi-GPU columns
    append(h, { "kernel" }); // the entry point that ran (kernel_choice.h), empty on the CPU; added last as well
    append(h, { "stencil_name", "stencil_points" }); // issue 34: which stencil; added last as well
    append(h, { "chosen_by", "chosen_why" }); // issue 35: --variant auto chose the kernel; added last as well
    return h;
}

CsvRow report_csv_row(const RunReport& r) {
    const StencilConfig& c = r.options.config;
    const KernelResources& k = r.resources;
    const double pct = r.pct_of_roofline();
    const MultiGpuStats m = r.median_strip_stats();
    const bool split = m.strips.size() > 1;
    const bool overlapped = c.placement.overlap && c.placement.halo != HaloMode::Remote; // remote: nothing copied
    CsvRow row { timestamp_now(), r.command, r.device };
    append(row, config_csv_values(c, k));
    append(row,
        { std::to_string(r.options.steps), std::to_string(r.ms_per_step.size()), format_number(r.median_ms_per_step()),
            format_number(r.gcells_per_s()), format_number(r.gbytes_per_s()),
            format_number(ideal_bytes_per_step(c, r.options.steps)),
            r.copy_gbytes_per_s > 0 ? format_number(r.copy_gbytes_per_s) : "", format_number(pct) });
    append(row, resources_csv_values(k));
    append(row,
        { format_number(k.compile_ms), format_number(r.rel_l2_error),
            r.verified ? (r.passed() ? "pass" : "fail") : "" });
    append(row,
        { split ? (overlapped ? "on" : "off") : "", split ? m.path_summary() : "",
            split ? std::to_string(m.halo_bytes()) : "", split ? format_number(m.max_exchange_ms()) : "",
            split ? format_number(m.halo_gbytes_per_s()) : "", split ? format_number(slowest_compute_ms(m)) : "" });
    append(row, { std::to_string(fused_steps(c.policy)) });
    append(row, { k.kernel.entry });
    append(row, { stencil_name(c.problem), std::to_string(stencil_points(c.problem)) });
    append(row, { r.auto_reason.empty() ? "" : "auto", r.auto_reason });
    return row;
}

} // namespace ss
