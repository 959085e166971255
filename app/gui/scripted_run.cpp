// SPDX-License-Identifier: MIT
#include "app/gui/scripted_run.h"

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
namespace {

constexpr int kStallSeconds = 60; // no new frame for this long: give up instead of hanging a script

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
    QObject::connect(&w.session(), &Session::failed, &loop, [&](const EngineFailure& f) {
        why = f.reason;
        loop.quit();
    });
    poll.start();
    loop.exec();
    return why.empty();
}

// --- the soak ------------------------------------------------------------------------------------------

constexpr double kMaxSoakGrowthPercent = 5.0;

// Resident memory of this process in bytes (Linux /proc), or -1.
long long resident_bytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly | QIODevice::Text)) return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine())
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    return -1;
}

std::string mib(long long bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
    return text;
}

// What a user would set in one go. One round of scenes touches every star variant, radii 1..8, CF 1..4,
// the heuristic and hand-picked blocks (valid for their variant and radius in 3D, in fp64 within 48 KiB of
// shared memory), every colour map, every slice axis and the max projection. Rounds repeat exactly, so
// after the first one every kernel is compiled and every buffer size has been seen: memory should stay
// flat from then on.
struct SoakScene {
    Variant variant;
    int radius, cf;
    std::optional<BlockDims> block; // none: the heuristic; in 2D always the heuristic
    ColormapKind colormap;
    SliceAxis axis;
    int index_percent; // of the slice slider's range
    bool max_projection;
};

const SoakScene kSoakScenes[] = {
    { Variant::Base, 1, 1, std::nullopt, ColormapKind::Viridis, SliceAxis::XY, 50, false },
    { Variant::Smem, 4, 2, std::nullopt, ColormapKind::Inferno, SliceAxis::XZ, 25, false },
    { Variant::SmemPadded, 4, 1, BlockDims { 16, 8, 4 }, ColormapKind::Coolwarm, SliceAxis::YZ, 75, false },
    { Variant::Stream, 2, 2, std::nullopt, ColormapKind::Grayscale, SliceAxis::XY, 50, true },
    { Variant::SmemPadded, 2, 4, BlockDims { 16, 4, 4 }, ColormapKind::Viridis, SliceAxis::XZ, 50, false },
    { Variant::Stream, 4, 1, BlockDims { 64, 4, 1 }, ColormapKind::Inferno, SliceAxis::YZ, 10, false },
    { Variant::Base, 8, 2, BlockDims { 32, 4, 2 }, ColormapKind::Coolwarm, SliceAxis::XY, 90, false },
    { Variant::Uncoalesced, 1, 1, std::nullopt, ColormapKind::Grayscale, SliceAxis::XZ, 50, false },
};
constexpr int kSoakRound = int(std::size(kSoakScenes));

std::string scene_text(const SoakScene& s, int dims) {
    std::string text = std::string(to_string(s.variant)) + " R" + std::to_string(s.radius) + " CF"
        + std::to_string(s.cf) + " block " + (s.block && dims == 3 ? format_block(*s.block) : "heuristic") + ", "
        + std::string(to_string(s.colormap));
    if (dims != 3) return text;
    const char* axis = s.axis == SliceAxis::XY ? "xy" : s.axis == SliceAxis::XZ ? "xz" : "yz";
    return text + ", slice " + axis
        + (s.max_projection ? " max projection" : " at " + std::to_string(s.index_percent) + " %");
}

template <typename W> W* find_control(MainWindow& w, const char* name, std::string& missing) {
    W* found = w.controls().findChild<W*>(QLatin1String(name));
    if (!found && missing.empty()) missing = std::string("the control panel has no control named ") + name;
    return found;
}

