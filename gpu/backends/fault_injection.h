// SPDX-License-Identifier: MIT
// Testing hook, not a user option: STENCILSCOPE_INJECT_FAULT_AFTER=N makes every simulation created from
// then on fail its steps once it has run N of them, as a GPU that falls off the bus or runs out of
// memory mid-run would. Tests use it on the CPU backend to check that the CLI and the GUI report the
// failure in one line, do not crash, and keep the last good picture. Qt-free.
#pragma once

#include "gpu/backends/simulation.h"

#include <memory>

namespace ss {

// `sim` itself when the hook is not set (or not a positive number), else `sim` wrapped.
std::unique_ptr<Simulation> with_fault_injection(std::unique_ptr<Simulation> sim);

// STENCILSCOPE_INJECT_ALLOCATION_FAILURE_CELLS=N: creating a simulation of more than N cells fails as an
// allocation that runs out of memory would, after validation said yes. False when it does not apply.
bool injected_allocation_failure(const StencilConfig& c, std::string* why);

} // namespace ss
