// SPDX-License-Identifier: MIT
#include "widgets/control_panel.h"

#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "session/setup_file.h"
#include "widgets/display_controls.h"
#include "widgets/form_helpers.h"
#include "widgets/kernel_resources_box.h"
#include "widgets/plain_text.h"
#include "widgets/stencil_overview.h"
#include "widgets/stencil_picker.h"
#include "widgets/teaching_texts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace ss::gui {
using namespace form;
namespace {

QSpinBox* spin(const char* name, int lo, int hi) {
    auto* s = named(new QSpinBox, name);
    s->setRange(lo, hi);
    s->setKeyboardTracking(false); // typing "1024" must not re-initialise at 1, 10 and 102
    s->setAccelerated(true);
    return s;
}

int defaults_edge(bool cpu, int dims) {
    return dims == 3 ? (cpu ? 64 : 256) : (cpu ? 256 : 1024);
}

} // namespace

ControlPanel::ControlPanel(Session& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_devices(session.devices()) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(build_stencil_group());
    m_reason = plain_label(named(new QLabel, "reason")); // reasons quote values from files and the command line
    m_reason->setWordWrap(true);
    m_reason->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reason->hide();
    layout->addWidget(m_reason);
    layout->addWidget(build_run_group());
    m_display = new DisplayControls(m_session);
    layout->addWidget(m_display);
    m_resources = make_kernel_resources_box();
    layout->addWidget(m_resources);
    layout->addStretch(1);
    set_teaching_tooltips(this);
    update_enabled();
    observe_session();
}

