// SPDX-License-Identifier: MIT
// The value range a colour map spans: measured from a frame (auto) or set by the user (fixed).
#pragma once

#include <cstddef>

namespace ss::gui {

struct ValueRange {
    float lo = 0.0f, hi = 1.0f;
    bool operator==(const ValueRange&) const = default;
    // 0 at lo, 1 at hi (unclamped); a degenerate range maps everything to the middle.
    float normalise(float v) const { return hi > lo ? (v - lo) / (hi - lo) : 0.5f; }
};

// Min and max of the finite values; {0, 1} when there are none.
ValueRange measure_range(const float* values, std::size_t count);

struct RangePolicy {
    bool automatic = true;
    ValueRange fixed {};
    bool symmetric = false; // diverging maps: keep zero in the middle
    // The range to display for a frame whose values span `measured`.
    ValueRange apply(const ValueRange& measured) const;
};

} // namespace ss::gui
