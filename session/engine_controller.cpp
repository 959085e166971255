// SPDX-License-Identifier: MIT
#include "session/engine_controller.h"

#include "gpu/studies/roofline_ceilings.h"
#include "session/engine_worker.h"

#include <QThread>

namespace ss::gui {

EngineController::EngineController(const DeviceCatalogue& catalogue, QObject* parent)
    : QObject(parent)
    , m_thread(new QThread(this))
    , m_latest(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    qRegisterMetaType<FieldFrame>();
    qRegisterMetaType<EngineReady>();
    qRegisterMetaType<EngineFailure>();
    qRegisterMetaType<EngineStats>();
    qRegisterMetaType<MetricsSample>();
    qRegisterMetaType<ContinuousChunk>();
    qRegisterMetaType<JobProgress>();
    qRegisterMetaType<JobOutcome>();
    qRegisterMetaType<AutoResolveProgress>();
    qRegisterMetaType<AutoResolved>();
    m_thread->setObjectName(QStringLiteral("engine"));
    auto* worker = new EngineWorker(catalogue, m_latest);
    worker->moveToThread(m_thread);
    m_worker = worker;
    connect(m_thread, &QThread::finished, worker, &QObject::deleteLater);
    // Cross-thread connections: Qt queues these, so results arrive on the GUI thread as copies.
    connect(worker, &EngineWorker::ready, this, &EngineController::on_ready);
    connect(worker, &EngineWorker::failed, this, &EngineController::on_failed);
    connect(worker, &EngineWorker::frame, this, &EngineController::on_frame);
    connect(worker, &EngineWorker::stats, this, &EngineController::on_stats);
    connect(worker, &EngineWorker::metrics, this, [this](const MetricsSample& s) {
        if (is_running(s.generation)) emit metrics(s);
    });
    connect(worker, &EngineWorker::continuous, this, [this](const ContinuousChunk& c) {
        if (is_running(c.generation)) emit continuous(c);
    });
    connect(worker, &EngineWorker::job_progress, this, [this](const JobProgress& p) {
        if (p.id == m_job) emit job_progress(p);
    });
    connect(worker, &EngineWorker::job_finished, this, [this](const JobOutcome& o) {
        if (o.id != m_job) return;
        m_job = 0;
        m_job_cancel.reset();
        emit job_finished(o);
    });
    connect(worker, &EngineWorker::auto_progress, this, &EngineController::auto_progress);
    connect(worker, &EngineWorker::auto_resolved, this, &EngineController::auto_resolved);
    m_thread->start();
}

EngineController::~EngineController() {
    m_latest->store(UINT64_MAX); // every queued batch is now stale
    if (m_job_cancel) m_job_cancel->store(true);
    post([](EngineWorker& w) { w.shutdown(); });
    m_thread->quit();
    m_thread->wait();
}

template <typename F> void EngineController::post(F&& work) {
    if (!m_worker) return;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, work = std::forward<F>(work)]() mutable { work(*w); }, Qt::QueuedConnection);
}

void EngineController::configure(const RunSettings& settings, std::shared_ptr<const LaunchPlan> plan) {
    Q_ASSERT(plan && plan->config == settings.config && plan->ok());
    m_requested = settings;
    const std::uint64_t generation = ++m_generation;
    m_latest->store(generation);
    post([generation, settings, plan = std::move(plan)](EngineWorker& w) { w.configure(generation, settings, *plan); });
}

void EngineController::set_pacing(const Pacing& pacing) {
    m_pacing = pacing;
    post([pacing](EngineWorker& w) { w.set_pacing(pacing); });
}

void EngineController::set_slice(const SliceSelection& slice) {
    m_slice = slice;
    post([slice](EngineWorker& w) { w.set_slice(slice); });
}

void EngineController::set_playing(bool playing) {
    if (playing == m_playing) return;
    m_playing = playing;
    post([playing](EngineWorker& w) { w.set_playing(playing); });
    emit playing_changed(playing);
}

void EngineController::step_frame() {
    set_playing(false);
    post([](EngineWorker& w) { w.step_frame(); });
}

void EngineController::reset_field() {
    post([](EngineWorker& w) { w.reset_field(); });
}

void EngineController::inject(int x, int y, int z, int radius_cells, double value) {
    const std::uint64_t generation = m_generation;
    post([=](EngineWorker& w) { w.inject(generation, x, y, z, radius_cells, value); });
}

void EngineController::set_device_frames(bool on) {
    post([on](EngineWorker& w) { w.set_device_frames(on); });
}

void EngineController::take_detailed_profile() {
    post([](EngineWorker& w) { w.take_detailed_profile(); });
}

void EngineController::set_metrics(bool on, int interval_ms) {
    m_metrics_on = on;
    post([on, interval_ms](EngineWorker& w) { w.set_metrics(on, interval_ms); });
}

std::uint64_t EngineController::start_job(JobRequest request) {
    if (m_job != 0) return 0;
    request.id = m_job = ++m_last_job;
    m_job_cancel = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<const std::atomic<bool>> cancel = m_job_cancel;
    post([request, cancel](EngineWorker& w) { w.run_job(request, cancel); });
    return request.id;
}

void EngineController::resolve_auto(
    const AutoResolveRequest& request, std::shared_ptr<const std::atomic<bool>> cancel) {
    post([request, cancel = std::move(cancel)](EngineWorker& w) { w.resolve_auto(request, cancel); });
}

void EngineController::set_auto_timer(AutoTimeFn timer) {
    post([timer = std::move(timer)](EngineWorker& w) mutable { w.set_auto_timer(std::move(timer)); });
}

void EngineController::cancel_job() {
    if (m_job_cancel) m_job_cancel->store(true);
}

void EngineController::measure_ceilings(int device, const DeviceCatalogue& devices) {
    QPointer<EngineController> self(this);
    post([self, device, devices](EngineWorker&) {
        RooflineCeilings measured = measure_roofline_ceilings(device, devices);
        if (!self) return;
        QMetaObject::invokeMethod(
            self,
            [self, device, measured] {
                if (self) emit self->ceilings_measured(device, measured);
            },
            Qt::QueuedConnection);
    });
}

void EngineController::build_ahead(const std::vector<StencilConfig>& configs) {
    post([configs](EngineWorker& w) { w.build_ahead(configs); });
}

void EngineController::frame_consumed() {
    post([](EngineWorker& w) { w.frame_consumed(); });
}

bool EngineController::is_running(std::uint64_t generation) const {
    return generation == m_generation || (m_has_simulation && generation == m_active.generation);
}

void EngineController::on_ready(const EngineReady& r) {
    // A generation between the active one and the newest request is what the engine runs now: while knobs turn
    // faster than a switch, the newest request is always queued behind it, and dropping its ready would leave the
    // window on frames nobody produces any more (issue 40's frozen picture).
    if (m_has_simulation && r.generation < m_active.generation) return; // older than what is shown
    if (r.generation > m_generation) return;
    m_active = r;
    m_has_simulation = true;
    emit ready(r);
}

void EngineController::on_failed(const EngineFailure& f) {
    if (f.generation != m_generation) return;
    if (!f.previous_run_continues) m_has_simulation = false;
    emit failed(f);
}

void EngineController::on_frame(const FieldFrame& f) {
    // The active generation's frames too: they keep coming while the newest one's kernels build.
    if (!is_running(f.generation)) {
        frame_consumed(); // dropped, but the engine must not wait for it
        return;
    }
    emit frame(f);
}

void EngineController::on_stats(const EngineStats& s) {
    if (is_running(s.generation)) emit stats(s);
}

} // namespace ss::gui
