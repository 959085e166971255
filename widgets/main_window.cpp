// SPDX-License-Identifier: MIT
#include "widgets/main_window.h"

#include "gpu/device.h"
#include "gpu/multi_gpu.h"
#include "reports/profile_report.h"
#include "session/engine_controller.h"
#include "widgets/autotune_dialog.h"
#include "widgets/control_panel.h"
#include "widgets/experiments_window.h"
#include "widgets/export_util.h"
#include "widgets/metrics_panel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cmath>
#include <cstdio>

static void init_resources() {
    Q_INIT_RESOURCE(stencilscope);
}

namespace ss::gui {
namespace {

ColormapKind colormap_for(const StencilConfig& c) {
    return c.problem.stencil == StencilKind::Star && c.problem.rule == UpdateRule::Wave ? ColormapKind::Coolwarm
                                                                                        : ColormapKind::Inferno;
}

int plane_count(const StencilConfig& c, SliceAxis a) {
    return c.problem.dims == 2 ? 1
        : a == SliceAxis::XY   ? c.problem.size.nz
        : a == SliceAxis::XZ   ? c.problem.size.ny
                               : c.problem.size.nx;
}

} // namespace

MainWindow::MainWindow(const WindowOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_engine(new EngineController(options.devices, this))
    , m_view(new FieldView(options.renderer))
    , m_controls(new ControlPanel(options.devices))
    , m_metrics(new MetricsPanel) {
    init_resources();
    setWindowTitle(tr("StencilScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/stencilscope.svg")));
    setCentralWidget(m_view);
    resize(1280, 800);

    auto* scroll = new QScrollArea;
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(std::min(m_controls->sizeHint().width() + 24, 400));
    auto* controls_dock = new QDockWidget(tr("Controls"), this);
    controls_dock->setObjectName(QStringLiteral("controls_dock"));
    controls_dock->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, controls_dock);
    auto* metrics_dock = new QDockWidget(tr("Metrics"), this);
    metrics_dock->setObjectName(QStringLiteral("metrics_dock"));
    metrics_dock->setWidget(m_metrics);
    addDockWidget(Qt::BottomDockWidgetArea, metrics_dock);
    m_lesson_label = new QLabel;
    m_lesson_label->setObjectName(QStringLiteral("lesson_text"));
    m_lesson_label->setWordWrap(true);
    m_lesson_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lesson_label->setMargin(6);
    m_lesson_dock = new QDockWidget(tr("Lesson"), this);
    m_lesson_dock->setObjectName(QStringLiteral("lesson_dock"));
    m_lesson_dock->setWidget(m_lesson_label);
    addDockWidget(Qt::BottomDockWidgetArea, m_lesson_dock);
    m_lesson_dock->hide();

    build_status_bar();
    build_menus();

    connect(m_controls, &ControlPanel::settings_changed, this, &MainWindow::apply_settings);
    connect(m_controls, &ControlPanel::pacing_changed, this, [this](const Pacing& p) {
        Pacing pacing = m_engine->pacing(); // the panel owns the steps per frame, the view the resolution
        pacing.steps_per_frame = p.steps_per_frame;
        m_engine->set_pacing(pacing);
    });
    connect(m_view, &FieldView::display_extent_changed, this, &MainWindow::fit_display_to_view);
    connect(m_controls, &ControlPanel::slice_changed, m_engine, &EngineController::set_slice);
    connect(m_controls, &ControlPanel::slice_changed, this, &MainWindow::update_interop);
    connect(m_controls, &ControlPanel::play_toggled, m_engine, &EngineController::set_playing);
    connect(m_controls, &ControlPanel::step_requested, m_engine, &EngineController::step_frame);
    connect(m_controls, &ControlPanel::reset_requested, m_engine, &EngineController::reset_field);
    connect(m_controls, &ControlPanel::colormap_changed, this, [this](ColormapKind k) {
        m_colormap_auto = false;
        m_colormap = k;
        m_view->set_colormap(k);
    });
    connect(m_controls, &ControlPanel::range_changed, m_view, &FieldView::set_range_policy);
    connect(m_engine, &EngineController::playing_changed, m_controls, &ControlPanel::set_playing);
    connect(m_engine, &EngineController::ready, this, &MainWindow::on_ready);
    connect(m_engine, &EngineController::failed, this, [this](const EngineFailure& f) {
        m_controls->show_engine_failure(QString::fromStdString(f.reason));
        statusBar()->showMessage(tr("Engine: %1").arg(QString::fromStdString(f.reason)), 10000);
    });
    connect(m_engine, &EngineController::frame, this, &MainWindow::on_frame);
    connect(m_engine, &EngineController::stats, this, &MainWindow::on_stats);
    connect(m_engine, &EngineController::metrics, m_metrics, &MetricsPanel::show_sample);
    connect(m_metrics, &MetricsPanel::counters_toggled, this, &MainWindow::set_counters);
    connect(m_view, &FieldView::presented, this, &MainWindow::on_presented);
    connect(m_view, &FieldView::inject_requested, this, &MainWindow::inject_at);
    connect(m_view, &FieldView::interop_changed, this, &MainWindow::update_interop);
    connect(m_view, &FieldView::hovered, m_hover_label, &QLabel::setText);

