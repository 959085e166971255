// SPDX-License-Identifier: MIT
#include "widgets/autotune_dialog.h"

#include "reports/autotune_report.h"
#include "reports/run_report.h"
#include "session/session.h"
#include "widgets/autotune_heatmap.h"
#include "widgets/export_util.h"
#include "widgets/plain_text.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::gui {
namespace {

// The search answers for this configuration whatever its block: variant, CF, size, precision... all count.
bool same_search(StencilConfig a, StencilConfig b) {
    a.policy.block = b.policy.block = {};
    a.policy.heuristic_block = b.policy.heuristic_block = true;
    a.policy.depth = b.policy.depth = 1; // the temporal variant's depth is searched too
    return a == b;
}

QString block_text(const BlockDims& b) {
    return QString::fromStdString(format_block(b));
}

} // namespace

AutotuneDialog::AutotuneDialog(Session& session, QWidget* parent)
    : QDialog(parent)
    , m_session(session)
    , m_heatmap(new AutotuneHeatmap(this))
    , m_config_label(new QLabel(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_steps(new QSpinBox(this))
    , m_repeats(new QSpinBox(this))
    , m_run(new QPushButton(tr("&Search"), this))
    , m_rerun(new QPushButton(tr("Search &again"), this))
    , m_cancel(new QPushButton(tr("&Cancel search"), this))
    , m_apply_best(new QPushButton(tr("Apply &best"), this))
    , m_apply_cell(new QPushButton(tr("Apply this &cell"), this))
    , m_export(new QPushButton(tr("&Export…"), this)) {
    setWindowTitle(tr("Autotune block dimensions"));
    // Rich text (bold, line breaks): every string from a file, the device or the engine in them is escaped.
    m_config_label->setTextFormat(Qt::RichText);
    m_status->setTextFormat(Qt::RichText);
    m_config_label->setWordWrap(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_steps->setRange(1, 1000);
    m_steps->setValue(8);
    m_steps->setToolTip(tr("Steps per timed run (the thesis times eight iterations)."));
    m_repeats->setRange(1, 30);
    m_repeats->setValue(3);
    m_repeats->setToolTip(tr("Timed runs per block after one warm-up; the median counts."));
    m_run->setToolTip(tr("Time every block of the thesis' space (Bx ≥ By ≥ Bz, powers of two, 32–1024 "
                         "threads). A stored search of the same device and configuration is shown at once."));
    m_rerun->setToolTip(tr("Measure again, ignoring a stored search."));
    m_apply_best->setToolTip(tr("Run the live view with the fastest block."));
    m_apply_cell->setToolTip(tr("Run the live view with the selected block (double-clicking a cell does the same)."));

    auto* knobs = new QHBoxLayout;
    knobs->addWidget(new QLabel(tr("Steps per run"), this));
    knobs->addWidget(m_steps);
    knobs->addWidget(new QLabel(tr("Timed runs"), this));
    knobs->addWidget(m_repeats);
    knobs->addStretch();
    knobs->addWidget(m_run);
    knobs->addWidget(m_rerun);
    auto* progress = new QHBoxLayout;
    progress->addWidget(m_progress, 1);
    progress->addWidget(m_cancel);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_export);
    buttons->addStretch();
    buttons->addWidget(m_apply_cell);
    buttons->addWidget(m_apply_best);
    auto* close = new QPushButton(tr("Close"), this);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_config_label);
    layout->addLayout(knobs);
    layout->addLayout(progress);
    layout->addWidget(m_heatmap, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    resize(760, 520);

    connect(m_run, &QPushButton::clicked, this, [this] { start(true); });
    connect(m_rerun, &QPushButton::clicked, this, [this] { start(false); });
    connect(m_cancel, &QPushButton::clicked, &m_session, &Session::cancel_job);
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    // A cell's result carries its (fastest) temporal depth: applying it sets block and depth.
    const auto apply = [this](std::optional<BlockDims> b) {
        const AutotuneResult* r = b ? m_heatmap->result(*b) : nullptr;
        if (r && r->error.empty()) emit apply_block(*b, r->depth);
    };
    connect(m_apply_best, &QPushButton::clicked, this, [this, apply] { apply(m_heatmap->best()); });
    connect(m_apply_cell, &QPushButton::clicked, this, [this, apply] { apply(m_heatmap->selected()); });
    connect(m_heatmap, &AutotuneHeatmap::cell_selected, this, [this] { update_buttons(); });
    connect(m_heatmap, &AutotuneHeatmap::cell_activated, this, [apply](BlockDims b) { apply(b); });
    connect(m_export, &QPushButton::clicked, this, &AutotuneDialog::export_dialog);
    connect(&m_session, &Session::job_progress, this, &AutotuneDialog::on_progress);
    connect(&m_session, &Session::job_finished, this, &AutotuneDialog::on_finished);
    connect(&m_session, &Session::settings_changed, this, [this](const RunSettings& s) { set_config(s.config); });
    update_buttons();
}

void AutotuneDialog::set_config(const StencilConfig& config) {
    m_config = config;
    QString text = tr("<b>%1</b>, %2")
                       .arg(QString::fromStdString(describe(config)).toHtmlEscaped(),
                           QString::fromStdString(format_extent(config.problem.size, config.problem.dims)));
    if (m_have_result && !same_search(m_last.request.config, config))
        text += tr("<br>The map shows an earlier search (%1).")
                    .arg(QString::fromStdString(describe(m_last.request.config)).toHtmlEscaped());
    m_config_label->setText(text);
    update_buttons();
}

bool AutotuneDialog::start(bool use_cache) {
    if (m_job != 0) return false;
    JobRequest r;
    r.kind = JobRequest::Kind::Autotune;
    r.config = m_config;
    r.steps = m_steps->value();
    r.repeats = m_repeats->value();
    r.use_cache = use_cache;
    m_job = m_session.start_job(r);
    if (m_job == 0) {
        m_status->setText(tr("Another long job is running on the engine: wait for it or cancel it first."));
        return false;
    }
    m_have_result = false;
    m_heatmap->set_space({}, std::nullopt);
    m_progress->setRange(0, 0); // busy until the space arrives
    m_status->setText(tr("Compiling… the live view is paused while blocks are timed."));
    update_buttons();
    return true;
}

void AutotuneDialog::on_progress(const JobProgress& p) {
    if (p.id != m_job) return;
    if (p.done == 0 && !p.space.empty()) {
        m_heatmap->set_space(p.space, p.heuristic);
        m_progress->setRange(0, p.total);
    }
    if (p.has_candidate) m_heatmap->set_result(p.candidate);
    m_progress->setValue(p.done);
    m_progress->setFormat(QStringLiteral("%v / %m  ") + QString::fromStdString(p.what));
    update_buttons();
}

void AutotuneDialog::on_finished(const JobOutcome& o) {
    if (o.id != m_job) return;
    m_job = 0;
    m_last = o;
    m_have_result = !o.candidates.empty();
    if (!o.candidates.empty()) {
        if (o.from_cache) {
            std::vector<BlockDims> space; // each block once: a temporal search stores one result per depth
            for (const AutotuneResult& r : o.candidates)
                if (std::find(space.begin(), space.end(), r.block) == space.end()) space.push_back(r.block);
            m_heatmap->set_space(space, o.heuristic);
        }
        m_heatmap->set_results(o.candidates);
    }
    m_progress->setRange(0, std::max(int(o.candidates.size()), 1));
    m_progress->setValue(int(o.candidates.size()));
    m_progress->setFormat(QStringLiteral("%v / %m"));
    m_status->setText(status_text());
    set_config(m_config);
    update_buttons();
}

QString AutotuneDialog::status_text() const {
    if (m_job != 0 || m_last.id == 0) return m_status->text(); // running, or nothing searched yet
    if (!m_last.error.empty())
        return tr("The search could not run: %1").arg(QString::fromStdString(m_last.error).toHtmlEscaped());
    const std::optional<BlockDims> best = m_heatmap->best();
    if (!best) return m_last.cancelled ? tr("Cancelled before any block was timed.") : tr("No block could run.");
    const AutotuneResult* b = m_heatmap->result(*best);
    QString text = tr("Best: <b>%1</b> at %2 GCells/s").arg(block_text(*best)).arg(b->gcells_per_s, 0, 'f', 1);
    if (m_last.request.config.policy.variant == Variant::Temporal) text += tr(" (depth %1)").arg(b->depth);
    if (const AutotuneResult* h = m_heatmap->result(m_last.heuristic); h && h->error.empty() && h->gcells_per_s > 0)
        text += tr(", %1× the heuristic's %2 (%3 GCells/s)")
                    .arg(b->gcells_per_s / h->gcells_per_s, 0, 'f', 2)
                    .arg(block_text(m_last.heuristic))
                    .arg(h->gcells_per_s, 0, 'f', 1);
    else if (m_last.heuristic.threads() > 0)
        text += tr("; the heuristic's %1 is outside the thesis' space").arg(block_text(m_last.heuristic));
    text += tr(". %1 of %2 blocks timed on %3")
                .arg(m_heatmap->measured())
                .arg(m_heatmap->candidates())
                .arg(QString::fromStdString(m_last.device_name).toHtmlEscaped());
    if (m_last.from_cache)
        text += tr(" (stored search from %1)").arg(QString::fromStdString(m_last.cached_at).toHtmlEscaped());
    if (m_last.cancelled) text += tr(" — cancelled");
    text += QLatin1Char('.');
    for (const std::string& w : m_last.warnings)
        text += QStringLiteral("<br>") + QString::fromStdString(w).toHtmlEscaped();
    return text;
}

void AutotuneDialog::update_buttons() {
    const bool idle = m_job == 0;
    m_run->setEnabled(idle && m_config.placement.backend == Backend::Cuda);
    m_rerun->setEnabled(idle && m_config.placement.backend == Backend::Cuda);
    if (m_config.placement.backend != Backend::Cuda && idle)
        m_status->setText(tr("Autotune times CUDA blocks: choose a CUDA device in the controls."));
    m_cancel->setEnabled(!idle);
    m_steps->setEnabled(idle);
    m_repeats->setEnabled(idle);
    const bool same = m_have_result && same_search(m_last.request.config, m_config);
    m_apply_best->setEnabled(idle && same && m_heatmap->best().has_value());
    const AutotuneResult* selected = m_heatmap->selected() ? m_heatmap->result(*m_heatmap->selected()) : nullptr;
    m_apply_cell->setEnabled(idle && same && selected && selected->error.empty());
    m_export->setEnabled(idle && m_have_result);
}

bool AutotuneDialog::export_csv(const QString& path, QString* why) const {
    if (!m_have_result) {
        if (why) *why = tr("no search to export yet");
        return false;
    }
    return write_csv_file(
        path, autotune_csv_header(), autotune_csv_rows(m_last.request.config, m_last.candidates, timestamp_now()), why);
}

bool AutotuneDialog::export_png(const QString& path, QString* why) {
    return save_widget_png(m_heatmap, path, why);
}

void AutotuneDialog::export_dialog() {
    const QString path = ask_export_path(this, tr("Export autotune search"),
        QStringLiteral("stencilscope-autotune.csv"), tr("CSV (*.csv);;PNG (*.png)"));
    if (path.isEmpty()) return;
    QString why;
    const bool png = path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive);
    if (!(png ? export_png(path, &why) : export_csv(path, &why))) warn_plain(this, tr("Export failed"), why);
}

} // namespace ss::gui
