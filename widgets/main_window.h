// SPDX-License-Identifier: MIT
// The window: the field in the centre, controls and metrics in docks, menus, a status bar. It lays them
// out around one Session, which they observe and write; it holds no run state of its own.
#pragma once

#include "session/engine_types.h"
#include "widgets/colormap.h"
#include "widgets/field_view.h"

#include <QMainWindow>

class QDockWidget;

namespace ss::gui {

class AutotuneDialog;
class ControlPanel;
class ExperimentsWindow;
class LessonDock;
class MetricsPanel;
class RunStatusBar;
class Session;
class WindowExports;

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
    // The command line asked for the CUDA backend and no GPU can run kernels (devices.unavailable says
    // why): the settings run on the CPU and the status bar says so for as long as the window is open.
    bool gpu_fallback = false;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const WindowOptions&, QWidget* parent = nullptr);
    ~MainWindow() override;

    Session& session() { return *m_session; }
    FieldView& field_view() { return *m_view; }
    ControlPanel& controls() { return *m_controls; }
    MetricsPanel& metrics() { return *m_metrics; }
    double displayed_fps() const;
    QString interop_text() const;

    // The File menu's exports and setup dialogs (exports().export_field(…) for scripted runs and tests).
    WindowExports& exports() { return *m_exports; }
    // The Lesson dock's text; empty while no lesson is shown.
    QString lesson_text() const;
    bool pin_baseline();
    // Tools: the autotune heatmap for the current configuration and the Experiments window.
    AutotuneDialog& autotune_dialog();
    ExperimentsWindow& experiments_window();
    // Runs the live view with this block (heuristic off): what "Apply best"/"Apply this cell" do. The temporal
    // variant also takes `depth` (what autotune measured the block at; 0 keeps the depth it runs).
    void apply_block(const BlockDims&, int depth = 0);
    // The docks' first sizes as a share of the window, the Metrics dock with room for a chart when `charts`
    // (counters available). showEvent does this once without a saved layout; the layout tests call it as a
    // CUDA window with counters would (the CPU backend has none).
    void fit_docks(bool charts);

protected:
    void closeEvent(QCloseEvent*) override;
    void showEvent(QShowEvent*) override;

private:
    void build_docks();
    void build_menus();
    void build_tools_menu();
    void build_lessons_menu();
    void connect_view();
    void start(const WindowOptions&);

    Session* m_session = nullptr;
    FieldView* m_view = nullptr;
    ControlPanel* m_controls = nullptr;
    MetricsPanel* m_metrics = nullptr;
    RunStatusBar* m_status = nullptr;
    AutotuneDialog* m_autotune = nullptr; // created on first use
    ExperimentsWindow* m_experiments = nullptr;
    LessonDock* m_lesson_dock = nullptr;
    WindowExports* m_exports = nullptr;
    bool m_layout_restored = false; // the user's saved layout: kept as it was
    bool m_docks_fitted = false;
};

} // namespace ss::gui
