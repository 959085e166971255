// SPDX-License-Identifier: MIT
// The live session: everything the window shows and the user can change, in one QtCore object that the
// panels observe and write (RenderDoc's CaptureContext habit). It owns the engine thread (through the
// EngineController), the frame pacer and the metrics history; it checks a request with can_implement
// against the device catalogue found at start, so the GUI thread never waits on the GPU or calls CUDA.
// Panels never call the engine or one another: they call the Session and follow its signals.
#pragma once

#include "gpu/plan/launch_plan.h"
#include "gpu/problem/device.h"
#include "gpu/profiler/roofline.h"
#include "gpu/studies/auto_choice.h"
#include "session/colormap_kind.h"
#include "session/engine_types.h"
#include "session/frame_pacer.h"
#include "session/kernel_text.h"
#include "session/metrics_history.h"
#include "session/setup_file.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace ss::gui {

class EngineController;

// The explanation a lesson (or a setup with one) brings along; empty when none is open.
struct Lesson {
    QString title, explanation;
    QString id; // its entry in the recorded results
    QStringList needs; // "gpu", "counters"
    QString on_cpu; // what the CPU backend will and will not show
};
// The Lesson dock's text: the explanation, what the lesson needs, on the CPU backend what shows there, what
// this window lacks (`cuda_gpus`: the GPUs present; < 0 unknown), and the recorded results (labelled as
// recorded, never typed into the explanation).
QString lesson_dock_text(const Lesson&, bool cpu_backend, int cuda_gpus = -1);

// Variant auto in the window (issue 35): the last request that asked for it, and what it has become.
struct AutoVariantState {
    bool selected = false; // the last request that passed asked for auto (request holds it)
    RunSettings request; // its policy is auto_request's: the variant auto, the CF, depth and block auto's to choose
    bool tuning = false; // its candidates are being timed on the engine thread; the previous configuration stays
    int done = 0, candidates = 0; // tuning: the candidates timed so far, of how many
    QString timing; // tuning: the candidate being timed
    std::optional<RunSettings> chosen; // resolved: what runs
    QString reason; // resolved: why it was chosen ("auto: ... fastest of 7 ..."); failed: why nothing was
    bool failed = false; // nothing was chosen: the previous configuration runs on
};

// What the window asks for with the variant auto: the CF, depth and block are auto's to choose, so a request carries
// the defaults (as `stencilscope-cli run --variant auto` does, which refuses --cf, --depth and --block with it).
StencilConfig auto_request(StencilConfig);

class Session : public QObject {
    Q_OBJECT
public:
    explicit Session(const DeviceCatalogue& devices, QObject* parent = nullptr);
    ~Session() override;

    const DeviceCatalogue& devices() const { return m_devices; }
    // The plan of `config` on the devices found at start (gpu/plan/launch_plan.h; no CUDA call): whether the engine
    // can run it and why not, its block, strips, and the verdicts of the halo modes and split axes a panel offers.
    // The last plan is kept and answers again while the configuration is equal, so that one knob change resolves
    // the rules once for the panels and the request. Valid until plan_for is asked about another configuration.
    const LaunchPlan& plan_for(const StencilConfig&);

    // The configuration: runs it (a new engine generation, with its plan) when plan_for accepts it, else returns
    // false with the reason and changes nothing. While the colour map is automatic it follows the update rule.
    // The variant auto (session_auto.cpp) is checked as its stand-in (gpu/plan/validation.h), then resolved: at once
    // on the CPU backend (one loop runs every variant), else by timing its candidates on the engine thread while the
    // previous configuration stays on screen; what it chose then runs (settings_changed carries that). A newer request
    // supersedes a tune in flight; a request for another variant leaves auto.
    bool request(const RunSettings&, QString* why = nullptr);
    const AutoVariantState& auto_variant() const { return m_auto; }
    // Tests: auto's candidates timed by `timer` (on the engine thread) instead of on the device; null: on the device.
    void set_auto_timer(AutoTimeFn timer);
    const RunSettings& requested() const; // what the engine runs or is about to: auto's choice, never auto
    const EngineReady& active() const; // what the engine runs now (after ready)
    bool has_simulation() const;
    std::uint64_t generation() const;

