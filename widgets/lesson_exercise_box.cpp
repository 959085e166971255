// SPDX-License-Identifier: MIT
#include "widgets/lesson_exercise_box.h"

#include "session/session.h"
#include "session/setup_file.h"

#include <QButtonGroup>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace ss::gui {

LessonExerciseBox::LessonExerciseBox(Session& session, QWidget* parent)
    : QGroupBox(tr("Try it yourself"), parent)
    , m_session(session)
    , m_rows_widget(new QWidget)
    , m_rows_layout(new QVBoxLayout(m_rows_widget))
    , m_unavailable(new QLabel) {
    setObjectName(QStringLiteral("lesson_exercises"));
    m_unavailable->setObjectName(QStringLiteral("lesson_exercises_unavailable"));
    m_unavailable->setWordWrap(true);
    m_unavailable->setTextFormat(Qt::PlainText);
    m_rows_layout->setContentsMargins(0, 0, 0, 0);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_unavailable);
    layout->addWidget(m_rows_widget);
    hide();
    connect(&session, &Session::job_progress, this, &LessonExerciseBox::on_progress);
    connect(&session, &Session::job_finished, this, &LessonExerciseBox::on_finished);
    connect(&session, &Session::ready, this, [this] { update_buttons(); }); // the backend may have changed
}

void LessonExerciseBox::show_lesson(const QString& lesson_id) {
    for (Row& row : m_rows) row.group->deleteLater();
    m_rows.clear();
    while (QLayoutItem* item = m_rows_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_job = 0, m_job_row = -1;
    QString why;
    m_lesson_path = lesson_id.isEmpty() ? QString() : setup_path_for(QStringLiteral("lesson:") + lesson_id, &why);
    std::vector<LessonExercise> exercises;
    if (!m_lesson_path.isEmpty() && !read_lesson_exercises(m_lesson_path, exercises, &why))
        qWarning("lesson %s: %s", qPrintable(lesson_id), qPrintable(why));
    for (std::size_t i = 0; i < exercises.size(); ++i) {
        Row row;
        row.exercise = exercises[i];
        auto* question = new QLabel(row.exercise.question);
        question->setWordWrap(true);
        question->setTextFormat(Qt::PlainText); // from a file
        m_rows_layout->addWidget(question);
        row.group = new QButtonGroup(this);
        for (const QString& choice : row.exercise.choices) {
            auto* button = new QRadioButton(choice);
            button->setObjectName(QStringLiteral("exercise_%1_choice").arg(i));
            row.group->addButton(button);
            m_rows_layout->addWidget(button);
        }
        row.run = new QPushButton(tr("Run and check"));
        row.run->setObjectName(QStringLiteral("exercise_%1_run").arg(i));
        row.run->setToolTip(tr("Measures each choice on this GPU (the live run pauses meanwhile) and says whether your "
                               "prediction was right"));
        m_rows_layout->addWidget(row.run, 0, Qt::AlignLeft);
        row.result = new QLabel;
        row.result->setObjectName(QStringLiteral("exercise_%1_result").arg(i));
        row.result->setWordWrap(true);
        row.result->setTextFormat(Qt::PlainText);
        row.result->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_rows_layout->addWidget(row.result);
        const int index = int(i);
        connect(row.run, &QPushButton::clicked, this, [this, index] { run(index); });
        connect(row.group, &QButtonGroup::buttonClicked, this, [this] { update_buttons(); });
        m_rows.push_back(row);
    }
    setVisible(!m_rows.empty());
    update_buttons();
}

QString LessonExerciseBox::unavailable_text() const {
    return prediction_unavailable(m_session.requested().config.placement.backend);
}

void LessonExerciseBox::update_buttons() {
    const QString unavailable = unavailable_text();
    m_unavailable->setText(unavailable);
    m_unavailable->setVisible(!unavailable.isEmpty());
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const bool running = m_job != 0;
        m_rows[i].run->setEnabled(unavailable.isEmpty() && !running && !chosen(int(i)).isEmpty());
        m_rows[i].run->setToolTip(unavailable.isEmpty() ? tr("Measures each choice on this GPU (the live run pauses "
                                                             "meanwhile) and says whether your prediction was right")
                                                        : unavailable);
    }
}

QString LessonExerciseBox::chosen(int index) const {
    if (index < 0 || index >= int(m_rows.size())) return {};
    const QAbstractButton* button = m_rows[std::size_t(index)].group->checkedButton();
    return button ? button->text().remove(QLatin1Char('&')) : QString();
}

void LessonExerciseBox::choose(int index, const QString& choice) {
    if (index < 0 || index >= int(m_rows.size())) return;
    for (QAbstractButton* button : m_rows[std::size_t(index)].group->buttons())
        if (button->text().remove(QLatin1Char('&')) == choice) button->setChecked(true);
    update_buttons();
}

bool LessonExerciseBox::run(int index) {
    if (index < 0 || index >= int(m_rows.size()) || chosen(index).isEmpty()) return false;
    Row& row = m_rows[std::size_t(index)];
    if (const QString unavailable = unavailable_text(); !unavailable.isEmpty()) {
        row.result->setText(unavailable);
        return false;
    }
    std::vector<LessonRun> runs;
    QString why;
    if (!read_lesson_runs(m_lesson_path, m_session.requested(), runs, &why)) {
        row.result->setText(why);
        return false;
    }
    JobRequest r;
    r.kind = JobRequest::Kind::Compare;
    r.compare = exercise_requests(row.exercise, runs);
    m_job = m_session.start_job(r);
    if (m_job == 0) {
        row.result->setText(tr("Another job (an autotune or a sweep) is running: try again when it has finished."));
        return false;
    }
    m_job_row = index;
    row.result->setText(tr("Measuring %1 configurations on the GPU (the live run pauses)…").arg(r.compare.size()));
    update_buttons();
    return true;
}

void LessonExerciseBox::on_progress(const JobProgress& p) {
    if (p.id != m_job || m_job_row < 0) return;
    m_rows[std::size_t(m_job_row)].result->setText(
        tr("Measuring %1 (%2 of %3)…").arg(QString::fromStdString(p.what)).arg(p.done + 1).arg(p.total));
}

void LessonExerciseBox::on_finished(const JobOutcome& o) {
    if (o.id != m_job || m_job_row < 0) return;
    const int row = m_job_row;
    m_job = 0, m_job_row = -1;
    if (!o.error.empty())
        m_rows[std::size_t(row)].result->setText(tr("The run failed: %1").arg(QString::fromStdString(o.error)));
    else if (o.cancelled)
        m_rows[std::size_t(row)].result->setText(tr("Cancelled."));
    else
        show_results(row, o.compared);
    update_buttons();
}

void LessonExerciseBox::show_results(int index, const std::vector<ComparedRun>& runs) {
    if (index < 0 || index >= int(m_rows.size())) return;
    Row& row = m_rows[std::size_t(index)];
    row.result->setText(check_prediction(row.exercise, chosen(index), runs).text);
}

QString LessonExerciseBox::result_text(int index) const {
    return index >= 0 && index < int(m_rows.size()) ? m_rows[std::size_t(index)].result->text() : QString();
}

bool LessonExerciseBox::run_enabled(int index) const {
    return index >= 0 && index < int(m_rows.size()) && m_rows[std::size_t(index)].run->isEnabled();
}

} // namespace ss::gui