QWidget* ControlPanel::build_stencil_group() {
    auto* box = new QGroupBox(tr("Stencil"));
    auto* form = new QFormLayout(box);
    m_device = named(new QComboBox, "device");
    for (const DeviceInfo& d : m_devices.devices)
        m_device->addItem(tr("GPU %1: %2").arg(d.index).arg(QString::fromStdString(d.name)), d.index);
    m_device->addItem(tr("CPU (host threads)"), -1);
    // Why no GPU is listed, or whether counters work: the driver, NVRTC and CUPTI in plain words.
    m_device->setToolTip(tooltip_text(QString::fromStdString(m_devices.cuda_support).trimmed()));
    m_gpus = spin("gpus", 1, std::max<int>(1, m_devices.count()));
    form->addRow(tr("Device"), m_device);
    form->addRow(tr("GPU count"), m_gpus);
    m_overlap = named(new QCheckBox(tr("Overlap halo exchange")), "overlap");
    // Under the overlap switch: how strips get their neighbours' rows (copies, or the kernels load them).
    m_halo = named(new QComboBox, "halo");
    m_halo->addItem(tr("auto"), int(HaloMode::Auto));
    m_halo->addItem(tr("staged"), int(HaloMode::Staged));
    m_halo->addItem(tr("remote"), int(HaloMode::Remote));
    // Beside the halo choice: the axis the strips are cut along (GPU-SM's X/Y/Z comparison).
    m_split = named(new QComboBox, "split");
    m_split->addItem(tr("slowest (y in 2D, z in 3D)"), int(SplitAxis::Slowest));
    m_split->addItem(tr("x (fastest)"), int(SplitAxis::X));
    m_split->addItem(tr("y"), int(SplitAxis::Y));
    m_split->addItem(tr("z"), int(SplitAxis::Z));
    form->addRow(QString(), m_overlap);
    form->addRow(tr("Halo"), m_halo);
    form->addRow(tr("Split along"), m_split);

    m_picker = new StencilPicker(this);
    m_stencil = m_picker->combo();
    m_rule = named(new QComboBox, "rule");
    for (UpdateRule r : { UpdateRule::Thesis, UpdateRule::Jacobi, UpdateRule::Wave })
        m_rule->addItem(qs(to_string(r)), int(r));
    m_dims = named(new QComboBox, "dims");
    m_dims->addItem(tr("2D"), 2);
    m_dims->addItem(tr("3D"), 3);
    form->addRow(tr("Stencil"), m_stencil);
    auto* overview = new StencilOverview(m_session); // the drawing, the intensity and the editor
    form->addRow(overview); // the whole width: the drawing, the facts and Edit… in one row
    connect(overview, &StencilOverview::shape_accepted, m_picker, &StencilPicker::choose_shape);
    form->addRow(tr("Update rule"), m_rule);
    form->addRow(tr("Dimensions"), m_dims);

    m_nx = spin("nx", 1, 1 << 16);
    m_ny = spin("ny", 1, 1 << 16);
    m_nz = spin("nz", 1, 1 << 12);
    form->addRow(tr("Domain"), row({ m_nx, m_ny, m_nz }));
    m_precision = named(new QComboBox, "precision");
    for (Precision p : { Precision::FP32, Precision::FP64 }) m_precision->addItem(qs(to_string(p)), int(p));
    m_variant = named(new QComboBox, "variant");
    m_radius = spin("radius", 1, kMaxRadius);
    m_cf = named(new QComboBox, "cf");
    for (int cf : kCoarseningFactors) m_cf->addItem(QString::number(cf), cf);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(tr("Kernel variant"), m_variant);
    form->addRow(tr("Radius"), m_radius);
    form->addRow(tr("Coarsening (CF)"), m_cf);
    m_depth = spin("depth", 1, kMaxTemporalDepth);
    form->addRow(tr("Temporal depth"), m_depth);

    m_heuristic = named(new QCheckBox(tr("Heuristic (thesis 3.18)")), "heuristic");
    m_bx = spin("bx", 1, 1024);
    m_by = spin("by", 1, 1024);
    m_bz = spin("bz", 1, 64);
    m_heuristic_choice = plain_label(named(new QLabel, "heuristic_choice"));
    m_heuristic_choice->setWordWrap(true);
    form->addRow(tr("Block"), m_heuristic);
    form->addRow(QString(), row({ m_bx, m_by, m_bz }));
    form->addRow(QString(), m_heuristic_choice);

    m_initial = named(new QComboBox, "initial");
    m_initial->addItem(tr("Gaussian"), int(InitialCondition::Gaussian));
    m_initial->addItem(tr("Random"), int(InitialCondition::Random));
    m_initial->addItem(tr("Square"), int(InitialCondition::Square));
    m_initial->addItem(tr("Hot edges"), int(InitialCondition::HotEdges));
    m_seed = spin("seed", 0, 1 << 30);
    form->addRow(tr("Initial field"), row({ m_initial, m_seed }));

    // Choosing temporal starts from its default depth; the other variants run one step per launch.
    connect(m_variant, &QComboBox::currentIndexChanged, this, [this] {
        if (m_updating || !m_variant->count() || current<Variant>(m_variant) != Variant::Temporal
            || m_sent.config.policy.variant == Variant::Temporal)
            return;
        m_updating = true;
        m_depth->setValue(default_temporal_depth(settings().config.problem));
        m_updating = false;
    });
    connect(m_split, &QComboBox::currentIndexChanged, this, [this] {
        // Strips along a faster axis cannot compute their boundary first: overlap does not apply there.
        if (!m_updating && !splits_slowest(settings().config)) m_overlap->setChecked(false);
    });
    for (QComboBox* c : { m_device, m_halo, m_split, m_rule, m_precision, m_variant, m_cf, m_initial })
        connect(c, &QComboBox::currentIndexChanged, this, &ControlPanel::knobs_edited);
    for (QSpinBox* s : { m_gpus, m_nx, m_ny, m_nz, m_radius, m_depth, m_bx, m_by, m_bz, m_seed })
        connect(s, &QSpinBox::valueChanged, this, &ControlPanel::knobs_edited);
    connect(m_heuristic, &QCheckBox::toggled, this, &ControlPanel::knobs_edited);
    connect(m_overlap, &QCheckBox::toggled, this, &ControlPanel::knobs_edited);
    connect(m_picker, &StencilPicker::chosen, this, &ControlPanel::stencil_edited);
    connect(m_picker, &StencilPicker::file_refused, this, &ControlPanel::show_file_refusal);
    connect(m_dims, &QComboBox::currentIndexChanged, this, &ControlPanel::dims_edited);
    return box;
}

