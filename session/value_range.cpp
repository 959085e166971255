// SPDX-License-Identifier: MIT
#include "session/value_range.h"

#include <algorithm>
#include <cmath>

namespace ss::gui {

ValueRange measure_range(const float* values, std::size_t count) {
    float lo = INFINITY, hi = -INFINITY;
    for (std::size_t i = 0; i < count; ++i) {
        const float v = values[i];
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo > hi) return {};
    return { lo, hi };
}

ValueRange RangePolicy::apply(const ValueRange& measured) const {
    if (!automatic) return fixed;
    ValueRange r = measured;
    if (symmetric) {
        const float m = std::max(std::fabs(r.lo), std::fabs(r.hi));
        r = { -m, m };
    }
    if (!(r.hi > r.lo)) {
        // a flat field: widen so it shows as the middle colour instead of dividing by zero
        const float pad = std::max(std::fabs(r.lo) * 1e-3f, 1e-6f);
        r = { r.lo - pad, r.hi + pad };
    }
    return r;
}

} // namespace ss::gui
