// SPDX-License-Identifier: MIT
// The Session's roofline: the ceilings of the requested GPU (measured on the engine thread) and the running
// kernel's point from its latest figures.
#include "session/engine_controller.h"
#include "session/session.h"

#include <cmath>
#include <limits>

namespace ss::gui {

void Session::request_roofline_ceilings() {
    const Placement& placement = requested().config.placement;
    if (placement.backend != Backend::Cuda) return;
    const int device = placement.device;
    if (m_ceilings.count(device) || m_ceilings_pending.count(device)) return;
    m_ceilings_pending.insert(device);
    m_engine->measure_ceilings(device, m_devices);
    emit roofline_ceilings_changed(); // now "measuring ceilings…"
}

RooflineCeilings Session::roofline_ceilings() const {
    const Placement& placement = requested().config.placement;
    RooflineCeilings none;
    if (placement.backend != Backend::Cuda) {
        none.unavailable = "no GPU: the CPU backend has no device ceilings";
        return none;
    }
    if (auto it = m_ceilings.find(placement.device); it != m_ceilings.end()) return it->second;
    none.unavailable = m_ceilings_pending.count(placement.device) ? "measuring ceilings…" : "ceilings not measured yet";
    return none;
}

bool Session::roofline_ceilings_measuring() const {
    const Placement& placement = requested().config.placement;
    return placement.backend == Backend::Cuda && m_ceilings_pending.count(placement.device) > 0;
}

RooflinePoint Session::roofline_point() const {
    if (!has_simulation()) return {};
    const EngineReady& running = active();
    const double cells_per_s
        = m_last_stats.generation == running.generation ? m_last_stats.kernel_gcells_per_second * 1e9 : 0.0;
    double dram_bytes = std::numeric_limits<double>::quiet_NaN(); // the ideal stands in
    if (const MetricsSample* latest = m_history.latest();
        m_counters && latest && latest->generation == running.generation)
        dram_bytes = latest->figures.dram_bytes_per_cell;
    return ss::roofline_point(running.settings.config, cells_per_s, dram_bytes);
}

} // namespace ss::gui
