// SPDX-License-Identifier: MIT
#include "app/gui/scripted_run.h"
#include "app/gui/scripted_panels.h"
#include "app/gui/scripted_wait.h"

#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"
#include "reports/experiment_report.h"
#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/control_panel.h"
#include "widgets/experiments_window.h"
#include "widgets/metric_sources.h"
#include "widgets/metrics_panel.h"
#include "widgets/window_exports.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ss::gui {
// Checked before any window opens: exit 2 (bad input), never a failure after the run. The directory is
// tried by creating (and removing) a file of our own in it: permission bits do not tell, for root, that
// /proc or a read-only mount refuses new files.
std::string writable_problem(const std::string& path) {
    if (path.empty()) return {};
    const QFileInfo file(QString::fromStdString(path));
    const QFileInfo dir(file.absolutePath());
    if (!dir.isDir()) return "cannot write " + path + ": directory " + dir.filePath().toStdString() + " does not exist";
    if (file.exists() && (!file.isFile() || !file.isWritable()))
        return "cannot write " + path + ": not a writable file";
    QTemporaryFile probe(QDir(file.absolutePath()).absoluteFilePath(QStringLiteral(".stencilscope-probe-XXXXXX")));
    if (!probe.open()) return "cannot write " + path + ": cannot create files in " + dir.filePath().toStdString();
    return {};
}

std::string precheck_scripted(const GuiOptions& o) {
    if (auto p = precheck_panel_screenshots(o); !p.empty()) return p; // every picture of the scripted run
    if (!o.open_sweep.empty()) { // the sweep must load before any window opens
        ExperimentTable table;
        if (const Status s = read_experiment_csv(o.open_sweep, &table); !s) return s.reason;
        // --sweep-show of a variant the sweep does not hold would chart every series without a word
        std::vector<std::string> variants;
        for (const ExperimentPoint& p : table.points)
            if (const std::string name(to_string(p.config.policy.variant));
                std::find(variants.begin(), variants.end(), name) == variants.end())
                variants.push_back(name);
        if (!o.sweep_show.empty() && std::find(variants.begin(), variants.end(), o.sweep_show) == variants.end()) {
            std::string held;
            for (const std::string& v : variants) held += (held.empty() ? "" : ", ") + v;
            return "--sweep-show " + o.sweep_show + ": the sweep has no " + o.sweep_show + " series (it has " + held
                + ")";
        }
    }
    return writable_problem(o.sweep_png);
}

int run_scripted(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    std::string why;
    if (!wait_until(
            w, [&] { return w.field_view().frames_presented() >= o.frames; }, why)) {
        err << "stencilscope: " << why << "\n";
        return 1;
    }
    QString problem;
    if (!o.screenshot.empty() && !w.exports().export_field(QString::fromStdString(o.screenshot), &problem)) {
        err << "stencilscope: " << problem.toStdString() << "\n";
        return 1;
    }
    if (!o.window_screenshot.empty()
        && !w.exports().export_window(QString::fromStdString(o.window_screenshot), &problem)) {
        err << "stencilscope: " << problem.toStdString() << "\n";
        return 1;
    }
    return run_panel_screenshots(w, o, out, err);
}

int run_sweep_chart(const GuiOptions& o, std::ostream& err) {
    Session engine(o.window.devices);
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
    // warm up: kernels compiled, the first frames shown, batch sizes settled, and with counters on the
    // first replayed profile taken (once per kernel beside continuous sampling: not part of the rate)
    const StencilConfig& requested = w.session().requested().config;
    const bool first_detail = o.window.metrics && w.session().counters_unavailable().isEmpty()
        && MetricsSampler::precheck(requested).empty();
    if (!wait_until(
            w,
            [&] {
                return w.field_view().frames_presented() >= 3 && warmup.elapsed() >= 500
                    && (!first_detail || !w.session().history().empty() || warmup.elapsed() >= 15000);
            },
            why)) {
        err << "stencilscope: " << why << "\n";
        return 1;
    }
    const int frames0 = w.field_view().frames_presented();
    const std::size_t samples0 = w.session().history().samples().size();
    const std::size_t continuous0 = w.session().history().continuous_samples();
    const int updates0 = w.metrics().sources().updates();
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
    const StencilConfig& c = w.session().active().settings.config;
    char line[256];
    out << "config: " << describe(c) << " (" << to_string(c.placement.backend) << ", " << w.interop_text().toStdString()
        << ")\n";
    std::snprintf(line, sizeof line, "displayed FPS: %.1f\nsteps/s: %.1f\nGCells/s: %.3f\n", frames / seconds,
        steps / seconds, gcells_per_second(double(updated_cells(c)), steps, seconds * 1e3));
    out << line;
    out << "engine batch: " << w.session().last_stats().batch_steps << " steps\n";
    std::snprintf(
        line, sizeof line, "kernel GCells/s (GPU-timed): %.3f\n", w.session().last_stats().kernel_gcells_per_second);
    out << line;
    if (o.window.metrics) {
        const std::size_t continuous = w.session().history().continuous_samples() - continuous0;
        std::snprintf(line, sizeof line, "continuous: %s, %zu samples, %.1f chart updates per second\n",
            w.session().continuous_active() ? "on" : "off", continuous,
            (w.metrics().sources().updates() - updates0) / seconds);
        out << line;
        if (!w.session().continuous_note().isEmpty())
            out << "continuous note: " << w.session().continuous_note().toStdString() << "\n";
        const auto& history = w.session().history().samples();
        const std::size_t samples = history.size() - std::min(samples0, history.size());
        std::snprintf(line, sizeof line, "metrics: %zu profiled launches, %.1f per second", samples, samples / seconds);
        out << line;
        if (!history.empty())
            out << ", " << history.back().launch.passes << " replay passes, " << history.back().launch.wall_ms
                << " ms per profile; verdict: " << history.back().figures.verdict.sentence;
        out << "\n";
    }
    return 0;
}

} // namespace ss::gui
