// SPDX-License-Identifier: MIT
#include "widgets/screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace ss::gui {

QSize fit_to_available(QSize wanted, QSize available) {
    if (available.isEmpty()) return wanted; // no screen known: as designed
    const QSize room = available - kWindowFrameAllowance;
    return { std::max(320, std::min(wanted.width(), room.width())),
        std::max(240, std::min(wanted.height(), room.height())) };
}

QSize available_screen_size(const QWidget& window) {
    const QScreen* screen = window.screen() ? window.screen() : QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry().size() : QSize();
}

void resize_to_screen(QWidget& window, QSize wanted) {
    window.resize(fit_to_available(wanted, available_screen_size(window)));
}

} // namespace ss::gui
