// SPDX-License-Identifier: MIT
#include "widgets/main_window.h"

#include "session/session.h"
#include "widgets/autotune_dialog.h"
#include "widgets/control_panel.h"
#include "widgets/experiments_window.h"
#include "widgets/export_util.h"
#include "widgets/help_menu.h"
#include "widgets/kernel_exercise_dialog.h"
#include "widgets/kernel_source_view.h"
#include "widgets/lesson_dock.h"
#include "widgets/metrics_panel.h"
#include "widgets/plain_text.h"
#include "widgets/roofline_window.h"
#include "widgets/run_status_bar.h"
#include "widgets/screen_fit.h"
#include "widgets/strip_overlay.h"
#include "widgets/window_exports.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>

static void init_resources() {
    Q_INIT_RESOURCE(stencilscope);
}

namespace ss::gui {

MainWindow::MainWindow(const WindowOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_session(new Session(options.devices, this))
    , m_view(new FieldView(options.renderer)) {
    init_resources();
    setWindowTitle(tr("StencilScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/stencilscope.svg")));
    setCentralWidget(m_view);
    resize_to_screen(*this, { 1280, 800 }); // within the screen: a projector's 1280x720 too
    m_controls = new ControlPanel(*m_session);
    m_metrics = new MetricsPanel(*m_session);
    m_status = new RunStatusBar(*m_session, *m_view);
    setStatusBar(m_status);
    m_exports = new WindowExports(*this, *m_session, *m_view, *m_metrics, *m_status);
    build_docks();
    build_menus();
    connect_view();
    if (options.restore_layout) {
        QSettings settings;
        restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
        restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
        m_lesson_dock->hide(); // it shows with a lesson; a restored layout must not bring back an empty one
        m_layout_restored = !settings.value(QStringLiteral("window/state")).toByteArray().isEmpty();
    }
    start(options);
}

MainWindow::~MainWindow() = default;

void MainWindow::build_docks() {
    auto* scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("controls_scroll"));
    scroll->setWidget(m_controls);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(std::min(m_controls->minimumSizeHint().width() + 24, 400));
    auto dock = [this](const char* name, const QString& title, QWidget* content, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(content);
        addDockWidget(area, d);
        return d;
    };
    dock("controls_dock", tr("Controls"), scroll, Qt::RightDockWidgetArea);
    // The knobs take the window's whole height, the metrics the width beside them: at 1280x720 the metrics'
    // row of charts would otherwise leave the knobs a third of the height and a scroll bar.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    // The charts may want more height than a projector's window can spare: they scroll, the field stays.
    auto* metrics_scroll = new QScrollArea;
    metrics_scroll->setObjectName(QStringLiteral("metrics_scroll"));
    metrics_scroll->setWidget(m_metrics);
    metrics_scroll->setWidgetResizable(true);
    metrics_scroll->setFrameShape(QFrame::NoFrame);
    dock("metrics_dock", tr("Metrics"), metrics_scroll, Qt::BottomDockWidgetArea);
    m_lesson_dock = new LessonDock(*m_session, this);
    // A full-height column left of the field: room for the text and the recorded runs' chart (beside the
    // metrics it was a five-line strip); the field gives up width, the knobs and the metrics stay.
    addDockWidget(Qt::LeftDockWidgetArea, m_lesson_dock);
    connect(m_lesson_dock, &LessonDock::kernel_exercise_requested, this,
        [this] { open_kernel_exercise(*m_session, this); });
    connect(m_lesson_dock, &LessonDock::model_chart_requested, this, [this] {
        ExperimentsWindow& w = experiments_window();
        w.set_base(m_controls->concrete_settings().config);
        w.show_model_tab();
        w.show();
        w.raise();
    });
}

