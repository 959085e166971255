// SPDX-License-Identifier: MIT
// Small helpers the control panels share: named widgets (tests and tooltips find knobs by name), combo
// boxes that hold enum values, a row of widgets in a form, a caption inside such a row, a compact form.
#pragma once
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QString>

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace ss::gui::form {

inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

template <typename W> W* named(W* w, const char* name) {
    w->setObjectName(QLatin1String(name));
    return w;
}

template <typename E> void select_data(QComboBox* box, E value) {
    box->setCurrentIndex(std::max(box->findData(int(value)), 0));
}

template <typename E> E current(const QComboBox* box) {
    return E(box->currentData().toInt());
}

inline QHBoxLayout* row(std::initializer_list<QWidget*> widgets) {
    auto* l = new QHBoxLayout;
    l->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : widgets) l->addWidget(w);
    return l;
}

// A caption inside a row ("CF" between the radius and the CF boxes), bound to the box it names.
inline QLabel* caption(const QString& text, QWidget* buddy) {
    auto* label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}

// A form whose rows sit closer than the style's default, so that every knob of the control panel fits a
// projector's window (1280x720, or the 1264x672 a 1280x720 screen leaves) without scrolling, and the panel
// is narrow enough there for the field to keep half the window; the font keeps its size.
inline QFormLayout* compact_form(QWidget* owner) {
    auto* form = new QFormLayout(owner);
    form->setVerticalSpacing(4);
    form->setContentsMargins(6, 4, 6, 6);
    return form;
}

} // namespace ss::gui::form
