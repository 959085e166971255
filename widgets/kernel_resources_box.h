// SPDX-License-Identifier: MIT
// The control panel's "Kernel resources" box: which kernel runs (its entry point's name, or the CPU loop) and why,
// block, grid, registers, spills, shared memory, theoretical occupancy and its limiter, compile time of the running
// kernel (n/a on the CPU backend). Its value labels are named res_* so that tests and the soak can read them.
#pragma once

#include "session/engine_types.h"

class QWidget;

namespace ss::gui {

QWidget* make_kernel_resources_box();
void show_kernel_resources(QWidget& box, const EngineReady&);

} // namespace ss::gui
