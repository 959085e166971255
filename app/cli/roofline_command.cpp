// SPDX-License-Identifier: MIT
#include "app/cli/roofline_command.h"

#include "app/cli/cli_common.h"
#include "app/cli/cli_output.h"
#include "gpu/studies/roofline_ceilings.h"
#include "reports/run_report.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace ss {
namespace {

std::string rate_text(double per_s, const char* unit) {
    char text[48];
    std::snprintf(
        text, sizeof text, "%.1f %s%s", per_s / (per_s >= 1e12 ? 1e12 : 1e9), per_s >= 1e12 ? "T" : "G", unit);
    return text;
}

std::string ceiling_line(const char* name, const RooflineCeiling& c, const char* unit) {
    char head[16];
    std::snprintf(head, sizeof head, "%-9s", name);
    if (!c.known()) return std::string(head) + "unknown: " + c.source + "\n";
    return std::string(head) + rate_text(c.value, unit) + "  " + c.origin() + ": " + c.source + "\n";
}

std::string ridge_text(double ridge) {
    if (ridge <= 0.0) return "unknown";
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", ridge);
    return text;
}

std::string number_or_empty(double v) {
    return v > 0.0 ? format_number(v) : std::string();
}

std::string source_of(const RooflineCeiling& c) {
    return c.known() ? std::string(c.origin()) + ": " + c.source : "unknown: " + c.source;
}

} // namespace

CsvRow roofline_csv_header() {
    return { "timestamp", "device", "dram_bytes_per_s", "dram_source", "l2_bytes_per_s", "l2_source",
        "fp32_flops_per_s", "fp32_source", "fp64_flops_per_s", "fp64_source", "fp32_ridge_dram", "fp64_ridge_dram",
        "fp32_ridge_l2", "fp64_ridge_l2" };
}

int run_roofline_command(const RunOptions& o, const DeviceCatalogue& catalogue) {
    const int device = o.config.placement.device;
    if (!catalogue.has_cuda())
        return cli::fail(
            2, "roofline needs a CUDA GPU: " + catalogue.unavailable + " (the CPU backend has no ceilings)");
    if (!catalogue.find(device)) return cli::fail(2, "CUDA device " + std::to_string(device) + " does not exist");
    if (Status s = cli::open_outputs(o, roofline_csv_header()); !s) return cli::fail(2, s.reason);
    const RooflineCeilings c = measure_roofline_ceilings(device, catalogue);
    if (!c.ok()) return cli::fail(1, "roofline not measured: " + c.unavailable);
    const double dram = c.dram_bytes_per_s.value, l2 = c.l2_bytes_per_s.value;
    const double fp32 = c.fp32_flops_per_s.value, fp64 = c.fp64_flops_per_s.value;
    std::cout << "device   " << c.device_name << "\n"
              << ceiling_line("DRAM", c.dram_bytes_per_s, "B/s") << ceiling_line("L2", c.l2_bytes_per_s, "B/s")
              << ceiling_line("fp32 FMA", c.fp32_flops_per_s, "FLOP/s")
              << ceiling_line("fp64 FMA", c.fp64_flops_per_s, "FLOP/s")
              << "ridge points (FLOP per byte, where a kernel stops being bound by the bandwidth):\n"
              << "  fp32   DRAM " << ridge_text(ridge_point(fp32, dram)) << "   L2 "
              << ridge_text(ridge_point(fp32, l2)) << "\n"
              << "  fp64   DRAM " << ridge_text(ridge_point(fp64, dram)) << "   L2 "
              << ridge_text(ridge_point(fp64, l2)) << "\n";
    const CsvRow row { timestamp_now(), c.device_name, number_or_empty(dram), source_of(c.dram_bytes_per_s),
        number_or_empty(l2), source_of(c.l2_bytes_per_s), number_or_empty(fp32), source_of(c.fp32_flops_per_s),
        number_or_empty(fp64), source_of(c.fp64_flops_per_s), number_or_empty(ridge_point(fp32, dram)),
        number_or_empty(ridge_point(fp64, dram)), number_or_empty(ridge_point(fp32, l2)),
        number_or_empty(ridge_point(fp64, l2)) };
    if (Status s = cli::write_rows({ row }); !s) return cli::fail(1, s.reason);
    if (!c.dram_bytes_per_s.known() && !c.fp32_flops_per_s.known())
        return cli::fail(1, "no ceiling could be measured or taken from the catalogue");
    return 0;
}

} // namespace ss