// The field view follows the session (frames, colour map, range, strips) and reports back what it shows.
void MainWindow::connect_view() {
    connect(m_session, &Session::frame, m_view, &FieldView::show_frame);
    connect(m_session, &Session::colormap_changed, m_view, &FieldView::set_colormap);
    connect(m_session, &Session::settings_changed, m_view,
        [this](const RunSettings& s) { m_view->set_quantity(quantity_name(s.config)); });
    connect(m_session, &Session::range_policy_changed, m_view, &FieldView::set_range_policy);
    connect(m_session, &Session::ready, m_view,
        [this](const EngineReady& r) { show_strip_overlay(*m_view, m_session->plan_for(r.settings.config)); });
    connect(m_view, &FieldView::presented, m_session, &Session::frame_presented);
    connect(m_view, &FieldView::display_extent_changed, m_session, &Session::fit_display);
    connect(m_view, &FieldView::inject_requested, m_session, [this](Cell p) {
        const FieldFrame& f = m_view->last_frame();
        m_session->inject_at(p.x, p.y, f.slice, f.field_width, f.field_height, m_view->display_range().hi);
    });
}

// The command line's (or the defaults') first state; the panels and the view follow the session's signals.
void MainWindow::start(const WindowOptions& options) {
    m_view->set_colormap(m_session->colormap());
    if (options.colormap_given) m_session->set_colormap(options.colormap);
    m_session->set_range_policy(options.range);
    SliceSelection slice = options.slice;
    if (!options.slice_given) slice.index = plane_count(options.settings.config, slice.axis) / 2;
    m_session->set_pacing(options.pacing);
    m_session->set_slice(slice);
    m_session->set_playing(options.playing);
    m_session->set_counters(options.metrics_given
            ? options.metrics
            : QSettings().value(QStringLiteral("metrics/counters"), options.metrics).toBool());
    double max_fps = options.max_fps;
    if (max_fps == 0.0) max_fps = screen() && screen()->refreshRate() >= 30 ? screen()->refreshRate() : 60.0;
    m_session->set_max_fps(max_fps);
    if (options.gpu_fallback)
        m_status->set_notice(tr("No usable GPU: running on the CPU backend instead of CUDA"),
            tr("--backend cuda asked for the GPU, but none can run kernels here: %1.")
                .arg(QString::fromStdString(options.devices.unavailable.empty() ? std::string("no CUDA device found")
                                                                                : options.devices.unavailable)));
    m_session->request(options.settings); // refused: the panel shows the settings and why
}

double MainWindow::displayed_fps() const {
    return m_session->displayed_fps();
}

QString MainWindow::interop_text() const {
    return m_status->interop_text();
}

QString MainWindow::lesson_text() const {
    return m_lesson_dock->text();
}

