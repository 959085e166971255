// SPDX-License-Identifier: MIT
#include "widgets/code_editor.h"

#include <QFontDatabase>
#include <QPainter>
#include <QTextBlock>

#include <algorithm>

namespace ss::gui {
namespace {

class LineNumbers : public QWidget {
public:
    explicit LineNumbers(CodeEditor* editor)
        : QWidget(editor)
        , m_editor(editor) { }
    QSize sizeHint() const override { return { m_editor->line_number_width(), 0 }; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paint_line_numbers(event); }

private:
    CodeEditor* m_editor;
};

} // namespace

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_numbers(new LineNumbers(this)) {
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    connect(
        this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(line_number_width(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy)
            m_numbers->scroll(0, dy);
        else
            m_numbers->update(0, rect.y(), m_numbers->width(), rect.height());
    });
    // An edit moves lines: the marks belong to the text NVRTC saw, so they go with the first keystroke.
    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_marked.empty()) mark_lines({});
    });
    setViewportMargins(line_number_width(), 0, 0, 0);
}

int CodeEditor::line_number_width() const {
    int digits = 1;
    for (int n = std::max(1, blockCount()); n >= 10; n /= 10) ++digits;
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_numbers->setGeometry(QRect(r.left(), r.top(), line_number_width(), r.height()));
}

void CodeEditor::paint_line_numbers(QPaintEvent* event) {
    QPainter p(m_numbers);
    p.fillRect(event->rect(), palette().alternateBase());
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        const int line = block.blockNumber() + 1;
        const bool marked = std::find(m_marked.begin(), m_marked.end(), line) != m_marked.end();
        p.setPen(marked ? QColor(200, 0, 0) : palette().color(QPalette::PlaceholderText));
        p.drawText(0, top, m_numbers->width() - 4, fontMetrics().height(), Qt::AlignRight, QString::number(line));
        block = block.next();
        top = bottom;
    }
}

void CodeEditor::mark_lines(const std::vector<int>& lines) {
    m_marked = lines;
    QList<QTextEdit::ExtraSelection> selections;
    for (int line : lines) {
        const QTextBlock block = document()->findBlockByNumber(line - 1);
        if (!block.isValid()) continue;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(QColor(255, 90, 90, 70));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
    }
    setExtraSelections(selections);
    if (!lines.empty()) {
        const QTextBlock first = document()->findBlockByNumber(lines.front() - 1);
        if (first.isValid()) {
            setTextCursor(QTextCursor(first));
            ensureCursorVisible();
        }
    }
    m_numbers->update();
}

} // namespace ss::gui
