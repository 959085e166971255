// SPDX-License-Identifier: MIT
// The one clock format of every file StencilScope writes (CSV rows, the autotune cache). Qt-free.
#pragma once

#include <string>

namespace ss {

std::string utc_timestamp(); // now, ISO 8601 UTC: 2026-11-22T23:04:05Z

} // namespace ss
