// SPDX-License-Identifier: MIT
#include "gpu/profiler/launch_figures.h"

#include "gpu/problem/rates.h"

#include <algorithm>
#include <cmath>

namespace ss {
namespace {

double value_of(const KernelMetrics& m, std::string_view name) {
    const auto it = m.find(name);
    return it == m.end() ? std::nan("") : it->second;
}

double zero_if_nan(double v) {
    return std::isnan(v) ? 0.0 : v;
}

} // namespace

LaunchFigures derive_launch_figures(
    const KernelMetrics& m, const LaunchWork& work, double dram_peak_bytes_per_s, const CacheFit& fit) {
    LaunchFigures f;
    const std::int64_t cells = work.cells;
    f.cells = cells;
    f.steps = std::max(work.steps, 1);
    // Cell updates: a fused launch updates every cell once per step it advances.
    const double updates = double(cells) * f.steps;
    f.ideal_bytes_per_cell = work.ideal_bytes_per_cell / f.steps;
    f.dram_peak_gbs = dram_peak_bytes_per_s / 1e9;
    const double ms = zero_if_nan(value_of(m, "gpu__time_duration.sum")) * 1e-6;
    f.duration_ms = ms;
    f.dram_read_bytes = value_of(m, "dram__bytes_read.sum");
    f.dram_write_bytes = value_of(m, "dram__bytes_write.sum");
    const double dram = zero_if_nan(f.dram_read_bytes) + zero_if_nan(f.dram_write_bytes);
    f.gcells_per_second = gcells_per_second(double(cells), f.steps, ms);
    // The DRAM rates and their share of the roofline as the verdict reads them (dram_figures).
    const DramFigures d = dram_figures(m, dram_peak_bytes_per_s);
    f.dram_read_gbs = d.read_gbs;
    f.dram_write_gbs = d.write_gbs;
    f.dram_pct_of_roofline = d.pct_of_roofline;
    f.local_load_gbs = gbytes_per_second(zero_if_nan(value_of(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum")), ms);
    f.local_store_gbs = gbytes_per_second(zero_if_nan(value_of(m, "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum")), ms);
    f.dram_bytes_per_cell = std::isnan(f.dram_read_bytes) || std::isnan(f.dram_write_bytes) ? std::nan("")
        : cells > 0                                                                         ? dram / updates
                                                                                            : 0.0;
    const double ideal_bytes = double(cells) * work.ideal_bytes_per_cell; // once per launch, whatever its steps
    f.dram_vs_ideal = dram / std::max(ideal_bytes, 1.0);
    f.working_set_bytes = fit.working_set_bytes;
    f.l2_bytes = fit.l2_bytes;
    f.l2_hit_pct = l2_hit_percent(m);
    f.l1_hit_pct = l1_hit_percent(m);
    f.verdict = diagnose(m, { dram_peak_bytes_per_s, ideal_bytes, fit.working_set_bytes, fit.l2_bytes });
    return f;
}

} // namespace ss