QWidget* ControlPanel::build_run_group() {
    auto* box = new QGroupBox(tr("Run"));
    auto* form = new QFormLayout(box);
    m_steps = spin("steps_per_frame", 0, kMaxStepsPerFrame);
    m_steps->setSpecialValueText(tr("max (free run)"));
    form->addRow(tr("Steps per frame"), m_steps);
    m_play = named(new QPushButton(tr("Play")), "play");
    m_play->setCheckable(true);
    m_step = named(new QPushButton(tr("Step")), "step");
    m_reset = named(new QPushButton(tr("Reset")), "reset");
    form->addRow(row({ m_play, m_step, m_reset }));
    connect(m_steps, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_updating) m_session.set_steps_per_frame(v);
    });
    connect(m_play, &QPushButton::toggled, this, [this](bool on) {
        m_play->setText(on ? tr("Pause") : tr("Play"));
        if (!m_updating) m_session.set_playing(on);
    });
    connect(m_step, &QPushButton::clicked, &m_session, &Session::step);
    connect(m_reset, &QPushButton::clicked, &m_session, &Session::reset_field);
    return box;
}

// The panel follows the session: what another panel, a setup, a lesson or the engine changed shows here.
void ControlPanel::observe_session() {
    connect(&m_session, &Session::settings_changed, this, [this](const RunSettings& s) {
        if (!(s == m_sent)) set_settings(s);
    });
    connect(&m_session, &Session::request_refused, this, [this](const RunSettings& s) { set_settings(s); });
    connect(&m_session, &Session::pacing_changed, this, &ControlPanel::set_pacing);
    connect(&m_session, &Session::playing_changed, this, &ControlPanel::set_playing);
    connect(&m_session, &Session::ready, this, &ControlPanel::show_engine_ready);
    connect(&m_session, &Session::failed, this,
        [this](const EngineFailure& f) { show_engine_failure(QString::fromStdString(f.reason)); });
}

void ControlPanel::fill_variants(StencilKind kind, Variant selected) {
    const bool was = m_updating;
    m_updating = true;
    m_variant->clear();
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced,
             Variant::Temporal, Variant::Naive, Variant::Merged, Variant::NoTemp })
        if (variant_applies(kind, v)) m_variant->addItem(qs(to_string(v)), int(v));
    select_data(m_variant, selected);
    m_updating = was;
}

void ControlPanel::set_settings(const RunSettings& s) {
    m_updating = true;
    const StencilConfig& c = s.config;
    m_device->setCurrentIndex(
        std::max(m_device->findData(c.placement.backend == Backend::Cpu ? -1 : c.placement.device), 0));
    m_gpus->setValue(c.placement.gpus);
    m_overlap->setChecked(c.placement.overlap);
    select_data(m_halo, c.placement.halo);
    select_data(m_split, c.placement.split);
    m_picker->show(c.problem);
    select_data(m_rule, c.problem.rule);
    m_dims->setCurrentIndex(m_dims->findData(c.problem.dims));
    m_nx->setValue(c.problem.size.nx);
    m_ny->setValue(c.problem.size.ny);
    m_nz->setValue(c.problem.size.nz);
    select_data(m_precision, c.problem.precision);
    fill_variants(c.problem.stencil, c.policy.variant);
    m_radius->setValue(c.problem.radius);
    m_cf->setCurrentIndex(std::max(m_cf->findData(c.policy.cf), 0));
    m_depth->setValue(c.policy.depth);
    m_heuristic->setChecked(c.policy.heuristic_block);
    m_bx->setValue(c.policy.block.x);
    m_by->setValue(c.policy.block.y);
    m_bz->setValue(c.policy.block.z);
    select_data(m_initial, s.config.problem.initial);
    m_seed->setValue(int(s.config.problem.seed));
    m_updating = false;
    m_sent = s;
    update_enabled();
    knobs_edited();
}

