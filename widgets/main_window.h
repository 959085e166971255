// SPDX-License-Identifier: MIT
// The window: the field in the centre, controls and metrics in docks, a status bar. It wires the
// panels to the engine controller; no panel talks to the engine or to another panel directly.
#pragma once

#include "session/engine_types.h"
#include "session/setup_file.h"
#include "widgets/colormap.h"
#include "widgets/field_view.h"

#include <QElapsedTimer>
#include <QMainWindow>

class QDockWidget;
class QLabel;

namespace ss::gui {

class AutotuneDialog;
class ControlPanel;
class EngineController;
class ExperimentsWindow;
class MetricsPanel;

struct WindowOptions {
    DeviceCatalogue devices; // what the program found at start (queried once, in main)
    RunSettings settings;
    Pacing pacing;
    SliceSelection slice;
    bool slice_given = false; // otherwise the middle plane
    ColormapKind colormap = ColormapKind::Viridis;
    bool colormap_given = false; // otherwise chosen for the update rule
    RangePolicy range;
    FieldView::Renderer renderer = FieldView::Renderer::Auto;
    bool playing = true;
    bool restore_layout = true; // scripted runs want a predictable window
    bool metrics = true; // hardware counters on (they need a CUDA GPU; the panel says why not)
    bool metrics_given = false; // otherwise the last choice (QSettings)
    // Frames per second asked of the engine at most: every frame costs the compute ~2.5 ms of GPU time
    // (docs/PERFORMANCE.md), so a lower limit leaves more to the simulation. 0: the screen's refresh
    // rate; < 0 (the default): as many as the engine delivers.
    double max_fps = -1.0;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const WindowOptions&, QWidget* parent = nullptr);
    ~MainWindow() override;

    EngineController& engine() { return *m_engine; }
    FieldView& field_view() { return *m_view; }
    ControlPanel& controls() { return *m_controls; }
    double displayed_fps() const { return m_fps; }
    QString interop_text() const;
    // The engine's last throughput report (every half second while running).
    const EngineStats& last_stats() const { return m_last_stats; }

    // Write the field (at field resolution, with its colour bar) or the whole window as PNG.
    bool export_field(const QString& path, QString* why);
    bool export_window(const QString& path, QString* why);
    // Every profiled launch of the session as CSV, in `stencilscope-cli profile --csv`'s columns.
    bool export_metrics(const QString& path, QString* why);

    // The configuration the window runs now, as a setup file stores it.
    SetupState current_setup() const;
    // Applies a setup, or returns false with a one-line reason and changes nothing (the previous
    // configuration keeps running). Lessons show their explanation.
    bool apply_setup(const SetupState&, QString* why);
    bool save_setup(const QString& path, QString* why) const;
    bool open_setup(const QString& path, QString* why);
    QString lesson_text() const;
    MetricsPanel& metrics() { return *m_metrics; }
    // Pins the latest profiled launch as the baseline (false when there is none yet) / clears it.
    bool pin_baseline();
    void clear_baseline();
    // Tools: the autotune heatmap for the current configuration and the Experiments window.
    AutotuneDialog& autotune_dialog();
    ExperimentsWindow& experiments_window();
    // Runs the live view with this block (heuristic off): what "Apply best"/"Apply this cell" do.
    void apply_block(const BlockDims&);

protected:
    void closeEvent(QCloseEvent*) override;

private:
    void build_menus();
    void build_status_bar();
    void apply_settings(const RunSettings&);
    void on_ready(const EngineReady&);
    void on_frame(const FieldFrame&);
    void on_stats(const EngineStats&);
    void fit_display_to_view(int pixels);
    void on_presented();
    void set_counters(bool on);
    void export_charts_dialog();
    void export_metrics_dialog();
    void inject_at(Cell plane_cell);
    void update_interop();
    void update_strip_overlay(const StencilConfig&);
    void export_dialog(bool whole_window);
    QString ask_export_path(const QString& title, const QString& file_name, const QString& filter);
    void report_export(bool ok, const QString& why, const QString& done);
    void setup_dialog(bool save);
    void build_lessons_menu();
    void build_tools_menu();
    void on_job_progress(const JobProgress&);

    EngineController* m_engine = nullptr;
    FieldView* m_view = nullptr;
    ControlPanel* m_controls = nullptr;
    MetricsPanel* m_metrics = nullptr;
    QLabel *m_device_label, *m_path_label, *m_fps_label, *m_steps_label, *m_gcells_label, *m_iteration_label,
        *m_hover_label;
    AutotuneDialog* m_autotune = nullptr; // created on first use
    ExperimentsWindow* m_experiments = nullptr;
    QLabel* m_lesson_label = nullptr;
    QDockWidget* m_lesson_dock = nullptr;
    ColormapKind m_colormap = ColormapKind::Viridis;
    QElapsedTimer m_fps_clock;
    QElapsedTimer m_frame_request_clock; // since the engine was last asked for a frame
    EngineStats m_last_stats;
    QElapsedTimer m_iteration_clock; // since the iteration label was last set from a frame
    double m_frame_interval_ms = 0.0; // 1000 / max FPS; 0: ask as soon as a frame is shown
    double m_frame_latency_ms = 0.0; // request to screen, smoothed
    QElapsedTimer m_pace_clock; // the time base of the frame grid
    double m_next_frame_due_ms = 0.0; // on m_pace_clock
    bool m_frame_request_pending = false;
    int m_fps_frames = 0;
    double m_fps = 0.0;
    bool m_colormap_auto = true; // follow the update rule until the user picks a map
};

} // namespace ss::gui
