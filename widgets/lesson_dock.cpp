// SPDX-License-Identifier: MIT
#include "widgets/lesson_dock.h"

#include "session/session.h"
#include "session/setup_file.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

static void init_lesson_pictures() {
    Q_INIT_RESOURCE(lesson_pictures);
}

namespace ss::gui {

QString recorded_lesson_picture(const QString& lesson_id) {
    init_lesson_pictures();
    const QString path = QStringLiteral(":/lesson-pictures/%1.png").arg(lesson_id);
    return !lesson_id.isEmpty() && QFile::exists(path) ? path : QString();
}

LessonDock::LessonDock(Session& session, QWidget* parent)
    : QDockWidget(tr("Lesson"), parent)
    , m_label(new QLabel)
    , m_picture_button(new QPushButton(tr("The window as recorded on the H100…")))
    , m_model_button(new QPushButton(tr("EBISU's model vs depth…"))) {
    setObjectName(QStringLiteral("lesson_dock"));
    m_label->setObjectName(QStringLiteral("lesson_text"));
    m_label->setTextFormat(Qt::PlainText); // text from a file: never rich text (no resource loading)
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_label->setMargin(6);
    m_picture_button->setObjectName(QStringLiteral("lesson_picture_button"));
    m_picture_button->setToolTip(tr("What this lesson looked like in StencilScope on an H100, recorded with the app"));
    connect(m_picture_button, &QPushButton::clicked, this, &LessonDock::show_recorded_picture);
    m_model_button->setObjectName(QStringLiteral("lesson_model_button"));
    m_model_button->setToolTip(tr("EBISU's performance model drawn against the depth, with the depth sweep's measured "
                                  "points on it (Tools > Experiments, EBISU model tab)"));
    connect(m_model_button, &QPushButton::clicked, this, &LessonDock::model_chart_requested);
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_picture_button, 0, Qt::AlignLeft);
    layout->addWidget(m_model_button, 0, Qt::AlignLeft);
    layout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    setWidget(scroll);
    hide();
    connect(&session, &Session::lesson_changed, this, [this, &session](const Lesson& l) {
        setWindowTitle(l.title.isEmpty() ? tr("Lesson") : tr("Lesson: %1").arg(l.title));
        m_label->setText(lesson_dock_text(
            l, session.requested().config.placement.backend == Backend::Cpu, session.devices().count()));
        m_picture = recorded_lesson_picture(l.id);
        m_picture_button->setVisible(!m_picture.isEmpty());
        const LessonRecording recorded = lesson_recording(l.id);
        m_recorded_on = recorded.device.isEmpty() ? tr("the H100") : recorded.device;
        m_picture_button->setText(tr("The window as recorded on %1…").arg(m_recorded_on));
        if (!recorded.placement.isEmpty()) m_recorded_on += QStringLiteral(", ") + recorded.placement;
        m_model_button->setVisible(session.requested().config.policy.variant == Variant::Temporal);
        show();
    });
}

QString LessonDock::text() const {
    return isHidden() ? QString() : m_label->text();
}

void LessonDock::show_recorded_picture() {
    if (m_picture.isEmpty()) return;
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("lesson_picture_dialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("%1 — recorded on %2").arg(windowTitle(), m_recorded_on));
    auto* picture = new QLabel;
    picture->setObjectName(QStringLiteral("lesson_picture"));
    picture->setPixmap(QPixmap(m_picture));
    auto* scroll = new QScrollArea;
    scroll->setWidget(picture);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(scroll);
    layout->addWidget(buttons);
    dialog->resize(1000, 640);
    dialog->show();
}

} // namespace ss::gui
