// SPDX-License-Identifier: MIT
#include "app/gui/scripted_run.h"

#include "gpu/physics.h"
#include "widgets/engine_controller.h"
#include "widgets/experiments_window.h"
#include "widgets/metrics_panel.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <ostream>

namespace ss::gui {
namespace {

constexpr int kStallSeconds = 60; // no new frame for this long: give up instead of hanging a script

std::string writable_problem(const std::string& path) {
    if (path.empty()) return {};
    const QFileInfo file(QString::fromStdString(path));
    const QFileInfo dir(file.absolutePath());
    if (!dir.isDir()) return "cannot write " + path + ": directory " + dir.filePath().toStdString() + " does not exist";
    if (!dir.isWritable()) return "cannot write " + path + ": directory is not writable";
    if (file.exists() && (!file.isFile() || !file.isWritable()))
        return "cannot write " + path + ": not a writable file";
    return {};
}

// Spins the event loop until `done` says so; false (with `why`) on engine failure or a stall.
bool wait_until(MainWindow& w, const std::function<bool()>& done, std::string& why) {
    QEventLoop loop;
    int last_frames = -1;
    QElapsedTimer since_progress;
    since_progress.start();
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done()) return loop.quit();
        const int frames = w.field_view().frames_presented();
        if (frames != last_frames) {
            last_frames = frames;
            since_progress.restart();
        } else if (since_progress.elapsed() > kStallSeconds * 1000) {
            why = "no frame was displayed for " + std::to_string(kStallSeconds) + " s";
            loop.quit();
        }
    });
    QObject::connect(&w.engine(), &EngineController::failed, &loop, [&](const EngineFailure& f) {
        why = f.reason;
        loop.quit();
    });
    poll.start();
    loop.exec();
    return why.empty();
}

} // namespace

std::string precheck_scripted(const GuiOptions& o) {
    if (o.scripted() || o.benchmark())
        if (const Status s = can_implement(o.window.settings.config); !s) return s.reason;
    if (auto p = writable_problem(o.screenshot); !p.empty()) return p;
    return writable_problem(o.window_screenshot);
}

int run_scripted(MainWindow& w, const GuiOptions& o, std::ostream& err) {
    std::string why;
    if (!wait_until(
            w, [&] { return w.field_view().frames_presented() >= o.frames; }, why)) {
        err << "stencilscope: " << why << "\n";
        return 1;
    }
    QString problem;
    if (!o.screenshot.empty() && !w.export_field(QString::fromStdString(o.screenshot), &problem)) {
        err << "stencilscope: " << problem.toStdString() << "\n";
        return 1;
    }
    if (!o.window_screenshot.empty() && !w.export_window(QString::fromStdString(o.window_screenshot), &problem)) {
        err << "stencilscope: " << problem.toStdString() << "\n";
        return 1;
    }
    return 0;
}

int run_sweep_chart(const GuiOptions& o, std::ostream& err) {
    EngineController engine;
    ExperimentsWindow window(engine);
    window.resize(1400, 900); // the charts get ~1000 x 860: three readable rows
    window.show();
    QString why;
    if (!window.open_results(QString::fromStdString(o.open_sweep), &why)) {
        err << "stencilscope: " << why.toStdString() << "\n";
        return 2;
    }
    if (!o.sweep_show.empty()) window.show_only(QString::fromStdString(o.sweep_show));
    QCoreApplication::processEvents();
    if (!window.export_png(QString::fromStdString(o.sweep_png), &why)) {
        err << "stencilscope: " << why.toStdString() << "\n";
        return 1;
    }
    return 0;
}

int run_benchmark(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    std::string why;
    QElapsedTimer warmup;
    warmup.start();
    // warm up: kernels compiled, the first frames shown, batch sizes settled
    if (!wait_until(
            w, [&] { return w.field_view().frames_presented() >= 3 && warmup.elapsed() >= 500; }, why)) {
        err << "stencilscope: " << why << "\n";
        return 1;
    }
    const int frames0 = w.field_view().frames_presented();
    const std::size_t samples0 = w.metrics().history().size();
    const long long iteration0 = w.field_view().last_frame().iteration;
    QElapsedTimer clock;
    clock.start();
    const qint64 budget_ms = qint64(o.benchmark_seconds * 1000.0);
    if (!wait_until(
            w, [&] { return clock.elapsed() >= budget_ms; }, why)) {
        err << "stencilscope: " << why << "\n";
        return 1;
    }
    const double seconds = clock.elapsed() / 1000.0;
    const double frames = w.field_view().frames_presented() - frames0;
    const double steps = double(w.field_view().last_frame().iteration - iteration0);
    const StencilConfig& c = w.engine().active().settings.config;
    char line[256];
    out << "config: " << describe(c) << " (" << to_string(c.backend) << ", " << w.interop_text().toStdString() << ")\n";
    std::snprintf(line, sizeof line, "displayed FPS: %.1f\nsteps/s: %.1f\nGCells/s: %.3f\n", frames / seconds,
        steps / seconds, double(updated_cells(c)) * steps / seconds / 1e9);
    out << line;
    if (o.window.metrics) {
        const auto& history = w.metrics().history();
        const std::size_t samples = history.size() - std::min(samples0, history.size());
        std::snprintf(line, sizeof line, "metrics: %zu profiled launches, %.1f per second", samples, samples / seconds);
        out << line;
        if (!history.empty())
            out << ", " << history.back().launch.passes << " replay passes, " << history.back().launch.wall_ms
                << " ms per profile; verdict: " << history.back().verdict.sentence;
        out << "\n";
    }
    return 0;
}

} // namespace ss::gui
