// SPDX-License-Identifier: MIT
#include "widgets/plain_text.h"

#include <QLabel>
#include <QMessageBox>
#include <QTextDocument>

namespace ss::gui {

QLabel* plain_label(QLabel* label) {
    label->setTextFormat(Qt::PlainText);
    return label;
}

QString chart_text(const QString& text) {
    return text.toHtmlEscaped();
}

QString tooltip_text(const QString& text) {
    // Plain text that Qt does not take for markup is shown as it is (newlines kept, long lines unwrapped).
    if (!Qt::mightBeRichText(text)) return text;
    return Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

void warn_plain(QWidget* parent, const QString& title, const QString& text) {
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace ss::gui