RunSettings ControlPanel::settings() const {
    RunSettings s = m_sent;
    StencilConfig& c = s.config;
    const int device = m_device->currentData().toInt();
    c.placement.backend = device < 0 ? Backend::Cpu : Backend::Cuda;
    c.placement.device = std::max(device, 0);
    c.placement.gpus = m_gpus->value();
    c.placement.overlap = m_overlap->isChecked();
    c.placement.halo = current<HaloMode>(m_halo);
    c.placement.split = current<SplitAxis>(m_split);
    c.problem.rule = current<UpdateRule>(m_rule);
    c.problem.dims = m_dims->currentData().toInt();
    c.problem.size = { m_nx->value(), m_ny->value(), c.problem.dims == 3 ? m_nz->value() : 1 };
    c.problem.precision = current<Precision>(m_precision);
    if (m_variant->count()) c.policy.variant = current<Variant>(m_variant);
    c.problem.radius = m_radius->value();
    m_picker->apply_to(c.problem); // after dims and radius: a box takes them, the other point stencils fix them
    c.policy.cf = m_cf->currentData().toInt();
    c.policy.depth = depth_for(c.policy.variant, m_depth->value());
    c.policy.heuristic_block = m_heuristic->isChecked();
    c.policy.block = { m_bx->value(), m_by->value(), c.problem.dims == 3 ? m_bz->value() : 1 };
    s.config.problem.initial = current<InitialCondition>(m_initial);
    s.config.problem.seed = std::uint64_t(m_seed->value());
    return s;
}

void ControlPanel::stencil_edited() {
    if (m_updating) return;
    const StencilProblem problem = settings().config.problem; // the picker's stencil, dims and radius
    const StencilKind kind = problem.stencil;
    const Variant v = current<Variant>(m_variant);
    fill_variants(kind, variant_applies(kind, v) ? v : kind == StencilKind::Diffusion4 ? Variant::Smem : Variant::Base);
    m_updating = true;
    if (kind != StencilKind::Star) m_cf->setCurrentIndex(0); // the diffusion ladder and point stencils have no CF
    if (kind == StencilKind::Points) { // the knobs show what the stencil fixes; jacobi is its only rule
        select_data(m_rule, UpdateRule::Jacobi);
        m_radius->setValue(problem.radius);
    }
    // A point stencil's variant that cannot run it falls back to base (the plan's verdict, as the menu shows it).
    if (kind == StencilKind::Points
        && !m_session.plan_for(settings().config).variant_verdict(current<Variant>(m_variant)))
        select_data(m_variant, Variant::Base);
    m_updating = false;
    if (problem.dims != m_dims->currentData().toInt()) {
        m_updating = true;
        m_dims->setCurrentIndex(m_dims->findData(problem.dims));
        m_updating = false;
        dims_edited();
        return;
    }
    knobs_edited();
}

void ControlPanel::dims_edited() {
    if (m_updating) return;
    // A fresh, moderate domain: 1024^3 cells would not fit where 1024^2 was fluid.
    const int dims = m_dims->currentData().toInt();
    const int edge = defaults_edge(m_device->currentData().toInt() < 0, dims);
    m_updating = true;
    m_nx->setValue(edge);
    m_ny->setValue(edge);
    m_nz->setValue(dims == 3 ? edge : 1);
    m_updating = false;
    knobs_edited();
    m_display->follow_problem(settings().config.problem, true); // the plane moves with the dimensions
}

void ControlPanel::update_enabled() {
    const RunSettings s = settings();
    const bool star = s.config.problem.stencil == StencilKind::Star, three = s.config.problem.dims == 3;
    const bool fixed = m_picker->fixes_shape(); // an EBISU benchmark or a file: its dims and radius
    m_rule->setEnabled(star);
    m_radius->setEnabled(!fixed && s.config.problem.stencil != StencilKind::Diffusion4);
    m_dims->setEnabled(!fixed);
    m_cf->setEnabled(star);
    m_depth->setEnabled(s.config.policy.variant == Variant::Temporal);
    m_nz->setEnabled(three);
    m_gpus->setEnabled(s.config.placement.backend == Backend::Cuda && m_devices.count() > 1);
    const bool strips = s.config.placement.backend == Backend::Cuda && strip_count(s.config.placement) > 1;
    const bool remote = s.config.placement.halo == HaloMode::Remote;
    const bool slowest = splits_slowest(s.config);
    const bool temporal = s.config.policy.variant == Variant::Temporal;
    m_overlap->setEnabled(strips && !remote && slowest && !temporal); // remote loads copy nothing that could overlap
    m_overlap->setToolTip(remote ? tr("Remote loads copy nothing, so there is no exchange to overlap.")
            : !slowest           ? tr("Strips cut along a faster axis cannot compute their boundary first: no overlap.")
            : temporal ? tr("A temporal launch computes the whole strip, its ghost rows too, before the strips trade "
                            "R x depth rows: no overlap.")
                       : teaching_tooltip(QStringLiteral("overlap")));
    const LaunchPlan& plan = m_session.plan_for(s.config);
    update_halo_choices(plan);
    update_split_choices(plan);
    update_variant_choices(plan);
    for (QSpinBox* b : { m_bx, m_by, m_bz }) b->setEnabled(!s.config.policy.heuristic_block);
    m_bz->setEnabled(!s.config.policy.heuristic_block && three && star);
    m_display->follow_problem(s.config.problem);
}

