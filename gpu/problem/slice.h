// SPDX-License-Identifier: MIT
// The display planes of a field: which axis a slice is normal to, and its size.
#pragma once

#include "gpu/problem/config.h"

#include <utility>

namespace ss {

enum class SliceAxis { XY, XZ, YZ };
// Width and height of a plane as download_slice returns it (XY: nx x ny, XZ: nx x nz, YZ: ny x nz).
inline std::pair<int, int> slice_size(const Extent& e, SliceAxis a) {
    return a == SliceAxis::XY ? std::pair { e.nx, e.ny }
        : a == SliceAxis::XZ  ? std::pair { e.nx, e.nz }
                              : std::pair { e.ny, e.nz };
}

} // namespace ss
