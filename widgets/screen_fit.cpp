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

int metrics_dock_height(QSize window, int bars, int controls_width, bool charts) {
    const int width = window.width(), height = window.height();
    const int field_width = std::max(width - controls_width - 40, 1); // dock separators, frames, scroll bar
    const int field_height = (width * height / 2 + field_width - 1) / field_width + 12;
    // 110 px: the readouts. With charts, 320 px: the readouts, two lines of verdict and one chart (190 px at
    // least) without scrolling, at the field's expense on a projector; at most 360 px, more (420) on a tall
    // screen, where the area rule would leave the charts 90 px and the field still keeps 40 % of the window.
    if (!charts) return 110;
    int metrics_height = std::clamp(height - bars - field_height, 320, 360);
    if (height >= 1000) metrics_height = std::max(metrics_height, 420);
    return std::min(metrics_height, std::max(height - bars - 200, 110)); // the field keeps 200 px at least
}

} // namespace ss::gui