// Each halo mode the Session would refuse for these knobs is disabled, its reason on the item. The box itself
// needs strips to mean anything, but stays open while it holds a choice that no longer applies, so that the
// choice can be undone (the reason line says why it does not run).
void ControlPanel::update_halo_choices(const LaunchPlan& plan) {
    const StencilConfig& c = plan.config;
    const bool strips = c.placement.backend == Backend::Cuda && strip_count(c.placement) > 1;
    m_halo->setEnabled(strips || c.placement.halo != HaloMode::Auto);
    auto* items = qobject_cast<QStandardItemModel*>(m_halo->model());
    for (int i = 0; items && i < m_halo->count(); ++i) {
        const HaloMode mode = HaloMode(m_halo->itemData(i).toInt());
        const Status& ok = plan.halo_verdict(mode);
        items->item(i)->setEnabled(ok.ok || mode == c.placement.halo);
        items->item(i)->setToolTip(ok.ok ? QString() : tooltip_text(QString::fromStdString(ok.reason)));
    }
    QString tip = teaching_tooltip(QStringLiteral("halo"));
    if (!strips) tip += tr(" One strip has no neighbour: choose 2 or more GPUs.");
    const Status& remote = plan.halo_verdict(HaloMode::Remote);
    if (strips && !remote)
        tip += tr(" Remote loads are not possible here: %1.").arg(QString::fromStdString(remote.reason));
    m_halo->setToolTip(tooltip_text(tip));
}

// As the halo choices: each axis the Session would refuse is disabled with its reason (z in 2D, x or y for the
// diffusion layers, unequal remote widths).
void ControlPanel::update_split_choices(const LaunchPlan& plan) {
    const StencilConfig& c = plan.config;
    const bool strips = c.placement.backend == Backend::Cuda && strip_count(c.placement) > 1;
    m_split->setEnabled(strips || c.placement.split != SplitAxis::Slowest);
    auto* items = qobject_cast<QStandardItemModel*>(m_split->model());
    for (int i = 0; items && i < m_split->count(); ++i) {
        const SplitAxis axis = SplitAxis(m_split->itemData(i).toInt());
        const Status& ok
            = plan.split_verdict(axis); // planned with overlap off along a faster axis, as choosing it does
        items->item(i)->setEnabled(ok.ok || axis == c.placement.split);
        items->item(i)->setToolTip(ok.ok ? QString() : tooltip_text(QString::fromStdString(ok.reason)));
    }
    m_split->setToolTip(strips ? tr("The axis the domain is cut along: x is contiguous in memory, so strips along "
                                    "it exchange strided columns; the slowest axis exchanges whole rows or planes.")
                               : tr("One strip has no neighbour: choose 2 or more GPUs."));
}

// Point stencils run only some variants so far: those the plan refuses are disabled with its reason.
void ControlPanel::update_variant_choices(const LaunchPlan& plan) {
    const bool points = plan.config.problem.stencil == StencilKind::Points;
    auto* items = qobject_cast<QStandardItemModel*>(m_variant->model());
    for (int i = 0; items && i < m_variant->count(); ++i) {
        const Variant v = Variant(m_variant->itemData(i).toInt());
        const Status& ok = plan.variant_verdict(v);
        const bool refused = points && !ok && v != plan.config.policy.variant;
        items->item(i)->setEnabled(!refused);
        items->item(i)->setToolTip(refused ? tooltip_text(QString::fromStdString(ok.reason)) : QString());
    }
}