    // What the view shows.
    void set_pacing(const Pacing&);
    void set_steps_per_frame(int);
    void fit_display(int pixels_per_side); // the view's size: frames carry no more texels than it shows
    const Pacing& pacing() const;
    void set_slice(const SliceSelection&);
    const SliceSelection& slice() const;
    void set_colormap(ColormapKind); // the user's pick: automatic choice off
    ColormapKind colormap() const { return m_colormap; }
    void set_range_policy(const RangePolicy&);
    const RangePolicy& range_policy() const { return m_range; }
    void set_device_frames(bool);
    void set_max_fps(double fps) { m_pacer->set_max_fps(fps); }
    double displayed_fps() const { return m_pacer->fps(); }
    void frame_presented() { m_pacer->presented(); }

    // Running.
    void set_playing(bool);
    void toggle_playing() { set_playing(!playing()); }
    bool playing() const;
    void step();
    void reset_field();
    // A click at `cell` of the plane `slice` (of a width x height frame) becomes a source in the volume:
    // a hot spot for heat (at least the shown range's top), a pulse for the wave as high as the shown
    // range's top (the diverging map's range is symmetric: the waves' amplitude).
    void inject_at(int cell_x, int cell_y, const SliceSelection& slice, int width, int height, double shown_hi);

    // Hardware counters and their history.
    void set_counters(bool on);
    bool counters() const { return m_counters; }
    // Why counters cannot work for the requested configuration (CPU backend, no CUPTI); empty when they can.
    QString counters_unavailable() const;
    // File > Export > Metrics: the timing figures of every statistics window, and the profiled launches
    // when there are any (`<stem>-profiled.csv` beside the timing file). `written` lists the files; false
    // with the reason when nothing has run yet or a file cannot be written.
    bool export_metrics_csv(const QString& path, QStringList* written, QString* why) const;
    const MetricsHistory& history() const { return m_history; }
    // A profiled launch arrives (from the engine thread; tests and replays call it too): appended to the
    // history and announced, or announced as unavailable.
    void add_sample(const MetricsSample&);
    // Continuous counters (from the engine's decode thread; tests call it too): samples go to the history,
    // a change of state (on, or off and why) is announced.
    void add_continuous(const ContinuousChunk&);
    bool continuous_active() const { return m_continuous_active; }
    const QString& continuous_note() const { return m_continuous_note; } // why it is off, or what it samples
    void take_detailed_profile(); // a replayed profile at the next step
    const EngineStats& last_stats() const { return m_last_stats; }
    bool pin_baseline(); // false when nothing has been profiled yet
    void clear_baseline();
    const std::optional<MetricsSample>& baseline() const { return m_baseline; }

    // Long jobs (autotune, experiments) on the engine thread: 0 while another runs.
    std::uint64_t start_job(JobRequest);
    void cancel_job();
    bool job_running() const;

    // Setups and lessons: applied whole, or refused with one line and nothing changed.
    SetupState current_setup() const;
    bool apply_setup(const SetupState&, QString* why);
    bool open_setup(const QString& path, QString* why);
    bool save_setup(const QString& path, QString* why) const;
    const Lesson& lesson() const { return m_lesson; }

    // View > Kernel source: the generated CUDA text of `config` (and for a Listing its PTX and SASS), made on a
    // thread of its own; kernel_text_ready delivers it. A newer request of a kind supersedes an older one.
    std::uint64_t request_kernel_text(const StencilConfig& config, KernelTextKind kind);

