// SPDX-License-Identifier: MIT
// Top-level windows open within the screen's available area (taskbars and docks excluded): a projector's
// 1280x720 gets a window that fits with its title bar, a large screen the size the window was designed for.
#pragma once

#include <QSize>

class QWidget;

namespace ss::gui {

// Room for the window manager's title bar and borders, which resize() does not count.
inline constexpr QSize kWindowFrameAllowance { 16, 48 };

// `wanted`, shrunk to `available` less the frame allowance (never below 320x240).
QSize fit_to_available(QSize wanted, QSize available);

// The available size of the screen `window` is on (the primary screen before it is shown).
QSize available_screen_size(const QWidget& window);

// Resizes `window` to `wanted` fitted to its screen.
void resize_to_screen(QWidget& window, QSize wanted);

// The Metrics dock's first height in a main window of `window` size (`bars`: menu, tool and status bars;
// `controls_width`: the Controls dock). The field keeps half the window where it can; with charts
// (counters available) the readouts, the verdict and one row of charts are in view even at 1280x720, and a screen of
// 1000 rows or more gets a full row of charts.
int metrics_dock_height(QSize window, int bars, int controls_width, bool charts);

} // namespace ss::gui
