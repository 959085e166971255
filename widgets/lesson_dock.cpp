// SPDX-License-Identifier: MIT
#include "widgets/lesson_dock.h"

#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/lesson_exercise_box.h"
#include "widgets/lesson_runs_chart.h"
#include "widgets/screen_fit.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QMainWindow>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

static void init_lesson_pictures() {
    Q_INIT_RESOURCE(lesson_pictures);
}

namespace ss::gui {
namespace {

// The recorded window, scaled to fit whatever size its dialog has (aspect kept): the whole picture at
// once, no scroll bars.
class ScaledPicture : public QWidget {
public:
    explicit ScaledPicture(const QPixmap& picture)
        : m_picture(picture) {
        setObjectName(QStringLiteral("lesson_picture"));
        setMinimumSize(320, 180);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    const QPixmap& pixmap() const { return m_picture; }
    QRect shown_rect() const { return scaled_picture_rect(m_picture.size(), size()); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        p.drawPixmap(shown_rect(), m_picture);
    }

private:
    QPixmap m_picture;
};

} // namespace

QRect scaled_picture_rect(QSize picture, QSize area) {
    const QSize size = picture.scaled(area, Qt::KeepAspectRatio);
    return { QPoint((area.width() - size.width()) / 2, (area.height() - size.height()) / 2), size };
}

QString recorded_lesson_picture(const QString& lesson_id) {
    init_lesson_pictures();
    const QString path = QStringLiteral(":/lesson-pictures/%1.png").arg(lesson_id);
    return !lesson_id.isEmpty() && QFile::exists(path) ? path : QString();
}

LessonDock::LessonDock(Session& session, QWidget* parent)
    : QDockWidget(tr("Lesson"), parent)
    , m_label(new QLabel)
    , m_picture_button(new QPushButton(tr("The window as recorded on the H100…")))
    , m_model_button(new QPushButton(tr("EBISU's model vs depth…")))
    , m_runs_chart(new LessonRunsChart)
    , m_exercises(new LessonExerciseBox(session)) {
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
    layout->addWidget(m_exercises);
    layout->addStretch();
    auto* scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the text wraps
    // The text scrolls; the recorded runs' chart and the buttons below it stay in view.
    auto* column = new QWidget;
    auto* column_layout = new QVBoxLayout(column);
    column_layout->setContentsMargins(0, 0, 0, 0);
    column_layout->addWidget(scroll, 1);
    column_layout->addWidget(m_runs_chart);
    column_layout->addWidget(m_picture_button, 0, Qt::AlignLeft);
    column_layout->addWidget(m_model_button, 0, Qt::AlignLeft);
    auto* write_kernel = new QPushButton(tr("Write the kernel…"));
    write_kernel->setObjectName(QStringLiteral("lesson_write_kernel_button"));
    write_kernel->setToolTip(tr("Edit a 2D star kernel, check it against the CPU reference and time it beside the "
                                "built-in one"));
    connect(write_kernel, &QPushButton::clicked, this, &LessonDock::kernel_exercise_requested);
    column_layout->addWidget(write_kernel, 0, Qt::AlignLeft);
    column->setMinimumHeight(240); // a floating or bottom dock still shows text and a chart, not a strip
    setWidget(column);
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
        m_runs_chart->show_cases(recorded_cases(l.id), recorded.device.isEmpty() ? tr("the H100") : recorded.device);
        m_exercises->show_lesson(l.id);
        const bool was_hidden = isHidden();
        show();
        raise();
        // A column beside the field, as wide as reading needs: the text, the chart of the recorded runs.
        auto* window = qobject_cast<QMainWindow*>(parentWidget());
        if (was_hidden && window && !isFloating() && window->dockWidgetArea(this) == Qt::LeftDockWidgetArea)
            window->resizeDocks({ this }, { std::clamp(window->width() * 28 / 100, 300, 460) }, Qt::Horizontal);
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
    auto* picture = new ScaledPicture(QPixmap(m_picture));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(picture, 1);
    layout->addWidget(buttons);
    // As large as the screen allows (a recorded window is 1280 px wide or more), resizable, always whole.
    resize_to_screen(*dialog, picture->pixmap().size() + QSize(24, 60));
    dialog->show();
}

} // namespace ss::gui