    if (options.restore_layout) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    }

    // Initial state: the panel shows it, the engine gets it.
    m_colormap_auto = !options.colormap_given;
    const ColormapKind map = options.colormap_given ? options.colormap : colormap_for(options.settings.config);
    m_colormap = map;
    m_view->set_colormap(map);
    m_controls->set_colormap(map);
    m_view->set_range_policy(options.range);
    m_controls->set_range_policy(options.range);
    SliceSelection slice = options.slice;
    if (!options.slice_given) slice.index = plane_count(options.settings.config, slice.axis) / 2;
    m_controls->set_settings(options.settings);
    m_controls->set_slice(slice);
    m_controls->set_pacing(options.pacing);
    m_engine->set_pacing(options.pacing);
    m_engine->set_slice(slice);
    m_engine->set_playing(options.playing);
    m_controls->set_playing(options.playing);
    const bool counters = options.metrics_given
        ? options.metrics
        : QSettings().value(QStringLiteral("metrics/counters"), options.metrics).toBool();
    m_metrics->set_counters_enabled(counters);
    m_engine->set_metrics(counters);
    if (m_controls->reason().isEmpty()) m_engine->configure(options.settings);
    m_fps_clock.start();
    m_frame_request_clock.start();
    m_pace_clock.start();
    double max_fps = options.max_fps;
    if (max_fps == 0.0) max_fps = screen() && screen()->refreshRate() >= 30 ? screen()->refreshRate() : 60.0;
    m_frame_interval_ms = max_fps > 0 ? 1000.0 / max_fps : 0.0;
}

MainWindow::~MainWindow() = default;

void MainWindow::build_menus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* exports = file->addMenu(tr("&Export"));
    QAction* field = exports->addAction(tr("&Field image…"), this, [this] { export_dialog(false); });
    field->setShortcut(QKeySequence(tr("Ctrl+E")));
    QAction* window = exports->addAction(tr("&Window image…"), this, [this] { export_dialog(true); });
    window->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    QAction* metrics_csv = exports->addAction(tr("&Metrics (CSV)…"), this, &MainWindow::export_metrics_dialog);
    metrics_csv->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    exports->addAction(tr("Metric &charts (PNG)…"), this, &MainWindow::export_charts_dialog);
    file->addSeparator();
    file->addAction(tr("&Open setup…"), QKeySequence::Open, this, [this] { setup_dialog(false); });
    file->addAction(tr("&Save setup…"), QKeySequence::Save, this, [this] { setup_dialog(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
    QAction* play = sim->addAction(tr("&Play / pause"));
    play->setShortcut(QKeySequence(Qt::Key_Space));
    connect(play, &QAction::triggered, this, [this] { m_engine->set_playing(!m_engine->playing()); });
    QAction* step = sim->addAction(tr("&Step"), m_engine, &EngineController::step_frame);
    step->setShortcut(QKeySequence(tr("Ctrl+Right")));
    QAction* reset = sim->addAction(tr("&Reset field"), m_engine, &EngineController::reset_field);
    reset->setShortcut(QKeySequence(tr("Ctrl+R")));
    sim->addSeparator();
    QAction* pin = sim->addAction(tr("Pin &baseline"), this, [this] {
        if (!pin_baseline())
            statusBar()->showMessage(tr("No profiled launch yet: turn hardware counters on and play."), 5000);
    });
    pin->setShortcut(QKeySequence(tr("Ctrl+B")));
    pin->setToolTip(
        tr("Compare every readout and the stall chart with the current kernel, as Nsight Compute's baselines do"));
    sim->addAction(tr("&Clear baseline"), this, &MainWindow::clear_baseline);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* zoom = view->addAction(tr("Reset &zoom"), m_view, &FieldView::reset_view);
    zoom->setShortcut(QKeySequence(tr("Ctrl+0")));
    QAction* bar = view->addAction(tr("&Colour bar"));
    bar->setCheckable(true);
    bar->setChecked(true);
    connect(bar, &QAction::toggled, m_view, &FieldView::set_colour_bar_visible);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

    QToolBar* tools = addToolBar(tr("Run"));
    tools->setObjectName(QStringLiteral("run_toolbar"));
    tools->addAction(play);
    tools->addAction(step);
    tools->addAction(reset);
    tools->addSeparator();
    tools->addAction(zoom);
    tools->addAction(field);

    build_tools_menu();
    build_lessons_menu();

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About StencilScope"), this, [this] {
        QMessageBox::about(this, tr("About StencilScope"),
            tr("<b>StencilScope %1</b><p>Iterative stencil kernels on NVIDIA GPUs, live.</p>"
               "<p>Left-drag on the field injects a source; right- or shift-drag pans; the wheel zooms.</p>")
                .arg(QStringLiteral(STENCILSCOPE_VERSION)));
    });
}

