// SPDX-License-Identifier: MIT
// Help: the user guide (the copy the package installs, else the source tree's), the list of keyboard
// shortcuts (read from the window's actions, so it never disagrees with them) and About.
#pragma once

#include <QString>

class QMainWindow;
class QWidget;

namespace ss::gui {

// The user guide's path: DATADIR/doc/stencilscope/USER_GUIDE.md beside the installed program, else the
// source tree's docs/USER_GUIDE.md; "" when neither exists.
QString user_guide_path();
// Adds the Help menu to `window`; `cuda_support` is what About says about the driver, NVRTC and CUPTI.
void build_help_menu(QMainWindow& window, const QString& cuda_support);
// The window's actions that have a shortcut, as "shortcut<TAB>what it does" lines in menu order.
QStringList shortcut_lines(const QWidget& window);

} // namespace ss::gui
