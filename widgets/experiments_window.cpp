// SPDX-License-Identifier: MIT
#include "widgets/experiments_window.h"

#include "reports/experiment_report.h"
#include "reports/run_report.h"
#include "session/session.h"
#include "widgets/ebisu_model_chart.h"
#include "widgets/experiment_charts.h"
#include "widgets/export_util.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

constexpr int kRadii[] = { 1, 2, 4, 8, 16 };
constexpr int kCfs[] = { 1, 2, 4, 8 };
constexpr Variant kVariants[] = { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream };

QString kind_title(ExperimentKind k) {
    switch (k) {
    case ExperimentKind::Radius:
        return QObject::tr("Performance vs radius per variant (thesis fig. 5.1)");
    case ExperimentKind::Coarsening:
        return QObject::tr("Coarsening factor sweep (thesis figs. 5.4/5.5)");
    case ExperimentKind::Autotuned:
        return QObject::tr("Heuristic vs autotuned blocks (thesis fig. 5.6)");
    case ExperimentKind::Depth:
        return QObject::tr("Temporal blocking: performance vs depth (EBISU)");
    }
    return {};
}

// The thesis' small domain (D = 128 MiB, sec. 4.3.1): 4096² in 2D, 256³ in 3D.
QString default_size(int dims) {
    return dims == 3 ? QStringLiteral("256x256x256") : QStringLiteral("4096x4096");
}

QString number(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
}

QString time_left_text(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return {};
    if (seconds < 60) return QObject::tr("about %1 s left").arg(std::max(1, int(std::ceil(seconds))));
    if (seconds < 3600) return QObject::tr("about %1 min left").arg(int(std::ceil(seconds / 60)));
    return QObject::tr("about %1 h %2 min left").arg(int(seconds / 3600)).arg(int(std::fmod(seconds, 3600) / 60));
}

} // namespace