void MainWindow::build_tools_menu() {
    QMenu* menu = menuBar()->addMenu(tr("&Tools"));
    QAction* autotune = menu->addAction(tr("&Autotune block…"), this, [this] {
        AutotuneDialog& d = autotune_dialog();
        d.show();
        d.raise();
        d.activateWindow();
    });
    autotune->setShortcut(QKeySequence(tr("Ctrl+T")));
    autotune->setToolTip(tr("Time every block of the thesis' space for the current configuration"));
    QAction* experiments = menu->addAction(tr("&Experiments…"), this, [this] {
        ExperimentsWindow& w = experiments_window();
        w.show();
        w.raise();
        w.activateWindow();
    });
    experiments->setShortcut(QKeySequence(tr("Ctrl+Shift+X")));
    connect(m_engine, &EngineController::job_progress, this, &MainWindow::on_job_progress);
    connect(m_engine, &EngineController::job_finished, this, [this](const JobOutcome& o) {
        statusBar()->showMessage(o.cancelled ? tr("Cancelled; the live view resumes.")
                : o.error.empty()            ? tr("Done; the live view resumes.")
                                             : tr("The job failed: %1").arg(QString::fromStdString(o.error)),
            5000);
    });
}

AutotuneDialog& MainWindow::autotune_dialog() {
    if (!m_autotune) {
        m_autotune = new AutotuneDialog(*m_engine, this);
        m_autotune->setObjectName(QStringLiteral("autotune_dialog"));
        connect(m_autotune, &AutotuneDialog::apply_block, this, &MainWindow::apply_block);
        connect(m_controls, &ControlPanel::settings_changed, m_autotune,
            [this](const RunSettings& s) { m_autotune->set_config(s.config); });
    }
    m_autotune->set_config(m_controls->settings().config);
    return *m_autotune;
}

ExperimentsWindow& MainWindow::experiments_window() {
    if (!m_experiments) {
        m_experiments = new ExperimentsWindow(*m_engine, this);
        m_experiments->setObjectName(QStringLiteral("experiments_window"));
        m_experiments->set_base(m_controls->settings().config);
        connect(m_controls, &ControlPanel::settings_changed, m_experiments,
            [this](const RunSettings& s) { m_experiments->set_base(s.config); });
    }
    return *m_experiments;
}

void MainWindow::apply_block(const BlockDims& block) {
    RunSettings s = m_controls->settings();
    s.config.policy.heuristic_block = false;
    s.config.policy.block = block;
    m_controls->set_settings(s);
    if (!m_controls->reason().isEmpty()) {
        statusBar()->showMessage(m_controls->reason(), 8000);
        return;
    }
    apply_settings(s);
    statusBar()->showMessage(tr("Running with block %1").arg(QString::fromStdString(format_block(block))), 5000);
}

