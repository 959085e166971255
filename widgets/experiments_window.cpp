// SPDX-License-Identifier: MIT
// The Experiments window's controls: its layout, the spec they describe and what is enabled when.
// Running a sweep: experiments_window_sweep.cpp; its results: experiments_window_results.cpp; opening and
// exporting them: experiments_window_files.cpp.
#include "widgets/experiments_window.h"

#include "gpu/problem/stencil_catalog.h"
#include "session/session.h"
#include "widgets/cpu_loop_caveat.h"
#include "widgets/ebisu_model_chart.h"
#include "widgets/experiment_charts.h"
#include "widgets/experiment_kind_title.h"
#include "widgets/plain_text.h"
#include "widgets/screen_fit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace ss::gui {
namespace {

constexpr int kRadii[] = { 1, 2, 4, 8, 16 };
constexpr int kCfs[] = { 1, 2, 4, 8 };
constexpr Variant kVariants[] = { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream };

// The thesis' small domain (D = 128 MiB, sec. 4.3.1): 4096² in 2D, 256³ in 3D.
QString default_size(int dims) {
    return dims == 3 ? QStringLiteral("256x256x256") : QStringLiteral("4096x4096");
}

} // namespace

ExperimentsWindow::ExperimentsWindow(Session& session, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_session(session)
    , m_tick(new QTimer(this))
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
    resize_to_screen(*this, { 1180, 760 });
    m_tick->setInterval(1000); // the time left counts down between the sweep's reports
    connect(m_tick, &QTimer::timeout, this, &ExperimentsWindow::show_time_left);
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
    m_stencil = new QComboBox(panel);
    m_stencil->addItem(tr("Star (thesis)"), QStringLiteral("star"));
    m_stencil->addItem(tr("Box"), QStringLiteral("box"));
    m_stencil->setToolTip(tr("Star: the thesis' stencil and rule. Box: all (2R+1)^dims points of each radius, the "
                             "jacobi rule; it turns compute-bound as R grows, where the star stays memory-bound. "
                             "Variants a box cannot run show their reason in the table."));
    form->addRow(tr("Stencil"), m_stencil);
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
    m_status = plain_label(new QLabel(panel)); // it names the device and the cut from a sweep CSV
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
    connect(m_stencil, &QComboBox::currentIndexChanged, this, &ExperimentsWindow::update_enabled);
    connect(m_run, &QPushButton::clicked, this, &ExperimentsWindow::start);
    connect(m_cancel, &QPushButton::clicked, &m_session, &Session::cancel_job);
    connect(m_show, &QComboBox::currentIndexChanged, this, [this] {
        m_charts->show_points(m_points, kind_title(m_kind), m_show->currentData().toString(), m_kind,
            ran_on_cpu_loop(m_points, m_device));
    });
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
    if (m_stencil->currentData().toString() == QStringLiteral("box")) { // the sweep gives each radius its box
        use_shape(s.base.problem, box_shape(s.base.problem.dims, 1));
        s.base.problem.rule = UpdateRule::Jacobi;
    }
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
    for (QWidget* w : std::initializer_list<QWidget*> {
             m_experiment, m_dims, m_stencil, m_size, m_steps, m_repeats, m_counters, m_open })
        w->setEnabled(idle);
    for (auto& [r, box] : m_radius_boxes) box->setEnabled(idle);
    for (auto& [v, box] : m_variant_boxes) box->setEnabled(idle && kind != ExperimentKind::Depth);
    for (auto& [cf, box] : m_cf_boxes) box->setEnabled(idle && kind != ExperimentKind::Radius);
    const Status s = check_experiment(spec());
    const bool cuda = m_base.placement.backend == Backend::Cuda;
    m_run->setEnabled(idle && s && (cuda || kind != ExperimentKind::Autotuned));
    m_run->setToolTip(!s                                   ? tooltip_text(QString::fromStdString(s.reason))
            : (!cuda && kind == ExperimentKind::Autotuned) ? tr("Autotuning times CUDA blocks: choose a CUDA device.")
                                                           : tr("Pauses the live view while it runs."));
    m_cancel->setEnabled(!idle);
    m_export_csv->setEnabled(idle && !m_points.empty());
    m_export_png->setEnabled(idle && !m_points.empty());
    if (idle && !s) m_status->setText(QString::fromStdString(s.reason));
    if (idle) update_model();
}

} // namespace ss::gui