ExperimentsWindow::ExperimentsWindow(Session& session, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_charts(new ExperimentCharts(this))
    , m_model(new EbisuModelChart(this))
    , m_tabs(new QTabWidget(this))
    , m_table(new QTableWidget(this)) {
    setWindowTitle(tr("StencilScope — Experiments"));
    QTabWidget* tabs = m_tabs;
    tabs->addTab(m_charts, tr("Charts"));
    tabs->addTab(m_model, tr("EBISU model"));
    tabs->addTab(m_table, tr("Table"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->setVisible(false);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(build_controls());
    layout->addWidget(tabs, 1);
    resize(1180, 760);
    connect(&m_session, &Session::job_progress, this, &ExperimentsWindow::on_progress);
    connect(&m_session, &Session::job_finished, this, &ExperimentsWindow::on_finished);
    connect(&m_session, &Session::settings_changed, this, [this](const RunSettings& s) { set_base(s.config); });
    m_base.problem.rule = UpdateRule::Thesis;
    dims_changed();
    show_results();
}

QWidget* ExperimentsWindow::build_controls() {
    auto* panel = new QWidget(this);
    panel->setMaximumWidth(340);
    auto* form = new QFormLayout;
    m_experiment = new QComboBox(panel);
    m_experiment->addItem(tr("Radius sweep (fig. 5.1)"), int(ExperimentKind::Radius));
    m_experiment->addItem(tr("Coarsening sweep (figs. 5.4/5.5)"), int(ExperimentKind::Coarsening));
    m_experiment->addItem(tr("Heuristic vs autotuned (fig. 5.6)"), int(ExperimentKind::Autotuned));
    m_experiment->addItem(tr("Temporal depth sweep (EBISU)"), int(ExperimentKind::Depth));
    m_experiment->setToolTip(tr("Which of the thesis' studies to run. Every improvement is relative to base (CF 1, "
                                "heuristic block) at the same radius, as in the thesis. The depth sweep runs the "
                                "temporal variant at every depth the radius allows (variants do not apply)."));
    form->addRow(tr("Experiment"), m_experiment);
    m_dims = new QComboBox(panel);
    m_dims->addItem(tr("2D"), 2);
    m_dims->addItem(tr("3D"), 3);
    form->addRow(tr("Dimensions"), m_dims);
    m_size = new QLineEdit(panel);
    m_size->setToolTip(tr("Domain size, e.g. 4096x4096 or 256x256x256 (the thesis' 128 MiB domain); "
                          "32768x32768 / 1024x1024x1024 is its 8 GiB one."));
    form->addRow(tr("Size"), m_size);
    auto checks = [panel](auto& boxes, const auto& values, auto label, int per_row) {
        auto* grid = new QGridLayout;
        int i = 0;
        for (const auto& v : values) {
            auto* box = new QCheckBox(label(v), panel);
            box->setChecked(true);
            boxes[v] = box;
            grid->addWidget(box, i / per_row, i % per_row);
            ++i;
        }
        return grid;
    };
    form->addRow(tr("Radii"),
        checks(
            m_radius_boxes, kRadii, [](int r) { return QStringLiteral("R%1").arg(r); }, 5));
    form->addRow(tr("Variants"),
        checks(
            m_variant_boxes, kVariants, [](Variant v) { return QString::fromLatin1(to_string(v).data()); }, 2));
    m_variant_boxes[Variant::Stream]->setChecked(false);
    m_variant_boxes[Variant::Stream]->setToolTip(tr("2.5D streaming: not one of the thesis' kernels (it is "
                                                    "StencilScope's fastest); off by default to match the figures."));
    form->addRow(tr("CF"),
        checks(
            m_cf_boxes, kCfs, [](int c) { return QString::number(c); }, 4));
    m_steps = new QSpinBox(panel);
    m_steps->setRange(1, 10000);
    m_steps->setValue(8);
    m_steps->setToolTip(tr("Steps per timed run (the thesis runs eight iterations)."));
    form->addRow(tr("Steps per run"), m_steps);
    m_repeats = new QSpinBox(panel);
    m_repeats->setRange(1, 30);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Timed runs per point after a warm-up; the median counts (the thesis uses 30)."));
    form->addRow(tr("Timed runs"), m_repeats);
    m_counters = new QCheckBox(tr("Read the bottleneck metric"), panel);
    m_counters->setChecked(true);
    m_counters->setToolTip(tr("Profile one launch of every point (CUPTI) for DRAM write throughput (2D) or "
                              "local-memory throughput (3D), the thesis' bottleneck metrics, and the DRAM bytes "
                              "per cell and step (the depth sweep's chart)."));
    form->addRow(QString(), m_counters);

    m_run = new QPushButton(tr("&Run"), panel);
    m_cancel = new QPushButton(tr("&Cancel"), panel);
    m_progress = new QProgressBar(panel);
    m_progress->hide();
    m_status = new QLabel(panel);
    m_status->setObjectName(QStringLiteral("experiment_status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_show = new QComboBox(panel);
    m_show->setToolTip(tr("Chart every series, or one variant's (its CFs / autotuned form)."));
    m_open = new QPushButton(tr("&Open results…"), panel);
    m_open->setToolTip(tr("Chart a CSV written by this window or by `stencilscope-cli sweep --csv`."));
    m_export_csv = new QPushButton(tr("Export &CSV…"), panel);
    m_export_png = new QPushButton(tr("Export &PNG…"), panel);

    auto* run_row = new QHBoxLayout;
    run_row->addWidget(m_run);
    run_row->addWidget(m_cancel);
    auto* files = new QHBoxLayout;
    files->addWidget(m_open);
    files->addWidget(m_export_csv);
    files->addWidget(m_export_png);
    auto* column = new QVBoxLayout(panel);
    column->addLayout(form);
    column->addLayout(run_row);
    column->addWidget(m_progress);
    column->addWidget(m_status);
    column->addStretch();
    auto* show = new QFormLayout;
    show->addRow(tr("Show"), m_show);
    column->addLayout(show);
    column->addLayout(files);

    connect(m_experiment, &QComboBox::currentIndexChanged, this, &ExperimentsWindow::update_enabled);
    connect(m_dims, &QComboBox::currentIndexChanged, this, &ExperimentsWindow::dims_changed);
    connect(m_run, &QPushButton::clicked, this, &ExperimentsWindow::start);
    connect(m_cancel, &QPushButton::clicked, &m_session, &Session::cancel_job);
    connect(m_show, &QComboBox::currentIndexChanged, this,
        [this] { m_charts->show_points(m_points, kind_title(m_kind), m_show->currentData().toString(), m_kind); });
    connect(m_open, &QPushButton::clicked, this, &ExperimentsWindow::open_dialog);
    connect(m_export_csv, &QPushButton::clicked, this, [this] { export_dialog(false); });
    connect(m_export_png, &QPushButton::clicked, this, [this] { export_dialog(true); });
    return panel;
}

void ExperimentsWindow::set_base(const StencilConfig& c) {
    if (m_job != 0) return;
    // The thesis' experiments use the thesis' rule, whatever the live view runs (the wave, say): the
    // window's precision and device carry over, its rule does not.
    m_base.problem.rule = UpdateRule::Thesis;
    m_base.problem.precision = c.problem.precision;
    m_base.placement.backend = c.placement.backend;
    m_base.placement.device = c.placement.device;
    update_enabled();
}

ExperimentSpec ExperimentsWindow::spec() const {
    ExperimentSpec s;
    s.kind = ExperimentKind(m_experiment->currentData().toInt());
    s.base = m_base;
    s.base.problem.stencil = StencilKind::Star;
    s.base.problem.dims = m_dims->currentData().toInt();
    s.base.placement.gpus = 1;
    s.base.policy.heuristic_block = true;
    if (auto e = parse_extent(m_size->text().trimmed().toStdString(), s.base.problem.dims))
        s.base.problem.size = *e;
    else
        s.base.problem.size = {}; // check_experiment explains
    s.radii.clear();
    for (const auto& [r, box] : m_radius_boxes)
        if (box->isChecked()) s.radii.push_back(r);
    s.variants.clear();
    for (Variant v : kVariants)
        if (m_variant_boxes.at(v)->isChecked()) s.variants.push_back(v);
    s.cfs.clear();
    for (const auto& [cf, box] : m_cf_boxes)
        if (box->isChecked()) s.cfs.push_back(cf);
    s.steps = m_steps->value();
    s.repeats = m_repeats->value();
    s.counters = m_counters->isChecked();
    return s;
}

void ExperimentsWindow::dims_changed() {
    const int dims = m_dims->currentData().toInt();
    if (!parse_extent(m_size->text().trimmed().toStdString(), dims)) m_size->setText(default_size(dims));
    update_enabled();
}

void ExperimentsWindow::update_enabled() {
    const bool idle = m_job == 0;
    const auto kind = ExperimentKind(m_experiment->currentData().toInt());
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_experiment, m_dims, m_size, m_steps, m_repeats, m_counters, m_open })
        w->setEnabled(idle);
    for (auto& [r, box] : m_radius_boxes) box->setEnabled(idle);
    for (auto& [v, box] : m_variant_boxes) box->setEnabled(idle && kind != ExperimentKind::Depth);
    for (auto& [cf, box] : m_cf_boxes) box->setEnabled(idle && kind != ExperimentKind::Radius);
    const Status s = check_experiment(spec());
    const bool cuda = m_base.placement.backend == Backend::Cuda;
    m_run->setEnabled(idle && s && (cuda || kind != ExperimentKind::Autotuned));
    m_run->setToolTip(!s                                   ? QString::fromStdString(s.reason)
            : (!cuda && kind == ExperimentKind::Autotuned) ? tr("Autotuning times CUDA blocks: choose a CUDA device.")
                                                           : tr("Pauses the live view while it runs."));
    m_cancel->setEnabled(!idle);
    m_export_csv->setEnabled(idle && !m_points.empty());
    m_export_png->setEnabled(idle && !m_points.empty());
    if (idle && !s) m_status->setText(QString::fromStdString(s.reason));
    if (idle) update_model();
}

void ExperimentsWindow::update_model() {
    // The depth sweep's first temporal series, else the window's configuration at its first radius and CF.
    const ExperimentSpec s = spec();
    StencilConfig c = s.base;
    c.problem.radius = s.radii.empty() ? 1 : s.radii.front();
    c.policy.cf = s.cfs.empty() ? 1 : s.cfs.front();
    const std::vector<ExperimentPoint> none;
    const std::vector<ExperimentPoint>& shown = m_kind == ExperimentKind::Depth ? m_points : none;
    const auto first = std::find_if(shown.begin(), shown.end(),
        [](const ExperimentPoint& p) { return p.config.policy.variant == Variant::Temporal; });
    if (first != shown.end()) c = first->config;
    const DeviceInfo* d = m_session.devices().find(c.placement.device);
    QString why = tr("no CUDA device here: the model needs the GPU's SM count and clocks.");
    if (d && first != shown.end() && !m_device.empty() && m_device != d->name) {
        why = tr("these results come from %1, this machine has %2: the model needs that GPU's clocks.")
                  .arg(QString::fromStdString(m_device), QString::fromStdString(d->name));
        d = nullptr;
    }
    m_model->show_model(c, d, shown, why);
}

void ExperimentsWindow::show_model_tab() {
    m_experiment->setCurrentIndex(m_experiment->findData(int(ExperimentKind::Depth)));
    m_tabs->setCurrentWidget(m_model);
}

bool ExperimentsWindow::start() {
    if (m_job != 0) return false;
    const ExperimentSpec s = spec();
    if (Status ok = check_experiment(s); !ok) {
        m_status->setText(QString::fromStdString(ok.reason));
        return false;
    }
    JobRequest r;
    r.kind = JobRequest::Kind::Experiment;
    r.experiment = s;
    m_job = m_session.start_job(r);
    if (m_job == 0) {
        m_status->setText(tr("Another long job is running on the engine: wait for it or cancel it first."));
        return false;
    }
    m_progress->setRange(0, 0);
    m_progress->show();
    m_status->setText(tr("Running… the live view is paused meanwhile."));
    // The points stream in as they are measured: the old ones go now.
    m_kind = s.kind;
    m_points.clear();
    m_device.clear();
    show_results();
    m_clock.start();
    update_enabled();
    return true;
}

void ExperimentsWindow::on_progress(const JobProgress& p) {
    if (p.id != m_job) return;
    m_progress->setRange(0, std::max(p.total, 1));
    m_progress->setValue(p.done);
    m_progress->setFormat(QStringLiteral("%v / %m"));
    if (p.point) { // charted and tabled as it arrives, improvements against the base points so far
        m_points.push_back(*p.point);
        normalise_to_base(m_points);
        show_results();
    }
    // Time left from the pace so far: units of work (points, or a search's candidates) are alike enough.
    const double elapsed = m_clock.elapsed() / 1000.0;
    m_time_left = p.done > 0 ? elapsed / p.done * (p.total - p.done) : NAN;
    const QString left = time_left_text(m_time_left);
    m_status->setText(
        tr("Running %1 … %2 the live view is paused meanwhile.")
            .arg(QString::fromStdString(p.what), left.isEmpty() ? QString() : left + QStringLiteral(";")));
}

void ExperimentsWindow::on_finished(const JobOutcome& o) {
    if (o.id != m_job) return;
    m_job = 0;
    m_progress->hide(); // shown only while a sweep runs
    if (!o.error.empty()) {
        m_status->setText(tr("The sweep could not run: %1").arg(QString::fromStdString(o.error)));
        update_enabled();
        return;
    }
    m_kind = o.request.experiment.kind;
    m_points = o.points;
    m_device = o.device_name;
    show_results();
    QString text = status_text() + (o.cancelled ? tr(" Cancelled: the points so far are shown.") : QString());
    for (const std::string& w : o.warnings) text += QLatin1Char('\n') + QString::fromStdString(w);
    m_status->setText(text);
    update_enabled();
}

QString ExperimentsWindow::status_text() const {
    if (m_points.empty()) return tr("No results yet.");
    int failed = 0;
    for (const ExperimentPoint& p : m_points) failed += p.error.empty() ? 0 : 1;
    return tr("%1 points on %2, %3 could not run.")
        .arg(m_points.size())
        .arg(m_device.empty() ? tr("an unknown device") : QString::fromStdString(m_device))
        .arg(failed);
}

void ExperimentsWindow::show_results() {
    const QString keep = m_show->currentData().toString();
    m_show->blockSignals(true);
    m_show->clear();
    m_show->addItem(tr("every series"), QString());
    std::vector<Variant> seen;
    for (const ExperimentPoint& p : m_points)
        if (std::find(seen.begin(), seen.end(), p.config.policy.variant) == seen.end()) {
            seen.push_back(p.config.policy.variant);
            const QString name = QString::fromLatin1(to_string(p.config.policy.variant).data());
            m_show->addItem(name, name);
        }
    m_show->setCurrentIndex(std::max(0, m_show->findData(keep)));
    m_show->blockSignals(false);
    m_charts->show_points(m_points, kind_title(m_kind), m_show->currentData().toString(), m_kind);
    fill_table();
    update_model();
}

void ExperimentsWindow::fill_table() {
    const QStringList headers { tr("series"), tr("radius"), tr("CF"), tr("block"), tr("GCells/s"), tr("× base"),
        tr("bottleneck GB/s"), tr("bottleneck × base"), tr("error"), tr("depth"), tr("DRAM B/cell/step") };
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(m_points.size()));
    for (int i = 0; i < int(m_points.size()); ++i) {
        const ExperimentPoint& p = m_points[i];
        auto cell = [&](int column, const QString& text, double sort_value = NAN) {
            auto* item = new QTableWidgetItem(text);
            if (std::isfinite(sort_value)) item->setData(Qt::DisplayRole, sort_value);
            m_table->setItem(i, column, item);
        };
        cell(0, QString::fromStdString(p.series));
        cell(1, QString(), p.config.problem.radius);
        cell(2, QString(), p.config.policy.cf);
        cell(3, QString::fromStdString(format_block(p.config.policy.block)));
        cell(4, number(p.gcells_per_s, 1), p.error.empty() ? p.gcells_per_s : NAN);
        cell(5, number(p.improvement, 2), p.improvement);
        cell(6, number(p.bottleneck_gbs, 0), p.bottleneck_gbs);
        cell(7, number(p.bottleneck_improvement, 2), p.bottleneck_improvement);
        cell(8, QString::fromStdString(p.error));
        cell(9, QString(), fused_steps(p.config.policy));
        cell(10, number(p.dram_bytes_per_cell, 3), p.dram_bytes_per_cell);
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
}

void ExperimentsWindow::show_only(const QString& variant) {
    m_show->setCurrentIndex(std::max(0, m_show->findData(variant)));
}

bool ExperimentsWindow::open_results(const QString& path, QString* why) {
    ExperimentTable table;
    if (Status s = read_experiment_csv(QFile::encodeName(path).toStdString(), &table); !s) {
        if (why) *why = QString::fromStdString(s.reason);
        return false;
    }
    m_kind = table.kind;
    m_points = std::move(table.points);
    m_device = table.device;
    // The controls describe what is shown, so that Run repeats it on this machine.
    const StencilConfig& first = m_points.front().config;
    m_experiment->setCurrentIndex(m_experiment->findData(int(m_kind)));
    m_dims->setCurrentIndex(m_dims->findData(first.problem.dims));
    m_size->setText(QString::fromStdString(format_extent(first.problem.size, first.problem.dims)));
    show_results();
    m_status->setText(
        table.cut.empty() ? status_text() : status_text() + QStringLiteral(" — ") + QString::fromStdString(table.cut));
    update_enabled();
    return true;
}

bool ExperimentsWindow::export_csv(const QString& path, QString* why) const {
    if (m_points.empty()) {
        if (why) *why = tr("no results to export yet");
        return false;
    }
    return write_csv_file(
        path, experiment_csv_header(), experiment_csv_rows(m_kind, m_points, m_device, timestamp_now()), why);
}

bool ExperimentsWindow::export_png(const QString& path, QString* why) {
    if (m_points.empty()) {
        if (why) *why = tr("no results to export yet");
        return false;
    }
    return m_charts->save_png(path, why, sweep_caption());
}

QString ExperimentsWindow::sweep_caption() const {
    if (m_points.empty()) return {};
    const StencilConfig& c = m_points.front().config;
    return QStringLiteral("%1 · rule %2 · %3D %4 %5 · %6 · %7 points")
        .arg(kind_title(m_kind), QString::fromLatin1(to_string(c.problem.rule).data()))
        .arg(c.problem.dims)
        .arg(QString::fromStdString(format_extent(c.problem.size, c.problem.dims)),
            QString::fromLatin1(to_string(c.problem.precision).data()),
            m_device.empty() ? tr("unknown device") : QString::fromStdString(m_device))
        .arg(m_points.size());
}

void ExperimentsWindow::open_dialog() {
    QSettings settings;
    const QString key = QStringLiteral("export/last_directory");
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open sweep results"), settings.value(key).toString(), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString why;
    if (!open_results(path, &why)) QMessageBox::warning(this, tr("Cannot open results"), why);
}

void ExperimentsWindow::export_dialog(bool png) {
    const QString path = ask_export_path(this, png ? tr("Export charts") : tr("Export sweep"),
        png ? QStringLiteral("stencilscope-experiment.png") : QStringLiteral("stencilscope-experiment.csv"),
        png ? tr("PNG images (*.png)") : tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    QString why;
    if (!(png ? export_png(path, &why) : export_csv(path, &why))) QMessageBox::warning(this, tr("Export failed"), why);
}

} // namespace ss::gui