// While a long job runs the live view is paused: say so where the throughput normally is.
void MainWindow::on_job_progress(const JobProgress& p) {
    statusBar()->showMessage(
        tr("Live view paused: %1 %2/%3").arg(QString::fromStdString(p.what)).arg(p.done).arg(p.total), 2000);
}

void MainWindow::build_status_bar() {
    auto label = [this](const char* name, int min_width) {
        auto* l = new QLabel;
        l->setObjectName(QLatin1String(name));
        l->setMinimumWidth(min_width);
        statusBar()->addPermanentWidget(l);
        return l;
    };
    m_hover_label = new QLabel;
    statusBar()->addWidget(m_hover_label, 1);
    m_device_label = label("status_device", 120);
    m_path_label = label("status_path", 160);
    m_fps_label = label("status_fps", 70);
    m_steps_label = label("status_steps", 100);
    m_gcells_label = label("status_gcells", 100);
    m_iteration_label = label("status_iteration", 110);
}

void MainWindow::apply_settings(const RunSettings& s) {
    const RunSettings& before = m_engine->requested();
    if (m_colormap_auto
        && (s.config.problem.rule != before.config.problem.rule
            || s.config.problem.stencil != before.config.problem.stencil)) {
        m_colormap = colormap_for(s.config);
        m_view->set_colormap(m_colormap);
        m_controls->set_colormap(m_colormap);
    }
    m_engine->configure(s);
}

void MainWindow::on_ready(const EngineReady& r) {
    m_controls->show_engine_ready(r);
    m_metrics->new_configuration();
    update_strip_overlay(r.settings.config);
    m_device_label->setText(QString::fromStdString(r.device_name));
    m_device_label->setToolTip(QString::fromStdString(describe(r.settings.config)));
    update_interop();
}

// Multi-GPU: a dashed line where one GPU's strip ends and the next begins, labelled with the devices.
// Strips are cut along y in 2D and z in 3D, so the XY plane of a 3D run lies in one strip: its GPU is named.
void MainWindow::update_strip_overlay(const StencilConfig& c) {
    if (strip_count(c.placement) <= 1 || !check_strips(c)) {
        m_view->set_overlay({});
        return;
    }
    const StripPlan plan = plan_strips(c);
    m_view->set_overlay([this, plan, dims = c.problem.dims](QPainter& p, const ViewTransform& t) {
        const SliceSelection s = m_view->last_frame().slice;
        p.save();
        QPen pen(QColor(255, 255, 255, 200), 1.5, Qt::DashLine);
        p.setPen(pen);
        const QFontMetrics fm(p.font());
        if (dims == 3 && s.axis == SliceAxis::XY) {
            for (const Strip& strip : plan.strips)
                if (s.index >= strip.first_row && s.index < strip.end_row) {
                    const RectD r = t.field_rect();
                    p.drawText(QPointF(r.left + 6, r.top + fm.ascent() + 4), tr("GPU %1").arg(strip.device));
                }
            p.restore();
            return;
        }
        const RectD r = t.field_rect();
        for (const Strip& strip : plan.strips) {
            const double y0 = t.cell_to_pixel({ 0.0, double(strip.first_row) }).y;
            const double y1 = t.cell_to_pixel({ 0.0, double(strip.end_row) }).y;
            if (strip.first_row > 0) p.drawLine(QPointF(r.left, y0), QPointF(r.left + r.width, y0));
            p.drawText(QPointF(r.left + 6, std::min(y0, y1) + fm.ascent() + 4), tr("GPU %1").arg(strip.device));
        }
        p.restore();
    });
}

void MainWindow::update_interop() {
    const StencilConfig& c = m_engine->requested().config;
    const QString blocker = m_view->interop_blocker(c);
    m_engine->set_device_frames(blocker.isEmpty());
    m_path_label->setText(interop_text());
    m_path_label->setToolTip(blocker.isEmpty() ? tr("Frames go GPU -> GL through a CUDA-registered pixel buffer")
                                               : tr("Frames are copied through host memory: %1").arg(blocker));
}

QString MainWindow::interop_text() const {
    const QString blocker = m_view->interop_blocker(m_engine->requested().config);
    if (!blocker.isEmpty()) return tr("host copy (%1)").arg(blocker);
    if (m_engine->slice().max_projection) return tr("host copy (max projection)");
    return tr("CUDA-GL interop (texture)");
}

