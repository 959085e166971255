// SPDX-License-Identifier: MIT
#include "session/frame_pacer.h"

#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ss::gui {

FramePacer::FramePacer(QObject* parent)
    : QObject(parent) {
    m_fps_clock.start();
    m_request_clock.start();
    m_grid_clock.start();
}

void FramePacer::set_max_fps(double fps) {
    m_interval_ms = fps > 0 ? 1000.0 / fps : 0.0;
}

void FramePacer::request_now() {
    m_request_clock.restart();
    emit request_frame();
}

void FramePacer::presented() {
    const double latency = m_request_clock.nsecsElapsed() / 1e6;
    m_latency_ms = m_latency_ms > 0.0 ? 0.8 * m_latency_ms + 0.2 * latency : latency;
    const double now = m_grid_clock.nsecsElapsed() / 1e6;
    m_next_due_ms = std::max(m_next_due_ms + m_interval_ms, now); // a late frame restarts the grid
    const double wait = m_next_due_ms - m_latency_ms - now;
    if (m_interval_ms <= 0.0 || wait < 0.5) {
        request_now();
    } else if (!m_pending) {
        m_pending = true;
        QTimer::singleShot(int(std::lround(wait)), Qt::PreciseTimer, this, [this] {
            m_pending = false;
            request_now();
        });
    }
    ++m_frames;
    const qint64 ms = m_fps_clock.elapsed();
    if (ms >= 500) {
        m_fps = m_frames * 1000.0 / double(ms);
        m_frames = 0;
        m_fps_clock.restart();
        emit fps_changed(m_fps);
    }
}

void FramePacer::paused() {
    m_fps = 0.0;
    m_frames = 0;
    m_fps_clock.restart();
    emit fps_changed(0.0);
}

} // namespace ss::gui
