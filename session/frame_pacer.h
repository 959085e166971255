// SPDX-License-Identifier: MIT
// When to ask the engine for the next frame, and the frame rate the screen shows. Frames are due on a
// grid one interval apart (1000 / max FPS), so rounding and jitter do not add up; a frame takes its
// measured latency from request to screen, so it is asked for that early. QtCore only.
#pragma once

#include <QElapsedTimer>
#include <QObject>

namespace ss::gui {

class FramePacer : public QObject {
    Q_OBJECT
public:
    explicit FramePacer(QObject* parent = nullptr);

    // At most this many frames per second; <= 0: as many as the engine delivers.
    void set_max_fps(double);
    double max_fps() const { return m_interval_ms > 0.0 ? 1000.0 / m_interval_ms : 0.0; }
    // The view has put a frame on the screen: request_frame follows now or when the next one is due.
    void presented();
    // The engine is paused: the rate reads 0 until frames flow again.
    void paused();
    double fps() const { return m_fps; }

signals:
    void request_frame();
    void fps_changed(double fps); // about twice a second while frames flow

private:
    void request_now();

    QElapsedTimer m_fps_clock, m_request_clock, m_grid_clock;
    double m_interval_ms = 0.0;
    double m_latency_ms = 0.0; // request to screen, smoothed
    double m_next_due_ms = 0.0; // on m_grid_clock
    bool m_pending = false;
    int m_frames = 0;
    double m_fps = 0.0;
};

} // namespace ss::gui