void MainWindow::on_frame(const FieldFrame& f) {
    m_view->show_frame(f);
    // ~10 updates a second while running: a label repainted at every frame is work nobody can read
    if (!m_engine->playing() || !m_iteration_clock.isValid() || m_iteration_clock.elapsed() >= 100) {
        m_iteration_label->setText(tr("iteration %1").arg(f.iteration));
        m_iteration_clock.start();
    }
}

// A live frame carries no more texels than the field has pixels on screen, between 256 and 1024 per side:
// fewer to copy and draw per frame (on the H100 the GL side of a frame competes with the compute).
// Scripted runs ask for full resolution (display_max 0) and keep it.
void MainWindow::fit_display_to_view(int pixels) {
    Pacing pacing = m_engine->pacing();
    if (pacing.display_max == 0) return;
    const int texels = std::clamp((pixels + 127) / 128 * 128, 256, 1024);
    if (texels == pacing.display_max) return;
    pacing.display_max = texels;
    m_engine->set_pacing(pacing);
}

void MainWindow::on_presented() {
    // Pace the display: frames are due on a grid one interval apart, so rounding and jitter do not add
    // up (a late frame restarts the grid instead of bunching the next ones). A frame takes `latency`
    // from the request to the screen (the engine finishes its batch first): it is asked for that early.
    const double latency = m_frame_request_clock.nsecsElapsed() / 1e6;
    m_frame_latency_ms = m_frame_latency_ms > 0.0 ? 0.8 * m_frame_latency_ms + 0.2 * latency : latency;
    const double now = m_pace_clock.nsecsElapsed() / 1e6;
    m_next_frame_due_ms = std::max(m_next_frame_due_ms + m_frame_interval_ms, now);
    const double wait = m_next_frame_due_ms - m_frame_latency_ms - now;
    if (m_frame_interval_ms <= 0.0 || wait < 0.5) {
        m_frame_request_clock.restart();
        m_engine->frame_consumed();
    } else if (!m_frame_request_pending) {
        m_frame_request_pending = true;
        QTimer::singleShot(int(std::lround(wait)), Qt::PreciseTimer, this, [this] {
            m_frame_request_pending = false;
            m_frame_request_clock.restart();
            m_engine->frame_consumed();
        });
    }
    ++m_fps_frames;
    const qint64 ms = m_fps_clock.elapsed();
    if (ms >= 500) {
        m_fps = m_fps_frames * 1000.0 / double(ms);
        m_fps_label->setText(tr("%1 FPS").arg(m_fps, 0, 'f', 0));
        m_fps_frames = 0;
        m_fps_clock.restart();
    }
}

void MainWindow::on_stats(const EngineStats& s) {
    m_last_stats = s;
    m_metrics->show_stats(s);
    m_steps_label->setText(tr("%1 steps/s").arg(s.steps_per_second, 0, 'f', 0));
    m_gcells_label->setText(tr("%1 GCells/s").arg(s.gcells_per_second, 0, 'f', 2));
    m_iteration_label->setText(tr("iteration %1").arg(s.iteration));
    if (!m_engine->playing()) {
        m_fps = 0.0;
        m_fps_label->setText(tr("paused"));
    }
}

void MainWindow::set_counters(bool on) {
    QSettings().setValue(QStringLiteral("metrics/counters"), on);
    m_metrics->set_counters_enabled(on);
    m_engine->set_metrics(on);
}

bool MainWindow::pin_baseline() {
    const MetricsSample* latest = m_metrics->latest();
    if (!latest) return false;
    m_metrics->set_baseline(*latest);
    statusBar()->showMessage(tr("Baseline: %1").arg(QString::fromStdString(describe(latest->settings.config))), 5000);
    return true;
}

void MainWindow::clear_baseline() {
    m_metrics->set_baseline(std::nullopt);
}

