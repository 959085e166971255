// SPDX-License-Identifier: MIT
#include "gpu/studies/roofline_ceilings.h"

#include "gpu/studies/ebisu_model.h"

#include <cstdio>

namespace ss {
namespace {

std::string mib_text(std::int64_t bytes) {
    char text[48];
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / 1048576.0);
    return text;
}

RooflineCeiling from_catalogue(const ModelInput& in, const std::string& why_not_measured) {
    RooflineCeiling c;
    c.value = in.known() ? in.value : 0.0;
    c.measured = false;
    c.source = in.known() ? in.source + " (" + why_not_measured + ")" : in.source;
    return c;
}

} // namespace

RooflineCeilings assemble_roofline_ceilings(const CopyRoofline& copy, const ComputePeaks& peaks, const DeviceInfo* d) {
    RooflineCeilings r;
    if (d) r.device_name = d->name;
    const std::string peaks_missing = "not measured: " + (peaks.error.empty() ? std::string("no result") : peaks.error);
    if (copy.bytes_per_s() > 0.0) {
        r.dram_bytes_per_s = { copy.bytes_per_s(), true,
            "copy kernel, " + mib_text(copy.measured.bytes_per_copy) + " read and written, median of "
                + std::to_string(kRooflineRepeats) + (copy.reduced ? " (reduced: " + copy.note + ")" : "") };
    } else if (d) {
        r.dram_bytes_per_s = from_catalogue(ebisu_inputs(*d, Precision::FP32, 0.0).dram_bytes_per_s, copy.note);
    } else {
        r.dram_bytes_per_s.source = copy.note;
    }
    if (peaks.l2_bytes_per_s > 0.0)
        r.l2_bytes_per_s = { peaks.l2_bytes_per_s, true,
            "L2-resident copy, 2 x " + mib_text(peaks.l2_buffer_bytes) + " x " + std::to_string(peaks.l2_passes)
                + " passes, best of " + std::to_string(peaks.repeats) };
    else
        r.l2_bytes_per_s.source = "L2 " + peaks_missing; // the catalogue has no L2 bandwidth to fall back on
    const auto peak = [&](double measured, Precision p) {
        if (measured > 0.0)
            return RooflineCeiling { measured, true,
                "FMA kernel, 8 independent chains per thread, every SM full, best of "
                    + std::to_string(peaks.repeats) };
        if (d) return from_catalogue(ebisu_inputs(*d, p, 0.0).flops_per_s, peaks_missing);
        return RooflineCeiling { 0.0, false, peaks_missing };
    };
    r.fp32_flops_per_s = peak(peaks.fp32_flops_per_s, Precision::FP32);
    r.fp64_flops_per_s = peak(peaks.fp64_flops_per_s, Precision::FP64);
    return r;
}

RooflineCeilings measure_roofline_ceilings(int device, const DeviceCatalogue& catalogue) {
    const DeviceInfo* d = catalogue.find(device);
    if (!d) {
        RooflineCeilings none;
        none.unavailable = "no GPU: "
            + (catalogue.unavailable.empty() ? "CUDA device " + std::to_string(device) + " does not exist"
                                             : catalogue.unavailable);
        return none;
    }
    // The peaks first: their measurement waits for the work already queued on the device, so the copy is alone too.
    const ComputePeaks& peaks = measure_compute_peaks(device);
    return assemble_roofline_ceilings(measure_copy_roofline(device), peaks, d);
}

} // namespace ss
