// SPDX-License-Identifier: MIT
// The window: the field in the centre, controls and metrics in docks, menus, a status bar. It lays them
// out around one Session, which they observe and write; it holds no run state of its own.
#pragma once

#include "session/engine_types.h"
#include "session/setup_file.h"
#include "widgets/colormap.h"
#include "widgets/field_view.h"

#include <QMainWindow>

class QDockWidget;
class QLabel;
class QMenu;

namespace ss::gui {

class AutotuneDialog;
class ControlPanel;
class ExperimentsWindow;
class MetricsPanel;
class RunStatusBar;
class Session;

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

    // Write the field (at field resolution, with its colour bar) or the whole window as PNG.
    bool export_field(const QString& path, QString* why);
    // The field export's caption: quantity (and 3D plane), configuration, device, iteration, time.
    QString field_caption() const;
    bool export_window(const QString& path, QString* why);
    // Every profiled launch of the session as CSV, in `stencilscope-cli profile --csv`'s columns.
    // The timing CSV, and the profiled launches when there are any (Session::export_metrics_csv).
    bool export_metrics(const QString& path, QString* why, QStringList* written = nullptr);

    // Setups (Session::apply_setup and friends); a lesson's explanation shows in the Lesson dock.
    bool apply_setup(const SetupState&, QString* why);
    bool open_setup(const QString& path, QString* why);
    bool save_setup(const QString& path, QString* why) const;
    SetupState current_setup() const;
    QString lesson_text() const;
    bool pin_baseline();
    // Tools: the autotune heatmap for the current configuration and the Experiments window.
    AutotuneDialog& autotune_dialog();
    ExperimentsWindow& experiments_window();
    // Runs the live view with this block (heuristic off): what "Apply best"/"Apply this cell" do.
    void apply_block(const BlockDims&);

protected:
    void closeEvent(QCloseEvent*) override;
    void showEvent(QShowEvent*) override;

private:
    void build_docks();
    void build_menus();
    void build_export_menu(QMenu* file);
    void build_tools_menu();
    void build_lessons_menu();
    void connect_view();
    void start(const WindowOptions&);
    void export_dialog(bool whole_window);
    void export_metrics_dialog();
    void export_charts_dialog();
    void report_export(bool ok, const QString& why, const QString& done);
    void setup_dialog(bool save);
    void fit_docks();

    Session* m_session = nullptr;
    FieldView* m_view = nullptr;
    ControlPanel* m_controls = nullptr;
    MetricsPanel* m_metrics = nullptr;
    RunStatusBar* m_status = nullptr;
    AutotuneDialog* m_autotune = nullptr; // created on first use
    ExperimentsWindow* m_experiments = nullptr;
    QLabel* m_lesson_label = nullptr;
    QDockWidget* m_lesson_dock = nullptr;
    bool m_layout_restored = false; // the user's saved layout: kept as it was
    bool m_docks_fitted = false;
};

} // namespace ss::gui
