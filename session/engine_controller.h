// SPDX-License-Identifier: MIT
// The GUI side of the engine thread (RenderDoc's replay manager, hotspot's job tracker): posts work
// to the worker, stamps every configuration with a generation id, and forwards only results of the
// newest generation. Nothing here ever waits for the engine.
#pragma once

#include "gpu/plan/launch_plan.h"
#include "gpu/profiler/roofline.h"
#include "gpu/studies/auto_choice.h"
#include "session/engine_types.h"
#include "session/metrics_history.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>

class QThread;

namespace ss::gui {

class EngineWorker;

class EngineController : public QObject {
    Q_OBJECT
public:
    // `catalogue`: the devices the program found at start; the engine thread keeps its own copy.
    explicit EngineController(const DeviceCatalogue& catalogue, QObject* parent = nullptr);
    ~EngineController() override;

    // A new generation: re-initialises the simulation (keeping the field when its extent is unchanged). `plan`:
    // make_launch_plan of the settings' configuration, accepted; the engine thread runs it without judging again.
    void configure(const RunSettings&, std::shared_ptr<const LaunchPlan> plan);
    // Kernels to build in the background before they are asked for (a lesson's compared runs).
    void build_ahead(const std::vector<StencilConfig>& configs);
    void set_pacing(const Pacing&);
    void set_slice(const SliceSelection&);
    void set_playing(bool);
    void step_frame();
    void reset_field();
    // x, y, z in cells of the current simulation.
    void inject(int x, int y, int z, int radius_cells, double value);
    void set_device_frames(bool);
    // Hardware counters: profile one step every `interval_ms` while playing.
    void set_metrics(bool on, int interval_ms = 250);
    void take_detailed_profile();
    bool metrics_on() const { return m_metrics_on; }
    // Long work (autotune, experiment sweeps) on the engine thread; the live run pauses meanwhile and
    // resumes afterwards. One job at a time: returns 0 while another runs. Cancelling returns the
    // results so far through job_finished (cancelled = true).
    std::uint64_t start_job(JobRequest);
    void cancel_job();
    bool job_running() const { return m_job != 0; }
    // Variant auto resolved on the engine thread, after the work queued before it (session/engine_auto.cpp); every
    // answer goes out by auto_resolved, the Session keeps its newest. Setting `cancel` stops the tune before its next
    // candidate.
    void resolve_auto(const AutoResolveRequest&, std::shared_ptr<const std::atomic<bool>> cancel);
    void set_auto_timer(AutoTimeFn timer); // tests: auto's candidates timed by `timer`; null: on the device
    // View > Roofline: `device`'s ceilings, measured on the engine thread (between batches; once per device and
    // process, gpu/studies/roofline_ceilings.h) and delivered by ceilings_measured.
    void measure_ceilings(int device, const DeviceCatalogue& devices);
    // The view has shown the last frame: the engine may produce the next one.
    void frame_consumed();

    std::uint64_t generation() const { return m_generation; }
    const RunSettings& requested() const { return m_requested; }
    // What the engine runs now (valid after ready()).
    const EngineReady& active() const { return m_active; }
    bool has_simulation() const { return m_has_simulation; }
    bool playing() const { return m_playing; }
    const Pacing& pacing() const { return m_pacing; }
    const SliceSelection& slice() const { return m_slice; }

signals:
    void ready(const ss::gui::EngineReady&);
    void failed(const ss::gui::EngineFailure&);
    void frame(const ss::gui::FieldFrame&);
    void stats(const ss::gui::EngineStats&);
    void metrics(const ss::gui::MetricsSample&);
    void continuous(const ss::gui::ContinuousChunk&);
    void playing_changed(bool);
    void job_progress(const ss::gui::JobProgress&);
    void job_finished(const ss::gui::JobOutcome&);
    void ceilings_measured(int device, const ss::RooflineCeilings&);
    void auto_progress(const ss::gui::AutoResolveProgress&);
    void auto_resolved(const ss::gui::AutoResolved&);

private:
    template <typename F> void post(F&& work);
    void on_ready(const EngineReady&);
    // The newest request's results, or the active (running) generation's while the newest is queued or building.
    bool is_running(std::uint64_t generation) const;
    void on_failed(const EngineFailure&);
    void on_frame(const FieldFrame&);
    void on_stats(const EngineStats&);

    QThread* m_thread = nullptr;
    QPointer<EngineWorker> m_worker;
    std::shared_ptr<std::atomic<std::uint64_t>> m_latest;
    std::uint64_t m_generation = 0;
    RunSettings m_requested;
    EngineReady m_active;
    bool m_has_simulation = false;
    bool m_playing = false;
    bool m_metrics_on = false;
    Pacing m_pacing;
    SliceSelection m_slice;
    std::uint64_t m_job = 0, m_last_job = 0;
    std::shared_ptr<std::atomic<bool>> m_job_cancel;
};

} // namespace ss::gui
