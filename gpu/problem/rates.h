// SPDX-License-Identifier: MIT
// Times into rates and shares, in one place: every GCells/s, GB/s and "% of a ceiling" that StencilScope
// shows or writes is computed by these. They sit in the lowest room so that every room and layer above
// (plan's strip figures, the profiler, studies, reports, the session, both programs) uses the same ones.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace ss {

// Billions of cell updates per second (GCells/s): `cells_per_step` cells updated `steps` times in
// `milliseconds`. 0 when no time was measured (0 or less).
inline double gcells_per_second(double cells_per_step, double steps, double milliseconds) {
    return milliseconds > 0.0 ? cells_per_step * steps / (milliseconds * 1e6) : 0.0;
}

// GB/s (1e9 bytes per second): `bytes` moved in `milliseconds`. 0 when no time was measured.
inline double gbytes_per_second(double bytes, double milliseconds) {
    return milliseconds > 0.0 ? bytes / (milliseconds * 1e6) : 0.0;
}

// `value` as a percentage of `ceiling` (a measured copy roofline, a peak), capped at 100: a derived share
// never passes 100 % (a kernel can beat a measured copy by a hair, an L2-resident field can seem to beat
// DRAM), while the rate it is derived from is shown as measured. NaN when the ceiling is unknown (not above
// 0) or the value is NaN.
inline double percent_of(double value, double ceiling) {
    if (!(ceiling > 0.0) || std::isnan(value)) return std::numeric_limits<double>::quiet_NaN();
    return std::min(100.0, 100.0 * value / ceiling);
}

} // namespace ss