void MainWindow::build_menus() {
    m_exports->fill_file_menu(menuBar()->addMenu(tr("&File")));

    QMenu* sim = menuBar()->addMenu(tr("&Simulation"));
    QAction* play = sim->addAction(tr("&Play / pause"));
    play->setShortcut(QKeySequence(Qt::Key_Space));
    connect(play, &QAction::triggered, m_session, &Session::toggle_playing);
    QAction* step = sim->addAction(tr("&Step"), m_session, &Session::step);
    step->setShortcut(QKeySequence(tr("Ctrl+Right")));
    QAction* reset = sim->addAction(tr("&Reset field"), m_session, &Session::reset_field);
    reset->setShortcut(QKeySequence(tr("Ctrl+R")));
    sim->addSeparator();
    QAction* pin = sim->addAction(tr("Pin &baseline"), this, [this] {
        if (!pin_baseline())
            m_status->showMessage(tr("No profiled launch yet: turn hardware counters on and play."), 5000);
    });
    pin->setShortcut(QKeySequence(tr("Ctrl+B")));
    pin->setObjectName(QStringLiteral("pin_baseline"));
    sim->addAction(tr("&Clear baseline"), m_session, &Session::clear_baseline);
    sim->setToolTipsVisible(true);
    // Counter-only actions are off where counters cannot run (CPU backend, no CUPTI), their tooltip says why.
    auto counters_only = [this, pin] {
        const QString why = m_session->counters_unavailable();
        const QString pin_tip
            = tr("Compare every readout and the stall chart with the current kernel, as Nsight Compute's baselines do");
        pin->setEnabled(why.isEmpty());
        pin->setToolTip(why.isEmpty() ? pin_tip : tooltip_text(tr("Needs hardware counters: %1").arg(why)));
        if (auto* charts = findChild<QAction*>(QStringLiteral("export_metric_charts"))) {
            charts->setEnabled(why.isEmpty());
            charts->setToolTip(why.isEmpty() ? tr("The metric charts as PNG images, with a caption")
                                             : tooltip_text(tr("Needs hardware counters: %1").arg(why)));
        }
    };
    counters_only();
    connect(m_session, &Session::settings_changed, this, counters_only);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* zoom = view->addAction(tr("Reset &zoom"), m_view, &FieldView::reset_view);
    zoom->setShortcut(QKeySequence(tr("Ctrl+0")));
    QAction* bar = view->addAction(tr("&Colour bar"));
    bar->setCheckable(true);
    bar->setChecked(true);
    connect(bar, &QAction::toggled, m_view, &FieldView::set_colour_bar_visible);
    view->addAction(tr("&Kernel source..."), this, [this] { // the generated CUDA text, its PTX and SASS
        auto* dialog = findChild<KernelSourceView*>();
        if (!dialog) dialog = new KernelSourceView(m_session, this);
        dialog->show_configuration(m_session->requested().config);
        dialog->show();
        dialog->raise();
    });
    QAction* roofline = view->addAction(tr("&Roofline…"), this, [this] {
        auto* window = findChild<RooflineWindow*>();
        if (!window) window = new RooflineWindow(*m_session, this);
        window->show();
        window->raise();
        window->activateWindow();
    });
    roofline->setObjectName(QStringLiteral("roofline_action"));
    view->setToolTipsVisible(true);
    auto gpu_only = [this, roofline] { // the CPU backend has no device ceilings: off, saying why
        const QString why = roofline_unavailable(*m_session);
        roofline->setEnabled(why.isEmpty());
        roofline->setToolTip(
            why.isEmpty() ? tr("The kernel on the GPU's measured ceilings (DRAM, L2, FMA peaks)") : tooltip_text(why));
    };
    gpu_only();
    connect(m_session, &Session::settings_changed, this, gpu_only);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

    QToolBar* tools = addToolBar(tr("Run"));
    tools->setObjectName(QStringLiteral("run_toolbar"));
    tools->addAction(play);
    tools->addAction(step);
    tools->addAction(reset);
    tools->addSeparator();
    tools->addAction(zoom);
    tools->addAction(findChild<QAction*>(QStringLiteral("export_field")));

    build_tools_menu();
    build_lessons_menu();
    // The first minute: a visible way into the lessons, beside the run buttons.
    tools->addSeparator();
    QAction* start_here = tools->addAction(tr("Start here: lessons"));
    start_here->setObjectName(QStringLiteral("start_here"));
    start_here->setToolTip(tr("Guided experiments: each lesson sets up a kernel and says what to change and watch"));
    start_here->setMenu(findChild<QMenu*>(QStringLiteral("lessons_menu")));
    if (auto* button = qobject_cast<QToolButton*>(tools->widgetForAction(start_here)))
        button->setPopupMode(QToolButton::InstantPopup);

    build_help_menu(*this, QString::fromStdString(m_controls->devices().cuda_support));
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
}

AutotuneDialog& MainWindow::autotune_dialog() {
    if (!m_autotune) {
        m_autotune = new AutotuneDialog(*m_session, this);
        m_autotune->setObjectName(QStringLiteral("autotune_dialog"));
        connect(m_autotune, &AutotuneDialog::apply_block, this, &MainWindow::apply_block);
    }
    m_autotune->set_config(m_controls->concrete_settings().config);
    return *m_autotune;
}

