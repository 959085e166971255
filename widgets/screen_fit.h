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

} // namespace ss::gui
