// SPDX-License-Identifier: MIT
// "Write the kernel" (issue 38): an editor prefilled with a complete 2D star kernel (the window's radius and
// precision, jacobi rule, the app's weights written in) whose marked body the student edits. "Check and time"
// hands the text to the Session (a KernelExercise job on the engine thread: NVRTC, the CPU reference, CUDA
// events; the window never waits); a compile error tints its lines and shows NVRTC's log, a run shows pass or
// fail and the kernel's GCells/s beside the built-in base kernel's. Without a GPU it only compiles; without
// NVRTC (a CPU-only build) the button is off and says why.
#pragma once

#include "session/engine_types.h"

#include <QDialog>

#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace ss::gui {

class CodeEditor;
class Session;

class KernelExerciseDialog : public QDialog {
    Q_OBJECT
public:
    explicit KernelExerciseDialog(Session&, QWidget* parent = nullptr);
    QString text() const;
    void set_text(const QString&);
    // Starts the check, as the button does; false when it cannot start (the reason shows).
    bool check();
    // Shows a result as when the engine's job comes back.
    void show_result(const KernelExerciseResult&);
    const std::vector<int>& marked_lines() const;
    QString result_text() const;
    QString log_text() const;
    bool check_enabled() const;

private:
    void reset_to_template();
    void on_finished(const JobOutcome&);

    Session& m_session;
    StencilConfig m_config;
    CodeEditor* m_editor;
    QLabel* m_about;
    QLabel* m_result;
    QPlainTextEdit* m_log;
    QPushButton* m_check;
    QString m_unavailable; // no NVRTC: nothing can be compiled here
    std::uint64_t m_job = 0;
};

// Opens the window's dialog (one per window), or raises it.
void open_kernel_exercise(Session&, QWidget* window);

} // namespace ss::gui
