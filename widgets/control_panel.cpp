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

int defaults_edge(bool cpu, int dims) {
    return dims == 3 ? (cpu ? 64 : 256) : (cpu ? 256 : 1024);
}

} // namespace

ControlPanel::ControlPanel(Session& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_devices(session.devices()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4); // narrower than the style's 9 px: the field's share of a 1264 px window
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

// The panel follows the session: what another panel, a setup, a lesson or the engine changed shows here.
void ControlPanel::observe_session() {
    connect(&m_session, &Session::settings_changed, this, [this](const RunSettings& s) {
        if (m_session.auto_variant().selected) return show_auto_variant(); // s is what auto chose: auto stays
        if (!(s == m_sent)) set_settings(s);
    });
    connect(&m_session, &Session::auto_variant_changed, this, &ControlPanel::show_auto_variant);
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
    m_variant->addItem(tr("auto (fastest)"), int(Variant::Auto)); // every stencil has a kernel for it to choose
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
    if (c.policy.variant == Variant::Auto) c = auto_request(c); // the CF, depth and block boxes show auto's choice
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
    // Every kernel of stars and point stencils coarsens; auto chooses the CF, depth and block.
    m_cf->setEnabled(s.config.problem.stencil != StencilKind::Diffusion4 && s.config.policy.variant != Variant::Auto);
    m_depth->setEnabled(s.config.policy.variant == Variant::Temporal);
    m_heuristic->setEnabled(s.config.policy.variant != Variant::Auto);
    m_nz->setEnabled(three);
    m_gpus->setEnabled(s.config.placement.backend == Backend::Cuda && m_devices.count() > 1);
    const bool strips = s.config.placement.backend == Backend::Cuda && strip_count(s.config.placement) > 1;
    const bool remote = s.config.placement.halo == HaloMode::Remote;
    const bool slowest = splits_slowest(s.config);
    m_overlap->setEnabled(strips && !remote && slowest); // remote loads copy nothing that could overlap
    m_overlap->setToolTip(remote ? tr("Remote loads copy nothing, so there is no exchange to overlap.")
            : !slowest           ? tr("Strips cut along a faster axis cannot compute their boundary first: no overlap.")
                                 : teaching_tooltip(QStringLiteral("overlap")));
    explain_auto_knobs(s.config);
    const LaunchPlan& plan = m_session.plan_for(planned(s.config));
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
    m_split->setToolTip(strips ? tr("The axis the domain is cut along (slowest: y in 2D, z in 3D): x is contiguous "
                                    "in memory, so strips along it exchange strided columns; the slowest axis "
                                    "exchanges whole rows or planes.")
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
    const Status ok = m_session.plan_for(planned(s.config)).verdict;
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
    // A short line takes one line's height; a wrapping label would reserve two in the panel's minimum height,
    // which a 1280x720 screen's window does not have to spare. Long lines (a device's name, a refusal) wrap.
    const auto show = [this](const QString& text, bool may_be_long, const QString& tooltip = QString()) {
        m_heuristic_choice->setWordWrap(may_be_long);
        m_heuristic_choice->setText(text);
        m_heuristic_choice->setToolTip(tooltip);
    };
    const StencilConfig c = planned(settings().config);
    if (r && r->block.threads() > 0) {
        show(c.policy.heuristic_block ? tr("heuristic chose %1").arg(qs(format_block(r->block)))
                                      : tr("in use: %1").arg(qs(format_block(r->block))),
            false);
        return;
    }
    // No GPU kernel: say what the heuristic would pick on the selected GPU, or on the most capable one where none is
    // present (CUDA's common 48 KiB would refuse most 3D stream blocks in fp64 and at R16), and check a manual block
    // against the same limits: the plan's device, heuristic and block check.
    const LaunchPlan& plan = m_session.plan_for(c);
    const QString where = qs(plan.device.name);
    const QString heuristic
        = plan.heuristic ? tr("heuristic: %1").arg(qs(format_block(*plan.heuristic))) : tr("heuristic finds no block");
    const QString text = tr("%1 on %2").arg(heuristic, where);
    QString refusal;
    if (!c.policy.heuristic_block && !plan.block_verdict)
        refusal = tr("; on %1: %2").arg(where, QString::fromStdString(plan.block_verdict.reason));
    if (c.placement.backend != Backend::Cpu) {
        show(text + refusal, true);
        return;
    }
    // On the CPU the GPU it is previewed on goes to the tooltip, so that the line stays one line; a manual
    // block's refusal stays in view.
    show(tr("%1 (CPU: no blocks)%2").arg(heuristic, refusal), !refusal.isEmpty(),
        tooltip_text(tr("%1 (the CPU backend has no blocks)%2").arg(text, refusal)));
}

void ControlPanel::show_engine_ready(const EngineReady& ready) {
    show_kernel_resources(*m_resources, ready);
    show_heuristic_choice(ready.settings.config.placement.backend == Backend::Cuda ? &ready.resources : nullptr);
    // The greyed block boxes show the block the heuristic chose, so that unticking it starts from there. The CPU
    // loop has no block: they show the heuristic's preview, the block the line below them names.
    BlockDims chosen = ready.resources.block;
    if (chosen.threads() == 0 && m_session.plan_for(ready.settings.config).heuristic)
        chosen = *m_session.plan_for(ready.settings.config).heuristic;
    const std::optional<RunSettings>& auto_chose = m_session.auto_variant().chosen; // its block boxes show it too
    const bool automatic = m_session.auto_variant().selected && auto_chose && ready.settings == *auto_chose;
    if ((automatic || (ready.settings == m_sent && m_sent.config.policy.heuristic_block)) && chosen.threads() > 0) {
        m_updating = true;
        m_bx->setValue(chosen.x);
        m_by->setValue(chosen.y);
        m_bz->setValue(chosen.z);
        m_updating = false;
        if (!automatic)
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
