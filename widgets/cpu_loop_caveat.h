// SPDX-License-Identifier: MIT
// The CPU backend runs one loop for every variant, CF and block: comparisons made there measure noise, and
// GPU figures (blocks, registers, the kernel's rate) do not exist. The words every panel uses to say so.
#pragma once

#include "gpu/studies/experiments.h"

#include <QString>

#include <string>
#include <vector>

namespace ss::gui {

// Every point ran on the CPU backend: its configuration says so, or (a CSV read back) the device is the CPU.
bool ran_on_cpu_loop(const std::vector<ExperimentPoint>&, const std::string& device);

// One sentence for charts, tables and notes.
QString cpu_loop_caveat();

// The unit of a rate measured on the CPU backend ("GCells/s (CPU loop)"), as against the GPU's kernel timing.
QString rate_caption(bool cpu_backend);
QString step_time_caption(bool cpu_backend);

} // namespace ss::gui
