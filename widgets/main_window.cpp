// SPDX-License-Identifier: MIT
#include "widgets/main_window.h"

#include "session/session.h"
#include "widgets/autotune_dialog.h"
#include "widgets/control_panel.h"
#include "widgets/experiments_window.h"
#include "widgets/export_util.h"
#include "widgets/help_menu.h"
#include "widgets/metrics_panel.h"
#include "widgets/run_status_bar.h"
#include "widgets/strip_overlay.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
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
    resize(1280, 800);
    m_controls = new ControlPanel(*m_session);
    m_metrics = new MetricsPanel(*m_session);
    m_status = new RunStatusBar(*m_session, *m_view);
    setStatusBar(m_status);
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
    // The charts may want more height than a projector's window can spare: they scroll, the field stays.
    auto* metrics_scroll = new QScrollArea;
    metrics_scroll->setObjectName(QStringLiteral("metrics_scroll"));
    metrics_scroll->setWidget(m_metrics);
    metrics_scroll->setWidgetResizable(true);
    metrics_scroll->setFrameShape(QFrame::NoFrame);
    QDockWidget* metrics = dock("metrics_dock", tr("Metrics"), metrics_scroll, Qt::BottomDockWidgetArea);
    m_lesson_label = new QLabel;
    m_lesson_label->setObjectName(QStringLiteral("lesson_text"));
    m_lesson_label->setTextFormat(Qt::PlainText); // text from a file: never rich text (no resource loading)
    m_lesson_label->setWordWrap(true);
    m_lesson_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lesson_label->setMargin(6);
    auto* lesson_scroll = new QScrollArea;
    lesson_scroll->setWidget(m_lesson_label);
    lesson_scroll->setWidgetResizable(true);
    lesson_scroll->setFrameShape(QFrame::NoFrame);
    m_lesson_dock = dock("lesson_dock", tr("Lesson"), lesson_scroll, Qt::BottomDockWidgetArea);
    splitDockWidget(metrics, m_lesson_dock, Qt::Horizontal); // side by side: the lesson takes no height
    m_lesson_dock->hide();
    connect(m_session, &Session::lesson_changed, this, [this](const Lesson& l) {
        m_lesson_dock->setWindowTitle(l.title.isEmpty() ? tr("Lesson") : tr("Lesson: %1").arg(l.title));
        m_lesson_label->setText(lesson_dock_text(l, m_session->requested().config.placement.backend == Backend::Cpu));
        m_lesson_dock->show();
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
        [this](const EngineReady& r) { show_strip_overlay(*m_view, r.settings.config); });
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

void MainWindow::build_menus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    build_export_menu(file);
    file->addSeparator();
    file->addAction(tr("&Open setup…"), QKeySequence::Open, this, [this] { setup_dialog(false); });
    file->addAction(tr("&Save setup…"), QKeySequence::Save, this, [this] { setup_dialog(true); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

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
    pin->setToolTip(
        tr("Compare every readout and the stall chart with the current kernel, as Nsight Compute's baselines do"));
    sim->addAction(tr("&Clear baseline"), m_session, &Session::clear_baseline);

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

void MainWindow::build_export_menu(QMenu* file) {
    QMenu* exports = file->addMenu(tr("&Export"));
    QAction* field = exports->addAction(tr("&Field image…"), this, [this] { export_dialog(false); });
    field->setObjectName(QStringLiteral("export_field"));
    field->setShortcut(QKeySequence(tr("Ctrl+E")));
    QAction* window = exports->addAction(tr("&Window image…"), this, [this] { export_dialog(true); });
    window->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    QAction* metrics_csv = exports->addAction(tr("&Metrics (CSV)…"), this, &MainWindow::export_metrics_dialog);
    metrics_csv->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    exports->addAction(tr("Metric &charts (PNG)…"), this, &MainWindow::export_charts_dialog);
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
    m_autotune->set_config(m_controls->settings().config);
    return *m_autotune;
}

ExperimentsWindow& MainWindow::experiments_window() {
    if (!m_experiments) {
        m_experiments = new ExperimentsWindow(*m_session, this);
        m_experiments->setObjectName(QStringLiteral("experiments_window"));
        m_experiments->set_base(m_controls->settings().config);
    }
    return *m_experiments;
}

void MainWindow::apply_block(const BlockDims& block) {
    RunSettings s = m_controls->settings();
    s.config.policy.heuristic_block = false;
    s.config.policy.block = block;
    QString why;
    if (!m_session->request(s, &why)) {
        m_status->showMessage(why, 8000);
        return;
    }
    m_status->showMessage(tr("Running with block %1").arg(QString::fromStdString(format_block(block))), 5000);
}

bool MainWindow::export_metrics(const QString& path, QString* why, QStringList* written) {
    return m_session->export_metrics_csv(path, written, why);
}

void MainWindow::export_metrics_dialog() {
    QString why;
    if (m_session->history().empty() && m_session->history().timing().empty()) { // say why before the dialog
        report_export(
            false, tr("Nothing to export yet: press Play; the timing figures are recorded twice a second."), {});
        return;
    }
    const QString path = ask_export_path(
        this, tr("Export metrics"), QStringLiteral("stencilscope-metrics.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QStringList written;
    const bool ok = export_metrics(path, &why, &written);
    QString done = tr("Saved %1").arg(written.join(QStringLiteral(", ")));
    if (m_session->history().empty()) { // timing only: say why there are no counter columns
        const QString unavailable = m_session->counters_unavailable();
        done += tr(" (timing only: %1)")
                    .arg(!unavailable.isEmpty()     ? unavailable
                            : m_session->counters() ? tr("no launch has been profiled yet")
                                                    : tr("hardware counters are off"));
    }
    report_export(ok, why, done);
}

void MainWindow::export_charts_dialog() {
    QString why;
    if (!m_metrics->charts_exportable(&why)) {
        report_export(false, why, {}); // empty charts: refused before asking where
        return;
    }
    const QString path = ask_export_path(
        this, tr("Export metric charts"), QStringLiteral("stencilscope-metrics.png"), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString stem = path;
    if (stem.endsWith(QLatin1String(".png"), Qt::CaseInsensitive)) stem.chop(4);
    QStringList written;
    const bool ok = m_metrics->save_charts(stem, &why, &written);
    report_export(ok, why, tr("Saved %1").arg(written.join(QStringLiteral(", "))));
}

bool MainWindow::pin_baseline() {
    if (!m_session->pin_baseline()) return false;
    m_status->showMessage(
        tr("Baseline: %1").arg(QString::fromStdString(describe(m_session->baseline()->settings.config))), 5000);
    return true;
}

SetupState MainWindow::current_setup() const {
    return m_session->current_setup();
}
bool MainWindow::apply_setup(const SetupState& s, QString* why) {
    return m_session->apply_setup(s, why);
}
bool MainWindow::open_setup(const QString& path, QString* why) {
    return m_session->open_setup(path, why);
}
bool MainWindow::save_setup(const QString& path, QString* why) const {
    return m_session->save_setup(path, why);
}
QString MainWindow::lesson_text() const {
    return m_lesson_dock->isHidden() ? QString() : m_lesson_label->text();
}

QString MainWindow::field_caption() const {
    const FieldFrame& f = m_view->last_frame();
    const EngineReady& active = m_session->active();
    const QString device = QString::fromStdString(active.device_name);
    QString what = m_view->quantity();
    if (active.settings.config.problem.dims == 3)
        what += f.slice.max_projection ? tr(", max projection") : tr(", slice %1").arg(f.slice.index);
    return caption_for(active.settings.config, device, f.iteration, what);
}

bool MainWindow::export_field(const QString& path, QString* why) {
    QImage image = m_view->export_image();
    if (image.isNull()) {
        if (why) *why = tr("no field has been displayed yet");
        return false;
    }
    // What the picture shows travels with it: a caption strip below, and the same text in the PNG.
    const QString caption = field_caption();
    image = with_caption(image, caption);
    image.setText(QStringLiteral("Description"), caption);
    return save_png(image, path, why);
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
    return save_png(window.toImage(), path, why);
}

void MainWindow::report_export(bool ok, const QString& why, const QString& done) {
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), why);
    else
        m_status->showMessage(done, 5000);
}

void MainWindow::export_dialog(bool whole_window) {
    const QString path = ask_export_path(this, whole_window ? tr("Export window image") : tr("Export field image"),
        whole_window ? QStringLiteral("stencilscope-window.png") : QStringLiteral("stencilscope-field.png"),
        tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QString why;
    const bool ok = whole_window ? export_window(path, &why) : export_field(path, &why);
    report_export(ok, why, tr("Saved %1").arg(path));
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
        m_status->showMessage(save ? tr("Saved %1").arg(path) : tr("Opened %1").arg(path), 5000);
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
            QString reason;
            if (m_session->open_setup(path, &reason))
                m_status->showMessage(tr("Lesson: %1").arg(m_session->lesson().title), 5000);
            else
                QMessageBox::warning(this, tr("Lesson unavailable"), reason);
        });
    }
}

// Without a saved layout the docks take a share of the window rather than their contents' size: on a
// projector (1280x720) the field keeps at least half the window, on a large screen the charts get more.
void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (m_docks_fitted || m_layout_restored) return;
    m_docks_fitted = true;
    fit_docks();
}

void MainWindow::fit_docks() {
    auto* controls = findChild<QDockWidget*>(QStringLiteral("controls_dock"));
    auto* metrics = findChild<QDockWidget*>(QStringLiteral("metrics_dock"));
    if (!controls || !metrics) return;
    resizeDocks({ controls }, { std::clamp(width() * 27 / 100, 280, 440) }, Qt::Horizontal);
    resizeDocks({ metrics }, { std::clamp(height() / 6, 110, 320) }, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    QMainWindow::closeEvent(e);
}

} // namespace ss::gui
