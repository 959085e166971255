// SPDX-License-Identifier: MIT
#include "app/cli/address_space.h"

#include "gpu/plan/launch_policy.h"
#include "gpu/plan/validation.h"

#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace ss::cli {
namespace {

// The address-space limit in bytes, or -1 when there is none.
std::int64_t address_space_limit() {
    rlimit limit {};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return -1;
    return std::int64_t(limit.rlim_cur);
}

// What the process has mapped (VmSize, /proc/self/statm's first field), or 0 when unknown.
std::int64_t mapped_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::int64_t pages = 0;
    return statm >> pages ? pages * std::int64_t(sysconf(_SC_PAGESIZE)) : 0;
}

} // namespace

Status check_address_space(std::int64_t bytes) {
    const std::int64_t limit = address_space_limit();
    if (limit < 0) return Status::success();
    const std::int64_t left = limit - mapped_bytes();
    if (bytes <= left) return Status::success();
    return Status::failure("the run needs " + bytes_text(bytes)
        + " of host memory but the process's address-space limit " + "(ulimit -v) of " + bytes_text(limit) + " leaves "
        + bytes_text(std::max<std::int64_t>(left, 0)));
}

std::int64_t host_bytes_for_run(const StencilConfig& c, bool verify) {
    const std::int64_t field = c.problem.size.cells() * std::int64_t(sizeof(double)); // cells <= 2^40: no wrap
    std::int64_t bytes = c.placement.backend == Backend::Cpu ? host_bytes_needed(c) : field;
    if (verify) bytes += 3 * field;
    return bytes;
}

std::string out_of_host_memory_reason() {
    const std::int64_t limit = address_space_limit();
    return "out of host memory (std::bad_alloc)"
        + (limit < 0 ? std::string() : "; the process's address-space limit (ulimit -v) is " + bytes_text(limit));
}

} // namespace ss::cli
