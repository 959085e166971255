// SPDX-License-Identifier: MIT
// A plain-text code editor: monospace, line numbers in a margin, and lines marked (a compile error's) with a
// tinted background. For the "write the kernel" exercise.
#pragma once

#include <QPlainTextEdit>

#include <vector>

namespace ss::gui {

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeEditor(QWidget* parent = nullptr);
    // Tints these 1-based lines (and moves the cursor to the first); an empty list clears the marks.
    void mark_lines(const std::vector<int>& lines);
    const std::vector<int>& marked_lines() const { return m_marked; }
    int line_number_width() const;
    void paint_line_numbers(QPaintEvent*);

protected:
    void resizeEvent(QResizeEvent*) override;

private:
    QWidget* m_numbers;
    std::vector<int> m_marked;
};

} // namespace ss::gui
