// SPDX-License-Identifier: MIT
// Starting Qt where no window can open (no display, an unknown QT_QPA_PLATFORM) ends in Qt's own
// multi-line abort. The guard turns that into the programs' one line on stderr and exit code 2, and lets
// runs that draw no window (--sweep-png) start on the offscreen platform.
#pragma once

namespace ss::gui {

// Call before QApplication is constructed; `needs_window` false selects the offscreen platform.
void guard_platform_start(bool needs_window);

// Call once QApplication exists: Qt's messages go back to their usual handler.
void end_platform_guard();

} // namespace ss::gui
