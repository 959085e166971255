// SPDX-License-Identifier: MIT
// The control panel's tooltips, worded as a teacher would say them: what the knob changes in the
// kernel and what to watch when it moves. Apart from the panel so that the texts read as one piece.
#pragma once

#include <QString>

class QWidget;

namespace ss::gui {

// The tooltip of the knob named `name` (its objectName), or "" when it has none.
QString teaching_tooltip(const QString& name);
// Sets every knob's tooltip under `panel` from teaching_tooltip.
void set_teaching_tooltips(QWidget* panel);

} // namespace ss::gui