    // View > Roofline: the ceilings of the requested configuration's GPU, measured on the engine thread once per
    // device (roofline_ceilings_changed announces them); nothing is measured for the CPU backend.
    void request_roofline_ceilings();
    // Those ceilings, or `unavailable` saying why there are none (the CPU backend, still measuring, not asked yet).
    RooflineCeilings roofline_ceilings() const;
    // Asked of the engine for the requested configuration's GPU and not delivered yet.
    bool roofline_ceilings_measuring() const;
    // The running kernel's point from its latest figures: the GPU-timed cell rate of the last statistics window,
    // and the DRAM bytes per cell and step of its latest profiled launch while counters are on (else the ideal).
    // Invalid (RooflinePoint::valid) before the kernel has been timed.
    RooflinePoint roofline_point() const;

signals:
    void settings_changed(const ss::gui::RunSettings&); // a request that passed
    void request_refused(const ss::gui::RunSettings&, const QString& reason); // nothing else changed
    void pacing_changed(const ss::gui::Pacing&);
    void slice_changed(const ss::gui::SliceSelection&);
    void colormap_changed(ss::gui::ColormapKind);
    void range_policy_changed(const ss::gui::RangePolicy&);
    void playing_changed(bool);
    void counters_changed(bool);
    void baseline_changed(const std::optional<ss::gui::MetricsSample>&);
    void lesson_changed(const ss::gui::Lesson&);
    void fps_changed(double);
    // From the engine thread, as plain values.
    void ready(const ss::gui::EngineReady&);
    void failed(const ss::gui::EngineFailure&);
    void frame(const ss::gui::FieldFrame&);
    void stats(const ss::gui::EngineStats&);
    void sample_added(const ss::gui::MetricsSample&); // appended to history() first; unavailable ones are not
    void sample_unavailable(const ss::gui::MetricsSample&); // counters could not be read, and why
    void continuous_changed(bool active, const QString& note);
    void job_progress(const ss::gui::JobProgress&);
    void job_finished(const ss::gui::JobOutcome&);
    void kernel_text_ready(const ss::gui::KernelText&);
    void roofline_ceilings_changed(); // measured for a device (roofline_ceilings() tells)
    void auto_variant_changed(); // auto_variant() changed: selected or left, tuning, chosen or failed

private:
    void run_planned(const RunSettings&, std::shared_ptr<const LaunchPlan> plan);
    bool request_auto(const RunSettings&, QString* why);
    void auto_progress(const AutoResolveProgress&);
    void auto_resolved(const AutoResolved&);
    void stop_auto_tune();
    void leave_auto();
    void follow_rule_colormap(const StencilConfig& before, const StencilConfig& after);
    const std::shared_ptr<const LaunchPlan>& shared_plan_for(const StencilConfig&);

    DeviceCatalogue m_devices;
    std::shared_ptr<const LaunchPlan> m_plan; // the last plan_for's: shared with the engine thread when requested
    EngineController* m_engine = nullptr;
    FramePacer* m_pacer = nullptr;
    MetricsHistory m_history;
    std::optional<MetricsSample> m_baseline;
    EngineStats m_last_stats;
    RangePolicy m_range;
    ColormapKind m_colormap = ColormapKind::Viridis;
    bool m_colormap_auto = true; // follows the update rule until the user picks a map
    bool m_counters = false;
    bool m_continuous_active = false;
    QString m_continuous_note;
    Lesson m_lesson;
    void build_lesson_kernels_ahead(const SetupState& lesson);
    KernelTextService* m_kernel_text = nullptr;
    std::map<int, RooflineCeilings> m_ceilings; // by device, as measured on the engine thread
    std::set<int> m_ceilings_pending; // asked of the engine, not delivered yet
    AutoVariantState m_auto;
    std::uint64_t m_auto_id = 0; // the newest auto request's: older answers are dropped
    std::shared_ptr<std::atomic<bool>> m_auto_cancel; // the tune in flight's
};

// The map that suits a rule: diverging for the wave (signed values), sequential for heat.
ColormapKind colormap_for(const StencilConfig&);
// What the field's values are, for the colour bar: "temperature u" (heat), "displacement u" (wave),
// "concentration u" (fourth-order diffusion).
QString quantity_name(const StencilConfig&);
// Planes along `axis` (1 in 2D).
int plane_count(const StencilConfig&, SliceAxis axis);

} // namespace ss::gui
