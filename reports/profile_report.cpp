// SPDX-License-Identifier: MIT
#include "reports/profile_report.h"

#include "gpu/problem/physics.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/profiler/profile_procedure.h"
#include "reports/run_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace ss {
namespace {

// Counter values keep 15 significant digits: byte counts of a large field would lose their last
// digits with format_number's 6.
std::string format_metric(double v) {
    if (std::isnan(v)) return "";
    char buf[64]; // std::to_chars: locale-independent, as format_number
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 15);
    return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string bytes_text(double bytes) {
    return si_bytes_text(bytes);
}

std::string pct_text(double pct) {
    if (std::isnan(pct)) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", pct);
    return buf;
}

} // namespace

double ideal_launch_bytes(const StencilConfig& c) {
    return double(updated_cells(c)) * ideal_bytes_per_cell(c);
}

double ProfileReport::metric(std::string_view name) const {
    const auto it = profiled.metrics.find(name);
    return it == profiled.metrics.end() ? std::nan("") : it->second;
}

LaunchFigures ProfileReport::figures() const {
    return profiled_figures(options.config, cells(), profiled.metrics, verdict);
}

std::int64_t ProfileReport::cells() const {
    return gpu.updated_cells > 0 ? gpu.updated_cells : updated_cells(options.config);
}

