// SPDX-License-Identifier: MIT
#include "widgets/cpu_loop_caveat.h"

#include <QObject>

#include <algorithm>

namespace ss::gui {

bool ran_on_cpu_loop(const std::vector<ExperimentPoint>& points, const std::string& device) {
    if (points.empty()) return false;
    // cpu_device_name(): "CPU (N threads)"; a sweep CSV keeps only the device name, not the backend
    if (device.rfind("CPU (", 0) == 0) return true;
    return std::all_of(points.begin(), points.end(),
        [](const ExperimentPoint& p) { return p.config.placement.backend == Backend::Cpu; });
}

QString cpu_loop_caveat() {
    return QObject::tr("CPU backend: every variant, CF and block runs the same loop; differences are noise.");
}

QString rate_caption(bool cpu_backend) {
    return cpu_backend ? QObject::tr("GCells/s (CPU loop)") : QObject::tr("GCells/s (kernel)");
}

QString step_time_caption(bool cpu_backend) {
    return cpu_backend ? QObject::tr("time / step (CPU loop)") : QObject::tr("time / step (kernel)");
}

} // namespace ss::gui
