// SPDX-License-Identifier: MIT
// The status bar: what is under the cursor, and the run's device, frame path, FPS, steps/s, GCells/s and
// iteration. It follows the session and the view; the path label also decides, from the view's GL state,
// whether frames may stay on the device (interop) and tells the session.
#pragma once

#include <QElapsedTimer>
#include <QStatusBar>

class QLabel;

namespace ss::gui {

class FieldView;
class Session;

class RunStatusBar : public QStatusBar {
    Q_OBJECT
public:
    RunStatusBar(Session&, FieldView&, QWidget* parent = nullptr);
    // "CUDA-GL interop (texture)" or "host copy (why)".
    QString interop_text() const;
    void update_interop();
    // A standing one-line warning at the left (the GPU asked for is not usable), the whole story in its
    // tooltip; empty: none.
    void set_notice(const QString& text, const QString& details);
    QString notice() const;

private:
    QLabel* permanent(const char* name, int min_width);

    Session& m_session;
    FieldView& m_view;
    QLabel *m_notice, *m_hover, *m_device, *m_path, *m_fps, *m_steps, *m_gcells, *m_iteration;
    QElapsedTimer m_iteration_clock; // since the iteration label was last set from a frame
};

} // namespace ss::gui
