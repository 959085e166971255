// SPDX-License-Identifier: MIT
#include "app/gui/soak_latency.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ss::gui {
namespace {

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, std::size_t(std::lround(p * double(values.size() - 1))))];
}

// Issue 40 asks at most 50 ms for a cached kernel: how many changes took longer, and where the slowest three went, so a
// tail can be told from the engine (build wait, request to ready) or from the window (the rest).
void print_slowest(const std::vector<SceneLatency>& all, bool cached, int round, std::ostream& out) {
    std::vector<const SceneLatency*> slow;
    for (const SceneLatency& l : all)
        if (l.cached == cached && l.warm && l.ms > 50.0) slow.push_back(&l);
    if (slow.empty()) return;
    std::sort(slow.begin(), slow.end(), [](const SceneLatency* a, const SceneLatency* b) { return a->ms > b->ms; });
    out << "soak: " << slow.size() << " changes over 50 ms; the slowest:";
    for (std::size_t i = 0; i < std::min<std::size_t>(3, slow.size()); ++i) {
        const SceneLatency& l = *slow[i];
        char text[500];
        std::snprintf(text, sizeof text,
            " change %d (scene %d) %.0f ms (build wait %.0f, request to ready %.0f, ready in the window at %.0f, "
            "first frame sent at %.0f, taken by the window at %.0f, view %dx%d -> %dx%d, longest paint %.0f, "
            "upload %.0f, GUI thread stall %.0f)",
            l.change, (l.change - 1) % round + 1, l.ms, l.engine.build_wait_ms, l.engine.total_ms, l.ready_ms,
            l.sent_ms, l.received_ms, l.view_before.width(), l.view_before.height(), l.view_after.width(),
            l.view_after.height(), l.paint.paint_ms, l.paint.upload_ms, l.longest_stall_ms);
        out << (i ? ";" : "") << text;
    }
    out << std::endl;
}

} // namespace

void print_latencies(const std::vector<SceneLatency>& all, int round, std::ostream& out) {
    for (const bool cached : { true, false }) {
        std::vector<double> ms, build, save, create, upload, total;
        for (const SceneLatency& l : all) {
            if (l.cached != cached || !l.warm) continue;
            ms.push_back(l.ms);
            build.push_back(l.engine.build_wait_ms);
            save.push_back(l.engine.save_ms);
            create.push_back(l.engine.create_ms);
            upload.push_back(l.engine.upload_ms);
            total.push_back(l.engine.total_ms);
        }
        if (ms.empty()) continue;
        char line[400];
        std::snprintf(line, sizeof line,
            "soak: knob to frame, %s kernels after the warm-up: %zu changes, median %.0f ms, p90 %.0f ms, max %.0f ms; "
            "engine medians: build wait %.0f, save %.0f, create %.0f, upload %.0f, request to ready %.0f ms",
            cached ? "cached" : "built", ms.size(), percentile(ms, 0.5), percentile(ms, 0.9), percentile(ms, 1.0),
            percentile(build, 0.5), percentile(save, 0.5), percentile(create, 0.5), percentile(upload, 0.5),
            percentile(total, 0.5));
        out << line << std::endl;
        print_slowest(all, cached, round, out);
    }
    // The warm-up round builds each scene's kernels (on the background build thread while the previous scene runs):
    // how much later than its build the new kernel's first frame came (issue 40: at most the build + 50 ms).
    std::vector<double> build, over;
    for (const SceneLatency& l : all) {
        if (l.warm) continue;
        build.push_back(l.engine.build_wait_ms);
        over.push_back(l.ms - l.engine.build_wait_ms);
    }
    if (build.empty()) return;
    char line[300];
    std::snprintf(line, sizeof line,
        "soak: warm-up round, %zu scenes: build wait median %.0f ms, max %.0f ms; knob to frame beyond the build "
        "median %.0f ms, max %.0f ms",
        build.size(), percentile(build, 0.5), percentile(build, 1.0), percentile(over, 0.5), percentile(over, 1.0));
    out << line << std::endl;
}

} // namespace ss::gui