bool MainWindow::export_metrics(const QString& path, QString* why) {
    const std::vector<MetricsSample>& history = m_metrics->history();
    if (history.empty()) {
        if (why) *why = tr("no launch has been profiled yet: turn hardware counters on and play");
        return false;
    }
    // One row per GPU per profiled launch, as `stencilscope-cli profile` writes them (docs/CSV.md).
    std::vector<CsvRow> rows;
    int launch = 0;
    for (const MetricsSample& s : history) {
        ProfileReport r;
        r.options.config = s.settings.config;
        r.options.config.problem.initial = s.settings.config.problem.initial;
        r.options.config.problem.seed = s.settings.config.problem.seed;
        r.device = s.device_name;
        r.resources = s.resources;
        r.timestamp = s.timestamp;
        r.launch = ++launch;
        r.iteration = s.iteration;
        r.profiled = s.launch;
        r.verdict = { s.dram_peak_gbs * 1e9, ideal_launch_bytes(s.settings.config) };
        if (s.gpus.empty()) rows.push_back(profile_csv_row(r)); // a sample without per-GPU counters
        for (const GpuMetricsSample& g : s.gpus) {
            r.device = g.device_name;
            r.gpu = g.share;
            r.profiled = g.launch;
            r.verdict
                = { g.dram_peak_gbs * 1e9, double(g.share.updated_cells) * ideal_bytes_per_cell(r.options.config) };
            rows.push_back(profile_csv_row(r));
        }
    }
    return write_csv_file(path, profile_csv_header(), rows, why);
}