// Sets the scene's knobs on the control panel's widgets, one by one as a user would: every change goes
// through the panel's validation and, when runnable, to the engine. Returns "" or the missing control.
std::string apply_scene(MainWindow& w, const SoakScene& s, int dims) {
    std::string missing;
    auto choose = [&](const char* name, int data) {
        QComboBox* box = find_control<QComboBox>(w, name, missing);
        if (box && box->findData(data) >= 0) box->setCurrentIndex(box->findData(data));
    };
    auto set_spin = [&](const char* name, int value) {
        if (QSpinBox* spin = find_control<QSpinBox>(w, name, missing)) spin->setValue(value);
    };
    auto set_check = [&](const char* name, bool on) {
        if (QCheckBox* box = find_control<QCheckBox>(w, name, missing)) box->setChecked(on);
    };
    choose("variant", int(s.variant));
    set_spin("radius", s.radius);
    choose("cf", s.cf);
    const bool heuristic = !s.block || dims != 3;
    set_check("heuristic", heuristic);
    if (!heuristic) {
        set_spin("bx", s.block->x);
        set_spin("by", s.block->y);
        set_spin("bz", s.block->z);
    }
    choose("colormap", int(s.colormap));
    if (dims == 3) {
        choose("slice_axis", int(s.axis));
        set_check("max_projection", s.max_projection);
        if (QSlider* index = find_control<QSlider>(w, "slice_index", missing))
            index->setValue(index->minimum() + (index->maximum() - index->minimum()) * s.index_percent / 100);
    }
    return missing;
}

} // namespace