std::string format_profile(const ProfileReport& r) {
    const StencilConfig& c = r.options.config;
    const LaunchFigures f = r.figures();
    const double updates = double(f.cells) * f.steps; // per cell and step: a fused launch moves a cell once
    const double es = element_size(c.problem.precision);
    const double read = f.dram_read_bytes, write = f.dram_write_bytes;
    const double ms = f.duration_ms;
    char buf[512];
    std::string out;
    std::snprintf(buf, sizeof buf, "launch %d (step %lld)", r.launch, r.iteration);
    out += buf;
    if (strip_count(c.placement) > 1) {
        std::snprintf(buf, sizeof buf, " on GPU %d (%s, rows %d-%d along %s", r.gpu.device, r.device.c_str(),
            r.gpu.first_row, r.gpu.end_row - 1,
            c.problem.dims == 3 || c.problem.stencil == StencilKind::Diffusion4 ? "z" : "y");
        out += buf;
        if (r.gpu.strips > 1) out += ", its " + std::to_string(r.gpu.strips) + " strips counted together";
        out += ")";
    }
    std::snprintf(buf, sizeof buf, ": %d kernel%s, %d replay passes, profiled in %.0f ms\n", r.profiled.kernels,
        r.profiled.kernels == 1 ? "" : "s", r.profiled.passes, r.profiled.wall_ms);
    out += buf;
    if (f.steps > 1) {
        std::snprintf(buf, sizeof buf,
            "  fused      one launch of %d steps: rates count cell updates, bytes are per cell and step\n", f.steps);
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "  duration   %.4f ms, %.2f GCells/s\n", ms, f.gcells_per_second);
    out += buf;
    std::snprintf(buf, sizeof buf,
        "  DRAM       read %s (%.2f B/cell, ideal %.2f), write %s (%.2f B/cell, ideal %.2f): %.2fx the ideal bytes\n",
        bytes_text(read).c_str(), read / updates, (ideal_bytes_per_cell(c) - es) / f.steps, bytes_text(write).c_str(),
        write / updates, es / f.steps, f.dram_vs_ideal);
    out += buf;
    if (ms > 0) {
        std::snprintf(buf, sizeof buf,
            "             %.0f GB/s, %s of the %.0f GB/s copy roofline; DRAM throughput %s\n", f.dram_gbs(),
            pct_text(f.dram_pct_of_roofline).c_str(), f.dram_peak_gbs,
            pct_text(r.metric("dram__throughput.avg.pct_of_peak_sustained_elapsed")).c_str());
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "  local      loads %s, stores %s (%d B spilled/thread, %d registers/thread)\n",
        bytes_text(r.metric("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")).c_str(),
        bytes_text(r.metric("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum")).c_str(), r.resources.local_bytes,
        r.resources.registers);
    out += buf;
    std::snprintf(buf, sizeof buf, "  caches     L1 hit %s, L2 hit %s; shared-memory wavefronts %s\n",
        pct_text(f.l1_hit_pct).c_str(), pct_text(f.l2_hit_pct).c_str(),
        format_metric(r.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")).c_str());
    out += buf;
    std::snprintf(buf, sizeof buf, "  occupancy  achieved %s, theoretical %s (occupancy API, limited by %s)\n",
        pct_text(r.metric("sm__warps_active.avg.pct_of_peak_sustained_active")).c_str(),
        pct_text(100.0 * r.resources.theoretical_occupancy).c_str(), r.resources.occupancy_limiter.c_str());
    out += buf;
    std::vector<std::pair<double, std::string_view>> stalls;
    for (const auto& s : stall_reasons()) {
        const double v = r.metric(stall_metric_name(s.reason));
        if (s.reason != "selected" && !std::isnan(v)) stalls.emplace_back(v, s.label);
    }
    std::sort(stalls.begin(), stalls.end(), [](auto& a, auto& b) { return a.first > b.first; });
    out += "  stalls     ";
    for (std::size_t i = 0; i < std::min<std::size_t>(5, stalls.size()); ++i) {
        std::snprintf(buf, sizeof buf, "%s%.*s %.2f", i ? ", " : "", int(stalls[i].second.size()),
            stalls[i].second.data(), stalls[i].first);
        out += buf;
    }
    out += stalls.empty() ? "not collected\n" : " (cycles stalled per issued instruction)\n";
    out += "  verdict    " + f.verdict.sentence + "\n";
    return out;
}

ProfileReport combined_profile_report(const std::vector<ProfileReport>& gpus) {
    const StencilConfig& c = gpus.front().options.config;
    std::vector<ProfiledLaunch> launches;
    VerdictInputs in { 0.0, ideal_launch_bytes(c) };
    for (const ProfileReport& r : gpus) {
        launches.push_back(r.profiled);
        in.dram_peak_bytes_per_s += r.verdict.dram_peak_bytes_per_s;
        in.working_set_bytes += r.verdict.working_set_bytes;
        in.l2_bytes += r.verdict.l2_bytes;
    }
    ProfileReport all = gpus.front();
    all.profiled = combine_devices(launches);
    all.gpu = {};
    all.verdict = in;
    return all;
}

std::string format_profile_all_gpus(const std::vector<ProfileReport>& gpus) {
    if (gpus.empty()) return {};
    const ProfileReport all = combined_profile_report(gpus);
    const LaunchFigures f = all.figures();
    char buf[512];
    std::snprintf(buf, sizeof buf,
        "  all %zu GPUs  slowest %.4f ms, %.2f GCells/s; DRAM read %s + write %s, %.2fx the ideal bytes;\n"
        "             %.0f GB/s, %s of the GPUs' copy rooflines together (%.0f GB/s)\n",
        gpus.size(), f.duration_ms, f.gcells_per_second, bytes_text(f.dram_read_bytes).c_str(),
        bytes_text(f.dram_write_bytes).c_str(), f.dram_vs_ideal, f.dram_gbs(), pct_text(f.dram_pct_of_roofline).c_str(),
        f.dram_peak_gbs);
    return buf + std::string("  verdict    ") + f.verdict.sentence + "\n";
}

CsvRow profile_csv_header() {
    CsvRow h { "timestamp", "device" };
    const CsvRow config = config_csv_header(), resources = resources_csv_header();
    h.insert(h.end(), config.begin(), config.end());
    h.insert(h.end(), resources.begin(), resources.end());
    for (const char* column : { "launch", "iteration", "kernels", "passes", "profile_wall_ms", "duration_ms",
             "gcells_per_s", "dram_bytes_per_cell", "ideal_bytes_per_cell", "limiter", "gpu", "gpu_strips",
             "gpu_updated_cells", "l1_hit_pct", "l2_hit_pct", "l2_resident", "stencil_name", "stencil_points" })
        h.emplace_back(column); // stencil_name, stencil_points as run/bench write them (issue 34); the metrics last
    for (const auto& name : profiled_metric_names()) h.push_back(name);
    return h;
}

CsvRow profile_csv_row(const ProfileReport& r) {
    const StencilConfig& c = r.options.config;
    CsvRow row { r.timestamp.empty() ? timestamp_now() : r.timestamp, r.device };
    const CsvRow config = config_csv_values(c, r.resources), resources = resources_csv_values(r.resources);
    row.insert(row.end(), config.begin(), config.end());
    row.insert(row.end(), resources.begin(), resources.end());
    const LaunchFigures f = r.figures();
    row.insert(row.end(),
        { std::to_string(r.launch), std::to_string(r.iteration), std::to_string(r.profiled.kernels),
            std::to_string(r.profiled.passes), format_number(r.profiled.wall_ms), format_number(f.duration_ms),
            format_number(f.gcells_per_second), format_number(f.dram_bytes_per_cell),
            format_number(f.ideal_bytes_per_cell), std::string(to_string(f.verdict.limiter)),
            std::to_string(r.gpu.updated_cells > 0 ? r.gpu.device : c.placement.device), // unset share: the one GPU
            std::to_string(std::max(r.gpu.strips, 1)), std::to_string(f.cells), format_number(f.l1_hit_pct),
            format_number(f.l2_hit_pct), f.verdict.l2_resident ? "1" : "0", stencil_name(c.problem),
            std::to_string(stencil_points(c.problem)) });
    for (const auto& name : profiled_metric_names()) row.push_back(format_metric(r.metric(name)));
    return row;
}

} // namespace ss
