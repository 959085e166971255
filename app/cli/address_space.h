// SPDX-License-Identifier: MIT
// The process's own memory limit (RLIMIT_AS, `ulimit -v`), which MemAvailable does not show: a domain
// that fits the machine but not the limit failed after the work had started with only "std::bad_alloc".
// Checked before the work, and named when an allocation fails anyway. Linux; Qt-free.
#pragma once

#include "gpu/problem/config.h"

#include <cstdint>
#include <string>

namespace ss::cli {

// Refuses `bytes` more of host memory when the address-space limit leaves less than that beside what
// the process has mapped already; success when there is no limit or it cannot be read.
Status check_address_space(std::int64_t bytes);

// Host memory a run of `c` allocates: the engine's buffers on the CPU backend, the initial field in
// double precision on either (and, with `verify`, the fp64 reference's two fields and a download).
std::int64_t host_bytes_for_run(const StencilConfig& c, bool verify);

// One line for an allocation that failed: what ran out, with the limit when one is set.
std::string out_of_host_memory_reason();

} // namespace ss::cli
