// SPDX-License-Identifier: MIT
// Under the stencil picker (issue 34): a drawing of the stencil the Session runs, its size and arithmetic intensity
// ("25 points · 49 flop/cell · 3.06 flop/B (ideal)" in fp64, from gpu/problem/arithmetic_intensity.h), and "Edit…",
// which opens the stencil editor on it. One row no higher than a button, so that the control panel still fits 1280x720.
// The editor's stencil is handed on with shape_accepted(); the control panel chooses it in the picker, as a file's
// stencil is chosen, and the picker's choice goes to the Session.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/stencil_shape.h"

#include <QWidget>

class QLabel;
class QToolButton;

namespace ss::gui {

class Session;
class StencilDrawing;

// "N points · F flop/cell · I flop/B (ideal)" for the stencil of `c`, and the tooltip that explains it.
QString stencil_facts_text(const StencilConfig& c);
QString arithmetic_intensity_tooltip();

class StencilOverview : public QWidget {
    Q_OBJECT
public:
    explicit StencilOverview(Session& session, QWidget* parent = nullptr);
    // Shows the stencil of `c` (the Session's configuration follows here by itself).
    void show_config(const StencilConfig& c);
    QString facts() const; // as shown: "N points · F flop/cell", a line break, "I flop/B (ideal)"
    StencilDrawing* drawing() const { return m_drawing; }

signals:
    // The editor's OK: a checked point stencil to run.
    void shape_accepted(const ss::StencilShape&);

private:
    void open_editor();

    StencilConfig m_config;
    StencilDrawing* m_drawing;
    QLabel* m_facts;
    QToolButton* m_edit;
};

} // namespace ss::gui
