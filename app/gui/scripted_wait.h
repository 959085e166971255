// SPDX-License-Identifier: MIT
// Waiting for the window inside a non-interactive mode (scripted runs, the benchmark, the soak): the event loop
// spins until a condition holds, an engine failure, or a stall of the picture.
#pragma once

#include <functional>
#include <string>

namespace ss::gui {

class MainWindow;

inline constexpr int kStallSeconds = 60; // no new frame for this long: give up instead of hanging a script

// Spins the event loop until `done` says so; false (with `why`) on engine failure or a stall.
bool wait_until(MainWindow& w, const std::function<bool()>& done, std::string& why);

} // namespace ss::gui