std::string precheck_scripted(const GuiOptions& o) {
    if (auto p = writable_problem(o.screenshot); !p.empty()) return p;
    if (auto p = writable_problem(o.window_screenshot); !p.empty()) return p;
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

int run_scripted(MainWindow& w, const GuiOptions& o, std::ostream& err) {
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
    return 0;
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

int run_soak(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    FieldView& view = w.field_view();
    view.set_gl_error_checks(true);
    int engine_failures = 0;
    // counted for the whole soak; disconnected before the counter goes out of scope
    const QMetaObject::Connection count_failures
        = QObject::connect(&w.session(), &Session::failed, &w, [&](const EngineFailure& f) {
              ++engine_failures;
              out << "soak: engine failure: " << f.reason << std::endl;
          });
    std::string why;
    // the first configuration compiled and shown, as a user would see it before touching anything
    if (!wait_until(
            w, [&] { return view.frames_presented() >= 3; }, why)) {
        QObject::disconnect(count_failures);
        err << "stencilscope: " << why << "\n";
        return 1;
    }
    const int dims = w.session().requested().config.problem.dims;
    const bool started_with_gl = view.uses_gl();
    out << "soak: " << describe(w.session().requested().config) << " ("
        << to_string(w.session().requested().config.placement.backend) << "), metrics "
        << (o.window.metrics ? "on" : "off") << ", renderer "
        << (started_with_gl ? "OpenGL" : "raster: " + view.gl_problem().toStdString()) << std::endl;
    out << "soak: " << kSoakRound << " scenes per round, one every " << o.soak_interval << " s, for " << o.soak_seconds
        << " s" << std::endl;

    QEventLoop loop;
    QElapsedTimer clock, since_frame;
    clock.start();
    since_frame.start();
    int changes = 0, refused = 0, last_frames = view.frames_presented(), frames_after_warmup = 0;
    int checked = 0, reached = 0; // scenes checked one interval after they were set, and found running
    bool pending_check = false;
    long long rss_start = -1, rss_peak = 0;
    std::string failure; // why the loop stopped early
    QTimer tick, poll;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (changes % kSoakRound == 0 && changes > 0) { // a round is complete: its last scene ran a while
            const long long rss = resident_bytes();
            rss_peak = std::max(rss_peak, rss);
            if (rss_start < 0) {
                rss_start = rss;
                frames_after_warmup = view.frames_presented();
                out << "soak: warm-up round done after " << clock.elapsed() / 1000 << " s: RSS at start " << mib(rss)
                    << "; frames via " << w.interop_text().toStdString() << std::endl;
            } else {
                out << "soak: round " << changes / kSoakRound << " done after " << clock.elapsed() / 1000 << " s: RSS "
                    << mib(rss) << std::endl;
            }
        }
        if (changes > 0 && pending_check) { // did the last runnable scene reach the engine within an interval?
            const SoakScene& last = kSoakScenes[(changes - 1) % kSoakRound];
            const StencilConfig& active = w.session().active().settings.config;
            ++checked;
            if (active.policy.variant == last.variant && active.problem.radius == last.radius
                && active.policy.cf == last.cf)
                ++reached;
        }
        if (clock.elapsed() >= qint64(o.soak_seconds * 1000.0)) return loop.quit();
        const SoakScene& scene = kSoakScenes[changes % kSoakRound];
        if (changes < kSoakRound) out << "soak: scene " << changes + 1 << ": " << scene_text(scene, dims) << std::endl;
        if (const std::string missing = apply_scene(w, scene, dims); !missing.empty()) {
            failure = missing;
            return loop.quit();
        }
        ++changes;
        pending_check = w.controls().reason().isEmpty();
        if (!pending_check) {
            const QString reason = w.controls().reason();
            ++refused;
            out << "soak: scene refused (" << scene_text(scene, dims) << "): " << reason.toStdString() << std::endl;
        }
    });
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (view.frames_presented() != last_frames) {
            last_frames = view.frames_presented();
            since_frame.restart();
        } else if (since_frame.elapsed() > kStallSeconds * 1000) {
            failure = "no frame was displayed for " + std::to_string(kStallSeconds) + " s";
            loop.quit();
        }
    });
    tick.start(int(o.soak_interval * 1000.0));
    poll.start(50);
    loop.exec();
    tick.stop();
    poll.stop();
    QObject::disconnect(count_failures);

    const long long rss_end = resident_bytes();
    rss_peak = std::max(rss_peak, rss_end);
    const int frames = view.frames_presented() - frames_after_warmup;
    std::vector<std::string> problems;
    if (!failure.empty()) problems.push_back(failure);
    double growth = 0.0;
    if (rss_start <= 0 || rss_end <= 0) {
        problems.push_back(rss_start == -1 && rss_end > 0
                ? "the soak ended before its first round of " + std::to_string(kSoakRound)
                    + " changes: give it more than " + std::to_string(kSoakRound) + " x --soak-interval seconds"
                : "the resident memory cannot be read (/proc/self/status)");
    } else {
        growth = 100.0 * double(rss_end - rss_start) / double(rss_start);
        char line[160];
        std::snprintf(line, sizeof line, "soak: RSS at start %s, at the end %s (%+.1f %%), peak %s",
            mib(rss_start).c_str(), mib(rss_end).c_str(), growth, mib(rss_peak).c_str());
        out << line << std::endl;
        if (growth >= kMaxSoakGrowthPercent) {
            std::snprintf(
                line, sizeof line, "resident memory grew %.1f %% (limit %.0f %%)", growth, kMaxSoakGrowthPercent);
            problems.emplace_back(line);
        }
    }
    if (rss_start > 0 && frames <= 0) problems.push_back("no frame was displayed after the warm-up round");
    if (view.gl_errors() > 0)
        problems.push_back(
            std::to_string(view.gl_errors()) + " GL errors (last " + view.last_gl_error().toStdString() + ")");
    if (view.interop_failures() > 0)
        problems.push_back(std::to_string(view.interop_failures()) + " CUDA-GL interop failures");
    if (started_with_gl && !view.uses_gl()) problems.push_back("OpenGL failed: " + view.gl_problem().toStdString());
    if (engine_failures > 0) problems.push_back(std::to_string(engine_failures) + " engine failures");
    if (2 * reached < checked)
        problems.push_back("the engine ran only " + std::to_string(reached) + " of " + std::to_string(checked)
            + " scenes one interval after they were set");
    out << "soak: " << changes << " scene changes (" << changes / kSoakRound << " rounds), " << refused << " refused, "
        << reached << " of " << checked << " running one interval later; " << frames
        << " frames after the warm-up; GL errors " << view.gl_errors() << ", interop failures "
        << view.interop_failures() << ", engine failures " << engine_failures << std::endl;
    if (problems.empty()) {
        char line[96];
        std::snprintf(line, sizeof line, "soak: PASS (RSS %+.1f %% after the warm-up round)", growth);
        out << line << std::endl;
        return 0;
    }
    std::string joined;
    for (const std::string& p : problems) joined += (joined.empty() ? "" : "; ") + p;
    out << "soak: FAIL: " << joined << std::endl;
    return 1;
}

} // namespace ss::gui
