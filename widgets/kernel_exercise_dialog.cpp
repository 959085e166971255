// SPDX-License-Identifier: MIT
#include "widgets/kernel_exercise_dialog.h"

#include "session/exercise_jobs.h"
#include "session/session.h"
#include "widgets/code_editor.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace ss::gui {
namespace {

QString lines_text(const std::vector<int>& lines) {
    QStringList numbers;
    for (int line : lines) numbers << QString::number(line);
    return numbers.join(QStringLiteral(", "));
}

} // namespace

KernelExerciseDialog::KernelExerciseDialog(Session& session, QWidget* parent)
    : QDialog(parent)
    , m_session(session)
    , m_config(exercise_config(session.requested().config))
    , m_editor(new CodeEditor)
    , m_about(new QLabel)
    , m_result(new QLabel)
    , m_log(new QPlainTextEdit)
    , m_check(new QPushButton)
    , m_unavailable(QString::fromStdString(kernel_exercise_unavailable())) {
    setObjectName(QStringLiteral("kernel_exercise_dialog"));
    setWindowTitle(tr("Write the kernel"));
    m_editor->setObjectName(QStringLiteral("kernel_exercise_editor"));
    m_result->setObjectName(QStringLiteral("kernel_exercise_result"));
    m_log->setObjectName(QStringLiteral("kernel_exercise_log"));
    m_check->setObjectName(QStringLiteral("kernel_exercise_check"));
    m_about->setWordWrap(true);
    m_about->setTextFormat(Qt::PlainText);
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("NVRTC's messages show here"));
    const Extent size = m_config.problem.size;
    const bool gpu = session.devices().has_cuda();
    QString about = tr("One step of the 2D star stencil, radius %1, jacobi rule, %2: edit the marked body. Check runs "
                       "it on random data against the CPU reference (double precision) and times it on a %3x%4 field "
                       "beside the built-in base kernel.")
                        .arg(m_config.problem.radius)
                        .arg(QString::fromStdString(std::string(to_string(m_config.problem.precision))))
                        .arg(size.nx)
                        .arg(size.ny);
    if (!m_unavailable.isEmpty())
        about += tr("\nNothing can be compiled here: %1").arg(m_unavailable);
    else if (!gpu)
        about += tr("\nThis machine has no CUDA GPU: Check compiles the kernel and shows its errors (NVRTC needs no "
                    "GPU); running it needs a GPU.");
    m_about->setText(about);
    m_check->setText(gpu ? tr("Check and time") : tr("Compile"));
    m_check->setEnabled(m_unavailable.isEmpty());
    m_check->setToolTip(m_unavailable.isEmpty() ? tr("Compiles the text with NVRTC, then (on a GPU) checks it against "
                                                     "the CPU reference and times it; the live run pauses meanwhile")
                                                : m_unavailable);
    auto* reset = new QPushButton(tr("Back to the template"));
    connect(reset, &QPushButton::clicked, this, &KernelExerciseDialog::reset_to_template);
    connect(m_check, &QPushButton::clicked, this, [this] { check(); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_check);
    buttons->addWidget(reset);
    buttons->addStretch();
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    buttons->addWidget(close);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_editor);
    split->addWidget(m_log);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_about);
    layout->addWidget(split, 1);
    layout->addWidget(m_result);
    layout->addLayout(buttons);
    resize(820, 640);
    reset_to_template();
    connect(&session, &Session::job_finished, this, &KernelExerciseDialog::on_finished);
}

QString KernelExerciseDialog::text() const {
    return m_editor->toPlainText();
}

void KernelExerciseDialog::set_text(const QString& text) {
    m_editor->setPlainText(text);
}

void KernelExerciseDialog::reset_to_template() {
    set_text(QString::fromStdString(exercise_template(m_config)));
    m_result->clear();
    m_log->clear();
}

bool KernelExerciseDialog::check() {
    if (!m_unavailable.isEmpty() || m_job != 0) return false;
    JobRequest r;
    r.kind = JobRequest::Kind::KernelExercise;
    r.config = m_config;
    r.kernel_text = text().toStdString();
    m_job = m_session.start_job(r);
    if (m_job == 0) {
        m_result->setText(tr("Another job (an autotune or a sweep) is running: try again when it has finished."));
        return false;
    }
    m_editor->mark_lines({});
    m_check->setEnabled(false);
    m_result->setText(m_session.devices().has_cuda() ? tr("Compiling, checking and timing (the live run pauses)…")
                                                     : tr("Compiling…"));
    return true;
}

void KernelExerciseDialog::on_finished(const JobOutcome& o) {
    if (o.id != m_job) return;
    m_job = 0;
    m_check->setEnabled(m_unavailable.isEmpty());
    if (o.exercise)
        show_result(*o.exercise);
    else
        m_result->setText(tr("The check could not run: %1").arg(QString::fromStdString(o.error)));
}

void KernelExerciseDialog::show_result(const KernelExerciseResult& r) {
    m_log->setPlainText(QString::fromStdString(r.log));
    m_editor->mark_lines(r.error_lines);
    if (!r.compiled) {
        m_result->setText(r.error_lines.empty()
                ? tr("It does not compile: see NVRTC's messages below.")
                : tr("It does not compile: NVRTC reports an error on line %1 (marked); its messages are below.")
                      .arg(lines_text(r.error_lines)));
        return;
    }
    if (!r.ran) {
        m_result->setText(tr("It compiles, but %1").arg(QString::fromStdString(r.not_run)));
        return;
    }
    QString text = (r.passed ? tr("Pass: ") : tr("Fail: ")) + QString::fromStdString(r.verdict);
    text += tr("\nYour kernel: %1 GCells/s; the built-in base kernel: %2 (%3x%4, %5)")
                .arg(r.ours_gcells_per_s, 0, 'f', 1)
                .arg(r.builtin_error.empty() ? tr("%1 GCells/s").arg(r.builtin_gcells_per_s, 0, 'f', 1)
                                             : tr("not timed: %1").arg(QString::fromStdString(r.builtin_error)))
                .arg(r.config.problem.size.nx)
                .arg(r.config.problem.size.ny)
                .arg(QString::fromStdString(r.device_name));
    m_result->setText(text);
}

const std::vector<int>& KernelExerciseDialog::marked_lines() const {
    return m_editor->marked_lines();
}

QString KernelExerciseDialog::result_text() const {
    return m_result->text();
}

QString KernelExerciseDialog::log_text() const {
    return m_log->toPlainText();
}

bool KernelExerciseDialog::check_enabled() const {
    return m_check->isEnabled();
}

void open_kernel_exercise(Session& session, QWidget* window) {
    auto* dialog = window->findChild<KernelExerciseDialog*>();
    if (!dialog) {
        dialog = new KernelExerciseDialog(session, window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

} // namespace ss::gui
