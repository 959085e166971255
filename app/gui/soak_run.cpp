// SPDX-License-Identifier: MIT
// --soak-seconds: scenes of knob values cycled through the control panel as a user would turn them.
#include "app/gui/scripted_run.h"
#include "app/gui/scripted_wait.h"
#include "app/gui/soak_latency.h"
#include "app/gui/stall_trace.h"

#include "gpu/plan/knobs.h"
#include "session/session.h"
#include "widgets/control_panel.h"
#include "widgets/field_view.h"
#include "widgets/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ss::gui {
namespace {

// --- the soak ------------------------------------------------------------------------------------------

constexpr double kMaxSoakGrowthPercent = 5.0;
constexpr qint64 kWarmupSceneMs = 60000; // the longest a warm-up scene may take to run with its neighbours built

// Resident memory of this process in bytes (Linux /proc), or -1.
long long resident_bytes() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly | QIODevice::Text)) return -1;
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine())
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    return -1;
}

long long median_of_three(long long a, long long b, long long c) {
    return std::max(std::min(a, b), std::min(std::max(a, b), c));
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
    int warm_checked = 0, warm_reached = 0; // the same, for scenes set after the warm-up round
    bool pending_check = false, pending_warm = false;
    qint64 apply_ms = 0; // how long the last scene's knobs took to set (the GUI thread's own work)
    long long rss_start = -1, rss_peak = 0;
    std::vector<long long> round_rss; // at the end of every round after the warm-up one
    // The warm-up round waits, scene by scene, until the scene runs and the kernels one knob away from it are built
    // (the issue's premise: after one round every kernel was built once); later rounds change every interval.
    std::uint64_t stats_generation = 0;
    int stats_building_ahead = -1;
    const QMetaObject::Connection on_stats
        = QObject::connect(&w.session(), &Session::stats, &w, [&](const EngineStats& st) {
              stats_generation = st.generation;
              stats_building_ahead = st.kernels_building_ahead;
          });
    std::string failure; // why the loop stopped early
    std::vector<SceneLatency> latencies;
    std::uint64_t awaited = 0; // the newest scene's generation, until its first frame is on screen
    SceneLatency pending_latency;
    QElapsedTimer since_scene, since_warmup;
    std::chrono::steady_clock::time_point scene_set {}; // the engine's clock, for a frame's sent_at
    const QMetaObject::Connection on_ready
        = QObject::connect(&w.session(), &Session::ready, &w, [&](const EngineReady& r) {
              if (awaited == 0 || r.generation != awaited) return;
              pending_latency.cached = r.resources.from_cache;
              pending_latency.engine = r.switch_times;
              pending_latency.ready_ms = double(since_scene.nsecsElapsed()) / 1e6;
          });
    const QMetaObject::Connection on_sent
        = QObject::connect(&w.session(), &Session::frame, &w, [&](const FieldFrame& f) {
              if (awaited == 0 || f.generation < awaited || pending_latency.received_ms >= 0.0) return;
              pending_latency.received_ms = double(since_scene.nsecsElapsed()) / 1e6;
              pending_latency.sent_ms = std::chrono::duration<double, std::milli>(f.sent_at - scene_set).count();
          });
    const QMetaObject::Connection on_frame = QObject::connect(&view, &FieldView::presented, &w, [&] {
        if (awaited == 0 || view.presented_generation() < awaited) return;
        pending_latency.ms = double(since_scene.nsecsElapsed()) / 1e6;
        pending_latency.view_after = view.size();
        pending_latency.paint = view.take_paint_times();
        latencies.push_back(pending_latency);
        awaited = 0;
    });
    // The GUI thread's stalls: a 1 ms timer's late ticks while a change waits for its frame.
    QElapsedTimer since_probe;
    std::optional<StallTrace> stall_trace;
    if (const std::string path = knob_text(Knob::StallTrace); !path.empty()) {
        stall_trace.emplace(path, 40.0);
        if (!stall_trace->ok()) err << "stencilscope: the stall trace cannot write " << path << "\n";
    }
    QTimer stall_probe;
    stall_probe.setTimerType(Qt::PreciseTimer);
    QObject::connect(&stall_probe, &QTimer::timeout, &loop, [&] {
        if (awaited != 0 && since_probe.isValid())
            pending_latency.longest_stall_ms
                = std::max(pending_latency.longest_stall_ms, double(since_probe.nsecsElapsed()) / 1e6);
        since_probe.start();
        if (stall_trace) stall_trace->beat();
    });
    QTimer tick, poll;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (changes > 0 && changes <= kSoakRound && pending_check) { // the warm-up round: built before moving on
            const SoakScene& last = kSoakScenes[changes - 1];
            const EngineReady& active = w.session().active();
            const StencilConfig& c = active.settings.config;
            // the newest request itself: a scene's knobs go one by one, and an intermediate one may match too
            const bool runs = active.generation == w.session().generation() && c.policy.variant == last.variant
                && c.problem.radius == last.radius && c.policy.cf == last.cf;
            const bool built = runs && stats_generation == active.generation && stats_building_ahead == 0;
            if (!built && since_scene.elapsed() < kWarmupSceneMs) return;
            if (!built)
                out << "soak: warm-up scene " << changes << " (" << scene_text(last, dims) << ") was not built within "
                    << kWarmupSceneMs / 1000 << " s" << std::endl;
        }
        if (changes % kSoakRound == 0 && changes > 0) { // a round is complete: its last scene ran a while
            const long long rss = resident_bytes();
            rss_peak = std::max(rss_peak, rss);
            if (rss_start < 0) {
                rss_start = rss;
                frames_after_warmup = view.frames_presented();
                since_warmup.start();
                out << "soak: warm-up round done after " << clock.elapsed() / 1000 << " s: RSS at start " << mib(rss)
                    << "; frames via " << w.interop_text().toStdString() << std::endl;
            } else {
                round_rss.push_back(rss);
                out << "soak: round " << changes / kSoakRound << " done after " << clock.elapsed() / 1000 << " s: RSS "
                    << mib(rss) << std::endl;
            }
        }
        if (changes > 0 && pending_check) { // did the last runnable scene reach the engine within an interval?
            const SoakScene& last = kSoakScenes[(changes - 1) % kSoakRound];
            const StencilConfig& active = w.session().active().settings.config;
            const bool running = active.policy.variant == last.variant && active.problem.radius == last.radius
                && active.policy.cf == last.cf;
            ++checked;
            reached += running ? 1 : 0;
            if (!running && pending_warm && warm_checked - warm_reached <= 5) // the first few, to see which lag
                out << "soak: scene " << (changes - 1) % kSoakRound + 1 << " (" << scene_text(last, dims)
                    << ") not running one interval later: the engine runs generation "
                    << w.session().active().generation << " (" << describe(active) << "), the newest request is "
                    << w.session().generation() << ", " << since_scene.elapsed()
                    << " ms after the scene's last knob (set in " << apply_ms << " ms)" << std::endl;
            warm_checked += pending_warm ? 1 : 0;
            warm_reached += pending_warm && running ? 1 : 0;
        }
        if (clock.elapsed() >= qint64(o.soak_seconds * 1000.0)) return loop.quit();
        const SoakScene& scene = kSoakScenes[changes % kSoakRound];
        if (changes < kSoakRound) out << "soak: scene " << changes + 1 << ": " << scene_text(scene, dims) << std::endl;
        QElapsedTimer applying;
        applying.start();
        const std::string missing = apply_scene(w, scene, dims);
        apply_ms = applying.elapsed();
        if (!missing.empty()) {
            failure = missing;
            return loop.quit();
        }
        ++changes;
        pending_check = w.controls().reason().isEmpty();
        pending_warm = rss_start >= 0;
        if (pending_check) {
            awaited = w.session().generation();
            pending_latency = SceneLatency {};
            pending_latency.warm = rss_start >= 0;
            pending_latency.change = changes;
            since_scene.start();
            scene_set = std::chrono::steady_clock::now();
            pending_latency.view_before = view.size();
            view.take_paint_times();
            since_probe.start();
        }
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
    stall_probe.start(1);
    loop.exec();
    tick.stop();
    poll.stop();
    stall_probe.stop();
    if (stall_trace) out << "soak: " << stall_trace->stacks() << " GUI thread stacks in the stall trace" << std::endl;
    stall_trace.reset();
    QObject::disconnect(count_failures);
    QObject::disconnect(on_ready);
    QObject::disconnect(on_frame);
    QObject::disconnect(on_sent);
    QObject::disconnect(on_stats);
    print_latencies(latencies, kSoakRound, out);

    const long long rss_end = resident_bytes();
    rss_peak = std::max(rss_peak, rss_end);
    const int frames = view.frames_presented() - frames_after_warmup;
    double fps_after_warmup = 0.0;
    if (since_warmup.isValid() && since_warmup.elapsed() > 0) {
        fps_after_warmup = frames * 1000.0 / double(since_warmup.elapsed());
        char line[120];
        std::snprintf(line, sizeof line, "soak: %.1f frames/s displayed after the warm-up round", fps_after_warmup);
        out << line << std::endl;
    }
    std::vector<std::string> problems;
    if (!failure.empty()) problems.push_back(failure);
    double growth = 0.0;
    if (rss_start <= 0 || rss_end <= 0) {
        problems.push_back(rss_start == -1 && rss_end > 0
                ? "the soak ended before its first round of " + std::to_string(kSoakRound)
                    + " changes: give it more than " + std::to_string(kSoakRound) + " x --soak-interval seconds"
                : "the resident memory cannot be read (/proc/self/status)");
    } else {
        // A leak raises the level; one sample swings with transient buffers by ~10 % at 4096^2 fp64, up (a profile's
        // counter images, a decoded PM chunk) or down (PM sampling's buffers freed while a replayed profile runs:
        // 928 -> 868 -> 937 MiB on an H200). With six rounds or more: the median of the last three rounds against
        // the median of the warm-up's end and the two rounds after it, so no single sample decides.
        long long base = rss_start, now = rss_end;
        const bool floors = round_rss.size() >= 6;
        if (floors) {
            base = median_of_three(rss_start, round_rss[0], round_rss[1]);
            now = median_of_three(round_rss.end()[-3], round_rss.end()[-2], round_rss.end()[-1]);
        }
        growth = 100.0 * double(now - base) / double(base);
        char line[240];
        if (floors) {
            std::snprintf(line, sizeof line,
                "soak: RSS median over the warm-up's end and the next two rounds %s, over the last three %s (%+.1f %%)",
                mib(base).c_str(), mib(now).c_str(), growth);
            out << line << std::endl;
        }
        std::snprintf(line, sizeof line, "soak: RSS at start %s, at the end %s (%+.1f %%), peak %s",
            mib(rss_start).c_str(), mib(rss_end).c_str(), 100.0 * double(rss_end - rss_start) / double(rss_start),
            mib(rss_peak).c_str());
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
    // After the warm-up round every kernel is built: every scene must be running one interval after it was set.
    if (warm_reached < warm_checked)
        problems.push_back("after the warm-up round the engine ran only " + std::to_string(warm_reached) + " of "
            + std::to_string(warm_checked) + " scenes one interval after they were set");
    if (o.soak_min_fps > 0 && fps_after_warmup < o.soak_min_fps) {
        char line[120];
        std::snprintf(line, sizeof line, "%.1f frames/s displayed after the warm-up round (at least %.0f asked)",
            fps_after_warmup, o.soak_min_fps);
        problems.emplace_back(line);
    }
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
