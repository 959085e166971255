// SPDX-License-Identifier: MIT
// The control panel's knobs and their rows. Knobs that belong together share a row (GPU count and overlap,
// halo and split axis, rule and dimensions, variant and precision, radius, CF and depth, the heuristic and
// the block), so that the whole panel fits the height a projector's 1280x720 (and a 1280x720 screen's
// 1264x672 window) leaves it; tooltips name what a row's second box is.
#include "widgets/control_panel.h"
#include "widgets/form_helpers.h"
#include "widgets/plain_text.h"
#include "widgets/stencil_overview.h"
#include "widgets/stencil_picker.h"

#include "gpu/plan/temporal_policy.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

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

} // namespace

QWidget* ControlPanel::build_stencil_group() {
    auto* box = new QGroupBox(tr("Stencil"));
    auto* form = compact_form(box);
    m_device = named(new QComboBox, "device");
    for (const DeviceInfo& d : m_devices.devices)
        m_device->addItem(tr("GPU %1: %2").arg(d.index).arg(QString::fromStdString(d.name)), d.index);
    m_device->addItem(tr("CPU (host threads)"), -1);
    // A GPU's marketing name can be long ("NVIDIA H100 80GB HBM3"): the box elides it rather than widen the dock
    // past a projector's 1280 px beside a lesson; the open list shows it whole.
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_device->setMinimumContentsLength(18);
    // Why no GPU is listed, or whether counters work: the driver, NVRTC and CUPTI in plain words.
    m_device->setToolTip(tooltip_text(QString::fromStdString(m_devices.cuda_support).trimmed()));
    m_gpus = spin("gpus", 1, std::max<int>(1, m_devices.count()));
    m_overlap = named(new QCheckBox(tr("Overlap halo exchange")), "overlap");
    form->addRow(tr("Device"), m_device);
    form->addRow(tr("GPU count"), row({ m_gpus, m_overlap }));
    // How strips get their neighbours' rows (copies, or the kernels load them), and the axis the strips are cut
    // along (GPU-SM's X/Y/Z comparison); the split box's tooltip says which axis "slowest" is.
    m_halo = named(new QComboBox, "halo");
    m_halo->addItem(tr("auto"), int(HaloMode::Auto));
    m_halo->addItem(tr("staged"), int(HaloMode::Staged));
    m_halo->addItem(tr("remote"), int(HaloMode::Remote));
    m_split = named(new QComboBox, "split");
    m_split->addItem(tr("slowest"), int(SplitAxis::Slowest));
    m_split->addItem(tr("x (fastest)"), int(SplitAxis::X));
    m_split->addItem(tr("y"), int(SplitAxis::Y));
    m_split->addItem(tr("z"), int(SplitAxis::Z));
    form->addRow(tr("Halo"), row({ m_halo, caption(tr("Split"), m_split), m_split }));

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
    form->addRow(tr("Update rule"), row({ m_rule, m_dims })); // "2D"/"3D" name themselves

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
    m_depth = spin("depth", 1, kMaxTemporalDepth);
    form->addRow(tr("Kernel variant"), row({ m_variant, m_precision })); // "fp32"/"fp64" name themselves
    form->addRow(
        tr("Radius"), row({ m_radius, caption(tr("CF"), m_cf), m_cf, caption(tr("Depth"), m_depth), m_depth }));

    m_heuristic = named(new QCheckBox(tr("Heuristic")), "heuristic");
    m_bx = spin("bx", 1, 1024);
    m_by = spin("by", 1, 1024);
    m_bz = spin("bz", 1, 64);
    m_heuristic_choice = plain_label(named(new QLabel, "heuristic_choice"));
    m_heuristic_choice->setWordWrap(true);
    form->addRow(tr("Block"), row({ m_heuristic, m_bx, m_by, m_bz }));
    form->addRow(QString(), m_heuristic_choice);

    m_initial = named(new QComboBox, "initial");
    m_initial->addItem(tr("Gaussian"), int(InitialCondition::Gaussian));
    m_initial->addItem(tr("Random"), int(InitialCondition::Random));
    m_initial->addItem(tr("Square"), int(InitialCondition::Square));
    m_initial->addItem(tr("Hot edges"), int(InitialCondition::HotEdges));
    m_seed = spin("seed", 0, 1 << 30);
    form->addRow(tr("Initial field"), row({ m_initial, m_seed }));
    connect_stencil_knobs();
    return box;
}

// What each stencil knob does when edited.
void ControlPanel::connect_stencil_knobs() {
    // Choosing temporal starts from its default depth and CF, unless auto had chosen it (its depth shows: the run goes
    // on from auto's choice); the other variants run one step per launch.
    connect(m_variant, &QComboBox::currentIndexChanged, this, [this] {
        const std::optional<RunSettings>& auto_chose = m_session.auto_variant().chosen;
        if (m_updating || !m_variant->count() || current<Variant>(m_variant) != Variant::Temporal
            || m_sent.config.policy.variant == Variant::Temporal
            || (m_sent.config.policy.variant == Variant::Auto && auto_chose
                && auto_chose->config.policy.variant == Variant::Temporal))
            return;
        m_updating = true;
        m_depth->setValue(default_temporal_depth(settings().config.problem));
        m_cf->setCurrentIndex(std::max(m_cf->findData(default_temporal_cf(settings().config)), 0));
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
}

QWidget* ControlPanel::build_run_group() {
    auto* box = new QGroupBox(tr("Run"));
    auto* form = compact_form(box);
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

} // namespace ss::gui
