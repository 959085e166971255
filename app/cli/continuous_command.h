// SPDX-License-Identifier: MIT
// `stencilscope-cli profile --continuous SECONDS`: the counters that fit one pass, sampled by the GPU
// every 100 us while the simulation runs (CUPTI PM sampling, no replay), as a time series per GPU
// (--csv, docs/CSV.md "continuous") and the DRAM bytes integrated over the samples. Qt-free.
#pragma once

#include "gpu/problem/device.h"
#include "gpu/profiler/pm_sampler.h"
#include "reports/run_options.h"

#include <chrono>
#include <string>

namespace ss {

// Returns the exit code (0, 1 the run or the counters failed, 2 bad input).
int run_continuous_profile(const RunOptions&, const DeviceCatalogue&);

// The sampling both programs' --continuous use (one process, and each rank under mpirun): every 100 us, a
// decode every 10 ms.
PmSamplerOptions continuous_sampler_options();
std::chrono::milliseconds continuous_decode_period();
// "DRAM read X in all (Y per step), write Z (W per step)": the byte totals as both print them.
std::string dram_traffic_text(double read_bytes, double write_bytes, long long steps);

} // namespace ss
