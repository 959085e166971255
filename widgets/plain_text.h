// SPDX-License-Identifier: MIT
// Strings that came from outside the program (a sweep CSV, a setup file, the command line, the device or a
// driver) are shown as plain text wherever they appear. Qt guesses rich text in QLabel (Qt::AutoText), in
// tooltips and in QMessageBox, and Qt Charts draws titles, legends and axis labels as HTML: a series named
// `<img src="/some/file">` would make the window read that file. Each kind of site has its helper here.
#pragma once

#include <QString>

class QLabel;
class QWidget;

namespace ss::gui {

// `label` set to show its text as plain text, whatever it holds; returns it (for member initialisers).
QLabel* plain_label(QLabel* label);
// For Qt Charts (chart titles, series and bar set names, axis titles and category labels), which render HTML:
// the text escaped so that it reads as given.
QString chart_text(const QString& text);
// For setToolTip, which guesses rich text: text that Qt would take for markup is converted to HTML that shows
// it as given; other text is returned unchanged.
QString tooltip_text(const QString& text);
// A QMessageBox::warning whose text is plain text.
void warn_plain(QWidget* parent, const QString& title, const QString& text);

} // namespace ss::gui
