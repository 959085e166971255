// SPDX-License-Identifier: MIT
#include "gpu/backends/simulation.h"

#include "gpu/plan/strip_plan.h"
#include "gpu/problem/physics.h"

namespace ss {

MultiGpuStats Simulation::multi_gpu_stats() const {
    const StencilConfig& c = config();
    MultiGpuStats stats;
    StripStats whole;
    whole.device = c.placement.device;
    whole.end_row = split_extent(c);
    whole.updated_cells = updated_cells(c);
    stats.strips.push_back(whole);
    return stats;
}

FieldState Simulation::save_state() {
    return { download(), {}, iteration() };
}

void Simulation::restore_state(const FieldState& state) {
    upload(state.current); // backends that keep more override this
}

} // namespace ss
