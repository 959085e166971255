// SPDX-License-Identifier: MIT
#include "gpu/io/timestamp.h"

#include <chrono>
#include <ctime>

namespace ss {

std::string utc_timestamp() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm {};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace ss
