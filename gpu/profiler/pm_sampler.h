// SPDX-License-Identifier: MIT
// Continuous hardware counters through CUPTI's PM sampling: a set of counters that fits ONE pass is read
// by the GPU at a fixed interval while kernels run, with no replay, into a hardware buffer; decode()
// turns what the buffer holds into plain samples. One sampler per device. Unlike the range profiler
// (collector.h) it never re-runs a kernel, so it can stay on; the two may not run on a device at the
// same moment: stop() the sampler around a replayed profile (pm_sampling_run.h does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ss {

// One sampling interval of one device: what the counters read between two GPU timestamps.
struct PmSample {
    std::uint64_t start_ns = 0, end_ns = 0; // GPU global timer (ns; on Linux the Unix epoch)
    std::vector<double> values; // in the order of the sampler's metrics()
    double seconds() const { return end_ns > start_ns ? double(end_ns - start_ns) * 1e-9 : 0.0; }
};

// What one decode() produced on one device: consecutive samples, oldest first.
struct PmChunk {
    int device = 0;
    std::vector<std::string> metrics; // Nsight Compute names, the columns of `samples`
    std::vector<PmSample> samples;
    bool overflow = false; // the hardware buffer overflowed before these: samples were lost
    // The index of `metric` in `metrics`, or -1.
    int column(const std::string& metric) const;
};

// The metrics the continuous mode asks for, most wanted first (Nsight Compute names). On a device the
// set is cut to what fits one pass (pm_one_pass_metrics).
std::vector<std::string> pm_candidate_metrics();

// The candidates (in order) that fit one PM-sampling pass together on `chip` (CUPTI's chip name, e.g.
// "GH100"), chosen greedily: each is kept when the set with it still needs one pass. `availability`
// is the device's counter-availability image (empty: the chip's nominal counters, no GPU needed).
// False with `why` when CUPTI's host API cannot tell (no CUPTI, unknown chip).
struct PmMetricSet {
    std::vector<std::string> metrics, left_out;
};
bool pm_one_pass_metrics(const std::string& chip, const std::vector<std::uint8_t>& availability,
    const std::vector<std::string>& candidates, PmMetricSet* out, std::string* why);

struct PmSamplerOptions {
    std::uint64_t interval_ns = 1'000'000; // GPU time between samples
    // Samples one counter-data image holds (about 24 KB each on the H100: 20000 took 472 MB). decode()
    // empties it each call; it must hold more than the samples of one decode period (samples are lost
    // when it fills: the chunk's overflow says so).
    std::uint32_t image_samples = 256;
    std::size_t hardware_buffer_bytes = std::size_t(128) << 20; // the GPU-side ring the samples land in
};

class PmSampler {
public:
    virtual ~PmSampler() = default;
    virtual int device() const = 0;
    virtual std::string chip() const = 0;
    virtual const std::vector<std::string>& metrics() const = 0; // what each sample carries
    virtual const std::vector<std::string>& left_out() const = 0; // candidates that did not fit one pass
    virtual bool start(std::string* why) = 0; // no-op when running
    virtual bool stop(std::string* why) = 0; // no-op when stopped; samples taken stay decodable
    virtual bool running() const = 0;
    // Appends the samples the hardware has completed since the last call to `out` (device and metrics
    // set). Call often (the hardware buffer is finite) from one thread at a time.
    virtual bool decode(PmChunk* out, std::string* why) = 0;
};

// nullptr with `why` in plain words (counters_unavailable_reason: permissions, another profiler, a device
// without PM sampling, no CUPTI). Enables PM sampling on `device` (its primary context is made current on
// the calling thread); not started.
std::unique_ptr<PmSampler> create_pm_sampler(int device, const PmSamplerOptions&, std::string* why);

} // namespace ss
