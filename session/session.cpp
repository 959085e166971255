// SPDX-License-Identifier: MIT
#include "session/session.h"

#include "gpu/plan/validation.h"
#include "reports/run_report.h"
#include "session/engine_controller.h"
#include "session/metrics_sampler.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <algorithm>

namespace ss::gui {

ColormapKind colormap_for(const StencilConfig& c) {
    return c.problem.stencil == StencilKind::Star && c.problem.rule == UpdateRule::Wave ? ColormapKind::Coolwarm
                                                                                        : ColormapKind::Inferno;
}

QString quantity_name(const StencilConfig& c) {
    if (c.problem.stencil == StencilKind::Diffusion4) return QStringLiteral("concentration u");
    return c.problem.rule == UpdateRule::Wave ? QStringLiteral("displacement u") : QStringLiteral("temperature u");
}

int plane_count(const StencilConfig& c, SliceAxis a) {
    return c.problem.dims == 2 ? 1
        : a == SliceAxis::XY   ? c.problem.size.nz
        : a == SliceAxis::XZ   ? c.problem.size.ny
                               : c.problem.size.nx;
}

QString lesson_dock_text(const Lesson& l, bool cpu_backend, int cuda_gpus) {
    QStringList parts { l.explanation };
    if (const QString needs = lesson_needs_text(l.needs); !needs.isEmpty())
        parts << QStringLiteral("Needs %1 to show its effect.").arg(needs);
    if (cpu_backend && !l.on_cpu.isEmpty()) parts << QStringLiteral("On the CPU backend: %1").arg(l.on_cpu);
    if (const QString missing = lesson_missing_text(l.needs, cpu_backend, cuda_gpus); !missing.isEmpty())
        parts << missing;
    if (const QString recorded = recorded_lesson_text(l.id); !recorded.isEmpty()) parts << recorded;
    return parts.join(QStringLiteral("\n\n"));
}

Session::Session(const DeviceCatalogue& devices, QObject* parent)
    : QObject(parent)
    , m_devices(devices)
    , m_engine(new EngineController(devices, this))
    , m_pacer(new FramePacer(this)) {
    connect(m_engine, &EngineController::ready, this, &Session::ready);
    connect(m_engine, &EngineController::failed, this, &Session::failed);
    connect(m_engine, &EngineController::frame, this, &Session::frame);
    connect(m_engine, &EngineController::stats, this, [this](const EngineStats& s) {
        m_last_stats = s;
        if (s.generation == m_engine->active().generation && (s.kernel_timed_steps > 0 || s.steps_per_second > 0))
            m_history.append_timing({ timestamp_now(), m_engine->active().device_name, m_engine->active().settings,
                m_engine->active().resources, s, m_pacer->fps(), m_engine->pacing().steps_per_frame });
        if (!m_engine->playing()) m_pacer->paused();
        emit stats(s);
    });
    connect(m_engine, &EngineController::metrics, this, &Session::add_sample);
    connect(m_engine, &EngineController::continuous, this, &Session::add_continuous);
    connect(m_engine, &EngineController::playing_changed, this, &Session::playing_changed);
    connect(m_engine, &EngineController::job_progress, this, &Session::job_progress);
    connect(m_engine, &EngineController::job_finished, this, &Session::job_finished);
    connect(m_engine, &EngineController::auto_progress, this, &Session::auto_progress);
    connect(m_engine, &EngineController::auto_resolved, this, &Session::auto_resolved);
    connect(m_engine, &EngineController::ceilings_measured, this, [this](int device, const RooflineCeilings& c) {
        m_ceilings_pending.erase(device);
        m_ceilings[device] = c;
        emit roofline_ceilings_changed();
    });
    connect(m_pacer, &FramePacer::request_frame, m_engine, &EngineController::frame_consumed);
    connect(m_pacer, &FramePacer::fps_changed, this, &Session::fps_changed);
    m_kernel_text = new KernelTextService(devices, this);
    connect(m_kernel_text, &KernelTextService::ready, this, &Session::kernel_text_ready);
}

Session::~Session() {
    stop_auto_tune(); // the engine thread stops before its next candidate: closing does not wait for the tune
}

const std::shared_ptr<const LaunchPlan>& Session::shared_plan_for(const StencilConfig& c) {
    if (!m_plan || !(m_plan->config == c)) m_plan = std::make_shared<const LaunchPlan>(make_launch_plan(c, m_devices));
    return m_plan;
}

const LaunchPlan& Session::plan_for(const StencilConfig& c) {
    return *shared_plan_for(c);
}

std::uint64_t Session::request_kernel_text(const StencilConfig& config, KernelTextKind kind) {
    return m_kernel_text->request(config, kind);
}

void Session::follow_rule_colormap(const StencilConfig& before, const StencilConfig& after) {
    if (!m_colormap_auto
        || (before.problem.rule == after.problem.rule && before.problem.stencil == after.problem.stencil
            && m_engine->generation() > 0))
        return;
    const ColormapKind map = colormap_for(after);
    if (map == m_colormap) return;
    m_colormap = map;
    emit colormap_changed(map);
}

bool Session::request(const RunSettings& s, QString* why) {
    if (s.config.policy.variant == Variant::Auto) return request_auto(s, why);
    std::shared_ptr<const LaunchPlan> plan = shared_plan_for(s.config);
    if (!plan->ok()) {
        const QString reason = QString::fromStdString(plan->verdict.reason);
        if (why) *why = reason;
        emit request_refused(s, reason);
        return false;
    }
    leave_auto();
    run_planned(s, std::move(plan));
    return true;
}

void Session::run_planned(const RunSettings& s, std::shared_ptr<const LaunchPlan> plan) {
    follow_rule_colormap(m_engine->requested().config, s.config);
    m_engine->configure(s, std::move(plan));
    emit settings_changed(s);
}

const RunSettings& Session::requested() const {
    return m_engine->requested();
}
const EngineReady& Session::active() const {
    return m_engine->active();
}
bool Session::has_simulation() const {
    return m_engine->has_simulation();
}
std::uint64_t Session::generation() const {
    return m_engine->generation();
}
const Pacing& Session::pacing() const {
    return m_engine->pacing();
}
const SliceSelection& Session::slice() const {
    return m_engine->slice();
}
bool Session::playing() const {
    return m_engine->playing();
}
bool Session::job_running() const {
    return m_engine->job_running();
}

void Session::set_pacing(const Pacing& p) {
    m_engine->set_pacing(p);
    emit pacing_changed(p);
}

void Session::set_steps_per_frame(int steps) {
    Pacing p = m_engine->pacing(); // the panel owns the steps per frame, the view the resolution
    if (p.steps_per_frame == steps) return;
    p.steps_per_frame = steps;
    m_engine->set_pacing(p);
    emit pacing_changed(p);
}

// A live frame carries no more texels than the field has pixels on screen, between 256 and 1024 per side:
// fewer to copy and draw per frame (on the H100 the GL side of a frame competes with the compute).
// Scripted runs ask for full resolution (display_max 0) and keep it.
void Session::fit_display(int pixels) {
    Pacing p = m_engine->pacing();
    if (p.display_max == 0) return;
    const int texels = std::clamp((pixels + 127) / 128 * 128, 256, 1024);
    if (texels == p.display_max) return;
    p.display_max = texels;
    m_engine->set_pacing(p);
    emit pacing_changed(p);
}

void Session::set_slice(const SliceSelection& s) {
    m_engine->set_slice(s);
    emit slice_changed(s);
}

void Session::set_colormap(ColormapKind k) {
    m_colormap_auto = false;
    if (k == m_colormap) return;
    m_colormap = k;
    emit colormap_changed(k);
}

void Session::set_range_policy(const RangePolicy& r) {
    m_range = r;
    emit range_policy_changed(r);
}

void Session::set_device_frames(bool on) {
    m_engine->set_device_frames(on);
}

void Session::set_playing(bool on) {
    m_engine->set_playing(on);
}
void Session::step() {
    m_engine->step_frame();
}
void Session::reset_field() {
    m_engine->reset_field();
}

void Session::inject_at(int cx, int cy, const SliceSelection& s, int width, int height, double shown_hi) {
    if (!m_engine->has_simulation()) return;
    const StencilConfig& c = m_engine->active().settings.config;
    int x = cx, y = cy, z = 0;
    if (c.problem.dims == 3) {
        if (s.axis == SliceAxis::XY)
            z = s.index;
        else if (s.axis == SliceAxis::XZ)
            x = cx, z = cy, y = s.index;
        else
            y = cx, z = cy, x = s.index;
    }
    const int radius = std::max(2, std::min(width, height) / 64);
    const bool wave = c.problem.stencil == StencilKind::Star && c.problem.rule == UpdateRule::Wave;
    // A wave pulse as strong as the waves on screen: a fixed 1.0 was ~200x a spread-out ring, and the
    // automatic range then showed the pulse alone.
    const double wave_amplitude = shown_hi > 1e-6 ? shown_hi : 1.0;
    m_engine->inject(x, y, z, radius, wave ? wave_amplitude : std::max(1.0, shown_hi));
}

void Session::set_counters(bool on) {
    QSettings().setValue(QStringLiteral("metrics/counters"), on);
    m_counters = on;
    m_engine->set_metrics(on);
    if (!on && m_continuous_active) {
        m_continuous_active = false;
        emit continuous_changed(false, m_continuous_note);
    }
    emit counters_changed(on);
}

QString Session::counters_unavailable() const {
    return QString::fromStdString(MetricsSampler::continuous_precheck(requested().config));
}

void Session::take_detailed_profile() {
    m_engine->take_detailed_profile();
}

void Session::add_continuous(const ContinuousChunk& c) {
    m_history.append_continuous(c);
    if (!c.chunk.samples.empty() && m_continuous_active) return; // the usual case: samples only
    QString note = QString::fromStdString(c.note);
    if (c.active && note.isEmpty() && !c.chunk.metrics.empty())
        note = tr("%1 counters in one pass, sampled every %2 ms without replay")
                   .arg(c.chunk.metrics.size())
                   .arg(c.interval_ms, 0, 'f', 1);
    if (c.active == m_continuous_active && (note.isEmpty() || note == m_continuous_note)) return;
    m_continuous_active = c.active;
    if (!note.isEmpty()) m_continuous_note = note;
    emit continuous_changed(m_continuous_active, m_continuous_note);
}

bool Session::export_metrics_csv(const QString& path, QStringList* written, QString* why) const {
    if (m_history.timing().empty() && m_history.empty()) {
        if (why) *why = tr("nothing to export yet: press Play and the timing figures are recorded twice a second");
        return false;
    }
    QString timing_path = path;
    if (!m_history.empty()) { // the profiled launches at the chosen path, the timing beside them
        if (!m_history.write_csv(path, why)) return false;
        if (written) *written << path;
        timing_path
            = QFileInfo(path).dir().filePath(QFileInfo(path).completeBaseName() + QStringLiteral("-timing.csv"));
    }
    if (m_history.continuous_samples() > 0) {
        const QString continuous_path
            = QFileInfo(path).dir().filePath(QFileInfo(path).completeBaseName() + QStringLiteral("-continuous.csv"));
        if (!m_history.write_continuous_csv(continuous_path, why)) return false;
        if (written) *written << continuous_path;
    }
    if (m_history.timing().empty()) return true;
    if (!m_history.write_timing_csv(timing_path, why)) return false;
    if (written) *written << timing_path;
    return true;
}

void Session::add_sample(const MetricsSample& s) {
    if (!s.ok()) {
        emit sample_unavailable(s);
        return;
    }
    m_history.append(s);
    emit sample_added(s);
}

bool Session::pin_baseline() {
    const MetricsSample* latest = m_history.latest();
    if (!latest) return false;
    m_baseline = *latest;
    emit baseline_changed(m_baseline);
    return true;
}

void Session::clear_baseline() {
    m_baseline.reset();
    emit baseline_changed(m_baseline);
}

std::uint64_t Session::start_job(JobRequest r) {
    return m_engine->start_job(std::move(r));
}
void Session::cancel_job() {
    m_engine->cancel_job();
}

SetupState Session::current_setup() const {
    SetupState s;
    s.settings = m_auto.selected ? m_auto.request : m_engine->requested(); // auto is saved as auto
    s.steps_per_frame = m_engine->pacing().steps_per_frame;
    s.colormap = m_colormap;
    if (s.settings.config.problem.dims == 3) { // a 2D run has one plane: nothing to store
        SliceSelection slice = m_engine->slice();
        slice.index = std::clamp(slice.index, 0, plane_count(s.settings.config, slice.axis) - 1);
        s.slice = slice;
    }
    return s;
}

bool Session::apply_setup(const SetupState& s, QString* why) {
    // Checked before anything moves, so a setup the device cannot run leaves the session as it was (auto: its
    // stand-in, what request() checks it as).
    if (const Status st = plan_for(auto_stand_in(s.settings.config)).verdict; !st) {
        if (why) *why = QString::fromStdString(st.reason);
        return false;
    }
    const StencilConfig& c = s.settings.config;
    m_colormap_auto = !s.colormap;
    const ColormapKind map = s.colormap ? *s.colormap : colormap_for(c);
    if (map != m_colormap) {
        m_colormap = map;
        emit colormap_changed(map);
    }
    SliceSelection slice;
    if (s.slice)
        slice = *s.slice;
    else
        slice.index = plane_count(c, slice.axis) / 2;
    set_steps_per_frame(s.steps_per_frame);
    set_slice(slice);
    request(s.settings);
    if (!s.explanation.isEmpty()) {
        m_lesson = { s.title, s.explanation, s.lesson_id, s.needs, s.on_cpu };
        build_lesson_kernels_ahead(s);
        emit lesson_changed(m_lesson);
    }
    return true;
}

void Session::build_lesson_kernels_ahead(const SetupState& lesson) {
    // A lesson switches between its compared runs: their kernels are built while the student reads.
    const QString path = lesson.lesson_id.isEmpty()
        ? QString()
        : setup_path_for(QStringLiteral("lesson:") + lesson.lesson_id, nullptr);
    std::vector<LessonRun> runs;
    if (path.isEmpty() || !read_lesson_runs(path, lesson.settings, runs, nullptr)) return;
    std::vector<StencilConfig> configs;
    for (const LessonRun& run : runs) configs.push_back(run.setup.settings.config);
    m_engine->build_ahead(configs);
}

bool Session::open_setup(const QString& path, QString* why) {
    SetupState s;
    return read_setup_file(path, m_engine->requested(), s, why) && apply_setup(s, why);
}

bool Session::save_setup(const QString& path, QString* why) const {
    return write_setup_file(path, current_setup(), why);
}

} // namespace ss::gui
