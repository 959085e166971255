// SPDX-License-Identifier: MIT
// The Lesson dock: the open lesson's explanation (plain text: it comes from a file) and its recorded
// runs; hidden until a lesson opens, whatever a restored layout says.
#pragma once
#include <QDockWidget>

class QLabel;

namespace ss::gui {

class Session;

class LessonDock : public QDockWidget {
    Q_OBJECT
public:
    LessonDock(Session&, QWidget* parent);
    // What the dock shows; empty while it is hidden.
    QString text() const;

private:
    QLabel* m_label = nullptr;
};

} // namespace ss::gui
