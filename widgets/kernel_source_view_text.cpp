// SPDX-License-Identifier: MIT
// The kernel source view's text panes: marked lines and the side-by-side diff (reports/line_diff.h).
#include "reports/line_diff.h"
#include "widgets/kernel_source_view.h"

#include <QPlainTextEdit>
#include <QTextBlock>

namespace ss::gui {
namespace {

QTextEdit::ExtraSelection line_selection(QPlainTextEdit* edit, int line, const QTextCharFormat& format) {
    QTextEdit::ExtraSelection s;
    s.cursor = QTextCursor(edit->document()->findBlockByNumber(line));
    s.format = format;
    s.format.setProperty(QTextFormat::FullWidthSelection, true);
    return s;
}

std::vector<std::string> lines_to_show(const MarkedText& t, bool active_only) {
    std::vector<std::string> all = split_lines(t.text.toStdString());
    if (!active_only) return all;
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (i < t.active.size() && t.active[i]) kept.push_back(all[i]);
    return kept;
}

} // namespace

QColor line_mark_colour(LineMark m) {
    switch (m) {
    case LineMark::Knob:
        return QColor(255, 236, 153); // yellow
    case LineMark::SharedTile:
        return QColor(190, 225, 255); // blue
    case LineMark::Coarsening:
        return QColor(200, 240, 200); // green
    case LineMark::TemporalStages:
        return QColor(245, 205, 245); // violet
    case LineMark::PlaneLoop:
        return QColor(255, 215, 180); // orange
    case LineMark::None:
        break;
    }
    return {};
}

void show_marked_text(QPlainTextEdit* edit, const MarkedText& text) {
    edit->setPlainText(text.text);
    QList<QTextEdit::ExtraSelection> selections;
    for (int i = 0; i < int(text.marks.size()); ++i) {
        const bool dropped = i < int(text.active.size()) && !text.active[std::size_t(i)];
        if (text.marks[std::size_t(i)] == LineMark::None && !dropped) continue;
        QTextCharFormat f;
        if (text.marks[std::size_t(i)] != LineMark::None && !dropped)
            f.setBackground(line_mark_colour(text.marks[std::size_t(i)]));
        if (dropped) f.setForeground(QColor(150, 150, 150));
        selections << line_selection(edit, i, f);
    }
    edit->setExtraSelections(selections);
}

int show_side_by_side(
    QPlainTextEdit* left, QPlainTextEdit* right, const MarkedText& a, const MarkedText& b, bool active_only) {
    const std::vector<std::string> la = lines_to_show(a, active_only), lb = lines_to_show(b, active_only);
    const std::vector<DiffRow> rows = side_by_side(diff_lines(la, lb));
    QStringList left_lines, right_lines;
    for (const DiffRow& r : rows) {
        left_lines << (r.left >= 0 ? QString::fromStdString(la[std::size_t(r.left)]) : QString());
        right_lines << (r.right >= 0 ? QString::fromStdString(lb[std::size_t(r.right)]) : QString());
    }
    left->setPlainText(left_lines.join(QLatin1Char('\n')));
    right->setPlainText(right_lines.join(QLatin1Char('\n')));
    QTextCharFormat removed, added, absent;
    removed.setBackground(QColor(255, 205, 205));
    added.setBackground(QColor(205, 245, 205));
    absent.setBackground(QColor(235, 235, 235));
    QList<QTextEdit::ExtraSelection> left_marks, right_marks;
    int differing = 0;
    for (int i = 0; i < int(rows.size()); ++i) {
        const DiffRow& r = rows[std::size_t(i)];
        if (!r.changed()) continue;
        ++differing;
        left_marks << line_selection(left, i, r.left >= 0 ? removed : absent);
        right_marks << line_selection(right, i, r.right >= 0 ? added : absent);
    }
    left->setExtraSelections(left_marks);
    right->setExtraSelections(right_marks);
    return differing;
}

} // namespace ss::gui
