// SPDX-License-Identifier: MIT
#include "widgets/lesson_dock.h"

#include "session/session.h"

#include <QLabel>
#include <QScrollArea>

namespace ss::gui {

LessonDock::LessonDock(Session& session, QWidget* parent)
    : QDockWidget(tr("Lesson"), parent)
    , m_label(new QLabel) {
    setObjectName(QStringLiteral("lesson_dock"));
    m_label->setObjectName(QStringLiteral("lesson_text"));
    m_label->setTextFormat(Qt::PlainText); // text from a file: never rich text (no resource loading)
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setMargin(6);
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_label);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    setWidget(scroll);
    hide();
    connect(&session, &Session::lesson_changed, this, [this, &session](const Lesson& l) {
        setWindowTitle(l.title.isEmpty() ? tr("Lesson") : tr("Lesson: %1").arg(l.title));
        m_label->setText(lesson_dock_text(l, session.requested().config.placement.backend == Backend::Cpu));
        show();
    });
}

QString LessonDock::text() const {
    return isHidden() ? QString() : m_label->text();
}

} // namespace ss::gui
