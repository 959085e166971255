// SPDX-License-Identifier: MIT
// Colour tables for the scalar field. One table per map, shared by the GL shader (uploaded as a
// 256x1 texture) and the raster path, so screenshots and the live view can never disagree.
#pragma once

#include "session/colormap_kind.h"

#include <array>
#include <cstdint>

namespace ss::gui {

struct Rgb8 {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb8&) const = default;
};

inline constexpr int kColormapSize = 256;
using ColormapTable = std::array<Rgb8, kColormapSize>;

const ColormapTable& colormap_table(ColormapKind);
// The table entry for t in [0, 1]: clamped, rounded to nearest; NaN maps to 0. field.frag does the same.
int colormap_index(float t);
inline Rgb8 colormap_sample(ColormapKind kind, float t) {
    return colormap_table(kind)[colormap_index(t)];
}

} // namespace ss::gui
