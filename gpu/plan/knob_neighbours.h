// SPDX-License-Identifier: MIT
// The configurations one turn of a knob away from a running one (issue 40, "ahead of the hand"): what the window
// builds in the background so that the next click finds its kernels in the cache. Pure; no device.
#pragma once

#include "gpu/problem/config.h"

#include <vector>

namespace ss {

// In the order a user most likely turns them: radius -1 and +1, the next and the previous coarsening factor, the
// temporal depth -1 and +1, the other precision, and for a given block its neighbours in the autotune space (x or y
// halved or doubled). Each differs from `c` in one knob; none is `c`; whether each can run is the plan's to say.
std::vector<StencilConfig> knob_neighbours(const StencilConfig& c);

} // namespace ss
