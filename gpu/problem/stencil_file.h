// SPDX-License-Identifier: MIT
// A user's stencil as a JSON file (docs/USER_GUIDE.md, "Stencils"):
//   { "name": "my9pt", "dims": 2, "points": [ [[0, 0], 0.5], [[-1, 0], 0.125], [[1, 0], 0.125], ... ] }
// Each point is [offset, weight], the offset [dx, dy] in 2D or [dx, dy, dz] in 3D (x fastest in memory). "name" is
// optional (the file's name without its extension stands in). Any other key is refused, so that a misspelt key is
// not silently ignored. Plain text in, a checked shape out, and back: reading and writing the file is the caller's
// (reports/stencil_options.h).
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"

#include <string_view>

namespace ss {

// The shape `text` describes, checked by check_shape (gpu/problem/stencil_catalog.h); else one line saying what is
// wrong and where. `fallback_name` names a stencil whose file gives none.
Status parse_stencil_json(std::string_view text, std::string_view fallback_name, StencilShape& out);

// Whether `name` may name a stencil in a file: 1..64 characters, no spaces, commas or quotes (it names a CSV field).
Status check_stencil_name(std::string_view name);

// `shape` as the text parse_stencil_json reads back to an equal shape: its name, dims and points in canonical order,
// one point a line, each weight in the fewest digits that read back to the same double. A shape that fails
// check_shape or check_stencil_name is written all the same, and the reader refuses it: callers check first.
std::string stencil_json(const StencilShape& shape);

} // namespace ss
