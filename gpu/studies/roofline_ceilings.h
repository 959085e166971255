// SPDX-License-Identifier: MIT
// A device's roofline ceilings: the copy roofline (gpu/backends/bandwidth.h) and the L2 and FMA peaks
// (gpu/backends/compute_peaks.h), measured once per process and device; where a measurement is missing, the
// device catalogue's figure (EBISU's inputs: the spec's DRAM rate, SMs x FMA lanes x 2 x clock), labelled so.
#pragma once

#include "gpu/backends/bandwidth.h"
#include "gpu/backends/compute_peaks.h"
#include "gpu/problem/device.h"
#include "gpu/profiler/roofline.h"

namespace ss {

// The ceilings from the measurements, each falling back to the catalogue (`device` may be null: no fallback).
// No CUDA call: the host tests give it made-up measurements.
RooflineCeilings assemble_roofline_ceilings(const CopyRoofline&, const ComputePeaks&, const DeviceInfo* device);

// Measures (or takes the cached measurements of) `device` and assembles its ceilings; `unavailable` says why there
// are none when the catalogue has no such GPU. Never on the GUI thread: the first call per device copies gigabytes.
RooflineCeilings measure_roofline_ceilings(int device, const DeviceCatalogue&);

} // namespace ss