ExperimentsWindow& MainWindow::experiments_window() {
    if (!m_experiments) {
        m_experiments = new ExperimentsWindow(*m_session, this);
        m_experiments->setObjectName(QStringLiteral("experiments_window"));
        m_experiments->set_base(m_controls->concrete_settings().config);
    }
    return *m_experiments;
}

void MainWindow::apply_block(const BlockDims& block, int depth) {
    RunSettings s = m_controls->concrete_settings();
    s.config.policy.heuristic_block = false;
    s.config.policy.block = block;
    const bool temporal = s.config.policy.variant == Variant::Temporal;
    if (temporal && depth >= 1) s.config.policy.depth = depth;
    QString why;
    if (!m_session->request(s, &why)) {
        m_status->showMessage(why, 8000);
        return;
    }
    const QString text = QString::fromStdString(format_block(block));
    m_status->showMessage(temporal ? tr("Running with block %1, depth %2").arg(text).arg(s.config.policy.depth)
                                   : tr("Running with block %1").arg(text),
        5000);
}

bool MainWindow::pin_baseline() {
    if (!m_session->pin_baseline()) return false;
    m_status->showMessage(
        tr("Baseline: %1").arg(QString::fromStdString(describe(m_session->baseline()->settings.config))), 5000);
    return true;
}

void MainWindow::build_lessons_menu() {
    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessons_menu"));
    for (const QString& path : lesson_paths()) {
        SetupState preset;
        QString why;
        if (!read_setup_file(path, m_controls->concrete_settings(), preset, &why)) {
            qWarning("lesson %s: %s", qPrintable(path), qPrintable(why));
            continue;
        }
        lessons->addAction(preset.title.isEmpty() ? QFileInfo(path).baseName() : preset.title, this, [this, path] {
            // Re-read so the lesson runs on the window's current backend and device.
            QString reason;
            if (m_session->open_setup(path, &reason))
                m_status->showMessage(tr("Lesson: %1").arg(m_session->lesson().title), 5000);
            else
                warn_plain(this, tr("Lesson unavailable"), reason);
        });
    }
    lessons->addSeparator();
    QAction* write
        = lessons->addAction(tr("Write the kernel…"), this, [this] { open_kernel_exercise(*m_session, this); });
    write->setObjectName(QStringLiteral("write_kernel_action"));
}

// Without a saved layout the docks take a share of the window rather than their contents' size: on a
// projector (1280x720) the field keeps at least half the window, on a large screen the charts get more.
void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (m_docks_fitted || m_layout_restored) return;
    m_docks_fitted = true;
    // Without counters (no CUDA GPU, no CUPTI) there are no charts: the readouts need the least.
    fit_docks(m_session->counters_unavailable().isEmpty());
}

void MainWindow::fit_docks(bool charts) {
    auto* controls = findChild<QDockWidget*>(QStringLiteral("controls_dock"));
    auto* metrics = findChild<QDockWidget*>(QStringLiteral("metrics_dock"));
    if (!controls || !metrics) return;
    const int controls_width = std::clamp(width() * 27 / 100, 280, 440);
    resizeDocks({ controls }, { controls_width }, Qt::Horizontal);
    // The metrics get what the field can spare while it keeps half the window (110 px at least, room for
    // the readouts; at most 360 px, readouts and a row of charts), more on a tall screen (below).
    const auto* toolbar = findChild<QToolBar*>(QStringLiteral("run_toolbar"));
    const int bars
        = menuBar()->height() + statusBar()->sizeHint().height() + (toolbar ? toolbar->sizeHint().height() : 0);
    resizeDocks({ metrics }, { metrics_dock_height(size(), bars, controls_width, charts) }, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(e);
}

} // namespace ss::gui