void MainWindow::export_metrics_dialog() {
    const QString path
        = ask_export_path(tr("Export metrics"), QStringLiteral("stencilscope-metrics.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString why;
    const bool ok = export_metrics(path, &why);
    report_export(ok, why, tr("Saved %1 profiled launches to %2").arg(m_metrics->history().size()).arg(path));
}

void MainWindow::export_charts_dialog() {
    const QString path = ask_export_path(
        tr("Export metric charts"), QStringLiteral("stencilscope-metrics.png"), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString stem = path;
    if (stem.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) stem.chop(4);
    QString why;
    const bool ok = m_metrics->save_charts(stem, &why);
    report_export(ok, why, tr("Saved %1-dram.png, -local.png and -stalls.png").arg(stem));
}

// A click on the plane becomes a source in the volume: a hot spot for heat, a pulse for the wave.
void MainWindow::inject_at(Cell p) {
    if (!m_engine->has_simulation()) return;
    const StencilConfig& c = m_engine->active().settings.config;
    const SliceSelection s = m_view->last_frame().slice;
    int x = p.x, y = p.y, z = 0;
    if (c.problem.dims == 3) {
        if (s.axis == SliceAxis::XY)
            z = s.index;
        else if (s.axis == SliceAxis::XZ)
            x = p.x, z = p.y, y = s.index;
        else
            y = p.x, z = p.y, x = s.index;
    }
    const int radius = std::max(2, std::min(m_view->last_frame().field_width, m_view->last_frame().field_height) / 64);
    const bool wave = c.problem.stencil == StencilKind::Star && c.problem.rule == UpdateRule::Wave;
    const double value = wave ? 1.0 : std::max(1.0, double(m_view->display_range().hi));
    m_engine->inject(x, y, z, radius, value);
}

bool MainWindow::export_field(const QString& path, QString* why) {
    const QImage image = m_view->export_image();
    if (image.isNull()) {
        if (why) *why = tr("no field has been displayed yet");
        return false;
    }
    if (!image.save(path, "PNG")) {
        if (why) *why = tr("could not write %1").arg(path);
        return false;
    }
    return true;
}

bool MainWindow::export_window(const QString& path, QString* why) {
    QPixmap window = grab();
    // grab() renders widgets only: the field's GL window is drawn into its place
    const QImage canvas = m_view->gl_canvas_image();
    if (!canvas.isNull()) {
        QPainter p(&window);
        p.drawImage(
            QRect(m_view->mapTo(this, m_view->gl_canvas_rect().topLeft()), m_view->gl_canvas_rect().size()), canvas);
    }
    if (!window.save(path, "PNG")) {
        if (why) *why = tr("could not write %1").arg(path);
        return false;
    }
    return true;
}

// A save dialog that starts in the last export directory and remembers the one chosen (QSettings).
QString MainWindow::ask_export_path(const QString& title, const QString& file_name, const QString& filter) {
    return gui::ask_export_path(this, title, file_name, filter);
}

void MainWindow::report_export(bool ok, const QString& why, const QString& done) {
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), why);
    else
        statusBar()->showMessage(done, 5000);
}

void MainWindow::export_dialog(bool whole_window) {
    const QString path = ask_export_path(whole_window ? tr("Export window image") : tr("Export field image"),
        whole_window ? QStringLiteral("stencilscope-window.png") : QStringLiteral("stencilscope-field.png"),
        tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString why;
    const bool ok = whole_window ? export_window(path, &why) : export_field(path, &why);
    report_export(ok, why, tr("Saved %1").arg(path));
}

SetupState MainWindow::current_setup() const {
    SetupState s;
    s.settings = m_engine->requested();
    s.steps_per_frame = m_engine->pacing().steps_per_frame;
    s.colormap = m_colormap;
    if (s.settings.config.problem.dims == 3) { // a 2D run has one plane: nothing to store
        SliceSelection slice = m_engine->slice();
        slice.index = std::clamp(slice.index, 0, plane_count(s.settings.config, slice.axis) - 1);
        s.slice = slice;
    }
    return s;
}

bool MainWindow::apply_setup(const SetupState& s, QString* why) {
    // Checked before any knob moves, so a setup the device cannot run leaves the window as it was.
    if (const Status st = can_implement(s.settings.config, m_controls->devices()); !st) {
        if (why) *why = QString::fromStdString(st.reason);
        return false;
    }
    const StencilConfig& c = s.settings.config;
    m_colormap_auto = !s.colormap;
    m_colormap = s.colormap ? *s.colormap : colormap_for(c);
    m_view->set_colormap(m_colormap);
    m_controls->set_colormap(m_colormap);
    SliceSelection slice;
    if (s.slice)
        slice = *s.slice;
    else
        slice.index = plane_count(c, slice.axis) / 2;
    Pacing pacing = m_engine->pacing();
    pacing.steps_per_frame = s.steps_per_frame;
    m_controls->set_settings(s.settings);
    m_controls->set_slice(slice);
    m_controls->set_pacing(pacing);
    m_engine->set_pacing(pacing);
    m_engine->set_slice(slice);
    m_engine->configure(s.settings);
    update_interop();
    if (!s.explanation.isEmpty()) {
        m_lesson_dock->setWindowTitle(s.title.isEmpty() ? tr("Lesson") : tr("Lesson: %1").arg(s.title));
        m_lesson_label->setText(s.explanation);
        m_lesson_dock->show();
    }
    return true;
}

QString MainWindow::lesson_text() const {
    return m_lesson_dock->isHidden() ? QString() : m_lesson_label->text();
}

bool MainWindow::save_setup(const QString& path, QString* why) const {
    return write_setup_file(path, current_setup(), why);
}

bool MainWindow::open_setup(const QString& path, QString* why) {
    SetupState s;
    return read_setup_file(path, m_engine->requested(), s, why) && apply_setup(s, why);
}

void MainWindow::setup_dialog(bool save) {
    QSettings settings;
    const QString key = QStringLiteral("setup/last_directory");
    const QString dir
        = settings.value(key, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString();
    const QString filter = tr("StencilScope setups (*.json)");
    const QString path = save
        ? QFileDialog::getSaveFileName(this, tr("Save setup"), dir + QStringLiteral("/stencilscope-setup.json"), filter)
        : QFileDialog::getOpenFileName(this, tr("Open setup"), dir, filter);
    if (path.isEmpty()) return;
    settings.setValue(key, QFileInfo(path).absolutePath());
    QString why;
    if (save ? save_setup(path, &why) : open_setup(path, &why))
        statusBar()->showMessage(save ? tr("Saved %1").arg(path) : tr("Opened %1").arg(path), 5000);
    else
        QMessageBox::warning(this, save ? tr("Save setup failed") : tr("Open setup failed"), why);
}

void MainWindow::build_lessons_menu() {
    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessons_menu"));
    for (const QString& path : lesson_paths()) {
        SetupState preset;
        QString why;
        if (!read_setup_file(path, m_controls->settings(), preset, &why)) {
            qWarning("lesson %s: %s", qPrintable(path), qPrintable(why));
            continue;
        }
        lessons->addAction(preset.title.isEmpty() ? QFileInfo(path).baseName() : preset.title, this, [this, path] {
            // Re-read so the lesson runs on the window's current backend and device.
            SetupState s;
            QString reason;
            if (read_setup_file(path, m_engine->requested(), s, &reason) && apply_setup(s, &reason))
                statusBar()->showMessage(tr("Lesson: %1").arg(s.title), 5000);
            else
                QMessageBox::warning(this, tr("Lesson unavailable"), reason);
        });
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(e);
}

} // namespace ss::gui