Status ControlPanel::load_stencil_file(const QString& path) {
    Status s = m_picker->load_file(path);
    if (!s) show_file_refusal(QString::fromStdString(s.reason));
    return s;
}

void ControlPanel::show_file_refusal(const QString& reason) {
    m_reason->setText(tr("Stencil file refused: %1").arg(reason));
    m_reason->show();
}

void ControlPanel::knobs_edited() {
    if (m_updating) return;
    update_enabled();
    const RunSettings s = settings();
    const Status ok = m_session.plan_for(s.config).verdict;
    if (!ok) {
        m_reason->setText(tr("Cannot run: %1").arg(QString::fromStdString(ok.reason)));
        m_reason->show();
        show_heuristic_choice(nullptr);
        return;
    }
    m_reason->hide();
    m_reason->clear();
    show_heuristic_choice(nullptr);
    if (s == m_sent) return;
    m_sent = s;
    m_session.request(s);
}

QString ControlPanel::reason() const {
    return m_reason->isHidden() ? QString() : m_reason->text();
}

void ControlPanel::show_heuristic_choice(const KernelResources* r) {
    const StencilConfig c = settings().config;
    if (r && r->block.threads() > 0) {
        m_heuristic_choice->setText(c.policy.heuristic_block ? tr("heuristic chose %1").arg(qs(format_block(r->block)))
                                                             : tr("in use: %1").arg(qs(format_block(r->block))));
        return;
    }
    // No GPU kernel: say what the heuristic would pick on the selected GPU, or on the most capable one where none is
    // present (CUDA's common 48 KiB would refuse most 3D stream blocks in fp64 and at R16), and check a manual block
    // against the same limits: the plan's device, heuristic and block check.
    const LaunchPlan& plan = m_session.plan_for(c);
    const QString where = qs(plan.device.name);
    QString text = plan.heuristic ? tr("heuristic: %1 on %2").arg(qs(format_block(*plan.heuristic)), where)
                                  : tr("heuristic finds no block on %1").arg(where);
    if (!c.policy.heuristic_block && !plan.block_verdict)
        text += tr("; on %1: %2").arg(where, QString::fromStdString(plan.block_verdict.reason));
    if (c.placement.backend == Backend::Cpu) text += tr(" (the CPU backend has no blocks)");
    m_heuristic_choice->setText(text);
}

void ControlPanel::show_engine_ready(const EngineReady& ready) {
    show_kernel_resources(*m_resources, ready);
    show_heuristic_choice(ready.settings.config.placement.backend == Backend::Cuda ? &ready.resources : nullptr);
    // The greyed block boxes show the block the heuristic chose, so that unticking it starts from there. The CPU
    // loop has no block: they show the heuristic's preview, the block the line below them names.
    BlockDims chosen = ready.resources.block;
    if (chosen.threads() == 0 && m_session.plan_for(ready.settings.config).heuristic)
        chosen = *m_session.plan_for(ready.settings.config).heuristic;
    if (ready.settings == m_sent && m_sent.config.policy.heuristic_block && chosen.threads() > 0) {
        m_updating = true;
        m_bx->setValue(chosen.x);
        m_by->setValue(chosen.y);
        m_bz->setValue(chosen.z);
        m_updating = false;
        m_sent.config.policy.block = { chosen.x, chosen.y, m_sent.config.problem.dims == 3 ? chosen.z : 1 };
    }
}

void ControlPanel::show_engine_failure(const QString& reason) {
    m_reason->setText(tr("Engine: %1").arg(reason));
    m_reason->show();
}

void ControlPanel::set_pacing(const Pacing& p) {
    m_updating = true;
    m_steps->setValue(p.steps_per_frame);
    m_updating = false;
}

void ControlPanel::set_playing(bool on) {
    m_updating = true;
    m_play->setChecked(on);
    m_updating = false;
}

} // namespace ss::gui
