// SPDX-License-Identifier: MIT
// What the range profiler (cupti_collector.cpp) and PM sampling (pm_sampler.cpp) share of CUPTI: the
// parameter structs, the loaded table and its errors in plain words, the process-wide profiler
// initialisation, and the Profiler Host object that turns metric names into a config image. Internal to
// gpu/profiler; CUPTI itself is loaded at run time (gpu/backends/cuda/cuda_libraries.h).
#pragma once

#include "gpu/backends/cuda/cuda_libraries.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ss::cupti_host {

// CUPTI parameter structs: zeroed, with their size set (CUPTI reads the size to know the ABI).
template <typename Params> Params params(std::size_t struct_size) {
    Params p {};
    p.structSize = struct_size;
    return p;
}

// CUPTI's table; call only after loadable() said yes (it is non-null then).
const CuptiApi& cupti();

// False with the plain-words reason (counters_unavailable_reason) and "[api: call]" appended (or "[call]").
bool ok(CUptiResult r, const char* call, std::string* why, const char* api = nullptr);

// Whether CUPTI can be called at all in this process, with the reason when not (no library, ASan build).
bool loadable(std::string* why);

// Whether CUDA device `device` exists and CUPTI is loadable: what both profilers check before they start.
bool device_reachable(int device, std::string* why);

// cuptiProfilerInitialize is process-wide; done once and never undone, so users can come and go.
bool initialize_profiler_once(std::string* why);

// Pointers to the names' characters, for CUPTI's name arrays (valid while `names` lives).
std::vector<const char*> c_names(const std::vector<std::string>& names);

// A Profiler Host object of one profiler type, with metrics added to it and its config image.
class ProfilerHost {
public:
    explicit ProfilerHost(CUpti_ProfilerType type)
        : m_type(type) { }
    ProfilerHost(const ProfilerHost&) = delete;
    ProfilerHost& operator=(const ProfilerHost&) = delete;
    ~ProfilerHost() { reset(); }

    // An empty `availability` lets CUPTI assume every counter is available (host-only use, no GPU).
    bool init(const std::string& chip, const std::vector<std::uint8_t>& availability, std::string* why);
    void reset();
    CUpti_Profiler_Host_Object* get() const { return m_object; }
    bool knows(const std::string& metric) const; // the chip has this metric
    CUptiResult add_metrics(const std::vector<std::string>& names) const; // one ConfigAddMetrics call
    // The config image of the metrics added, and the passes it needs.
    bool config_image(std::vector<std::uint8_t>* image, int* passes, std::string* why, const char* api = nullptr) const;

private:
    CUpti_ProfilerType m_type;
    CUpti_Profiler_Host_Object* m_object = nullptr;
};

} // namespace ss::cupti_host
