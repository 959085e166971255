// SPDX-License-Identifier: MIT
// The control panel's "Kernel resources" box: which kernel runs (its entry point's name, or the CPU loop) and why,
// block, grid, registers, spills, shared memory, theoretical occupancy and its limiter, compile time of the running
// kernel (n/a on the CPU backend); above them, while the variant auto is chosen, its tune or why it chose the kernel.
// Its value labels are named res_* so that tests and the soak can read them.
#pragma once

#include "session/engine_types.h"

class QString;
class QWidget;

namespace ss::gui {

QWidget* make_kernel_resources_box();
void show_kernel_resources(QWidget& box, const EngineReady&);
// The variant auto's line above the kernel ("auto: timing 7 candidates…", then why it chose the kernel below);
// empty: the row is hidden (another variant is chosen).
void show_auto_line(QWidget& box, const QString& line);

} // namespace ss::gui
