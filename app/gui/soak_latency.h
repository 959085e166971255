// SPDX-License-Identifier: MIT
// The soak's latency record (issue 40): the time from a scene's last knob to the first frame of its configuration on
// screen, where the engine and the window spent it, and the report of the distribution and the slowest changes.
#pragma once

#include "session/engine_types.h"
#include "widgets/field_canvas.h"

#include <QSize>

#include <ostream>
#include <vector>

namespace ss::gui {

// Time from a scene's last knob to the first frame of its configuration on screen (issue 40), and where the engine
// thread spent it.
struct SceneLatency {
    double ms = 0.0;
    bool cached = false; // every kernel came from the kernel cache
    bool warm = false; // after the warm-up round
    int change = 0; // the soak's change number (1, 2, ...); scene (change - 1) % round + 1
    SwitchTimes engine;
    double ready_ms = -1.0; // when the window heard the engine was ready (from the knob); < 0: it never did
    double sent_ms = -1.0; // when the engine handed over the configuration's first frame
    double received_ms = -1.0; // when the window's event loop took it (the rest until `ms` is upload and paint)
    QSize view_before, view_after; // the field view's size at the knob and at the frame (a layout change resizes it)
    GlCanvas::PaintTimes paint; // the canvas's longest paint and frame upload in between
    double longest_stall_ms = 0.0; // the GUI thread's longest time away from its event loop in between
};

// The distribution after the warm-up round, cached and newly built kernels apart, the slowest three changes over 50 ms
// (scene numbers within a round of `round` scenes) and the warm-up round's builds.
void print_latencies(const std::vector<SceneLatency>& all, int round, std::ostream& out);

} // namespace ss::gui
