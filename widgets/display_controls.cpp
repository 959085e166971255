// SPDX-License-Identifier: MIT
#include "widgets/display_controls.h"

#include "widgets/form_helpers.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSlider>
#include <cmath>

namespace ss::gui {

using namespace form;

DisplayControls::DisplayControls(Session& session, QWidget* parent)
    : QGroupBox(tr("Display"), parent)
    , m_session(session) {
    auto* layout = compact_form(this);
    m_colormap = named(new QComboBox, "colormap");
    for (ColormapKind k : kColormaps) m_colormap->addItem(qs(display_name(k)), int(k));
    layout->addRow(tr("Colour map"), m_colormap);
    m_auto_range = named(new QCheckBox(tr("Automatic")), "auto_range");
    m_auto_range->setChecked(true);
    m_lo = named(new QDoubleSpinBox, "range_lo");
    m_hi = named(new QDoubleSpinBox, "range_hi");
    for (QDoubleSpinBox* s : { m_lo, m_hi }) {
        s->setRange(-kMaxRangeMagnitude, kMaxRangeMagnitude);
        s->setDecimals(4);
        s->setSingleStep(0.05);
        s->setKeyboardTracking(false);
        s->setMinimumWidth(80); // their range's text would make the panel too wide for 1280x720; 80 px show -0.0000
    }
    m_hi->setValue(1.0);
    // One row, so that the Slice and Index rows below fit a 1280x720 screen's 1264x672 window.
    layout->addRow(tr("Range"), row({ m_auto_range, m_lo, m_hi }));
    m_axis = named(new QComboBox, "slice_axis");
    m_axis->addItem(tr("XY"), int(SliceAxis::XY));
    m_axis->addItem(tr("XZ"), int(SliceAxis::XZ));
    m_axis->addItem(tr("YZ"), int(SliceAxis::YZ));
    m_projection = named(new QCheckBox(tr("Max projection")), "max_projection");
    layout->addRow(tr("Slice"), row({ m_axis, m_projection }));
    m_index = named(new QSlider(Qt::Horizontal), "slice_index");
    m_index->setRange(0, 0);
    m_index_label = new QLabel;
    m_index_label->setMinimumWidth(40);
    layout->addRow(tr("Index"), row({ m_index, m_index_label }));

    connect(m_colormap, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating) m_session.set_colormap(current<ColormapKind>(m_colormap));
    });
    connect(m_auto_range, &QCheckBox::toggled, this, &DisplayControls::emit_range);
    connect(m_lo, &QDoubleSpinBox::valueChanged, this, &DisplayControls::emit_range);
    connect(m_hi, &QDoubleSpinBox::valueChanged, this, &DisplayControls::emit_range);
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] {
        update_slice_range();
        emit_slice();
    });
    connect(m_projection, &QCheckBox::toggled, this, &DisplayControls::emit_slice);
    connect(m_index, &QSlider::valueChanged, this, &DisplayControls::emit_slice);

    connect(&m_session, &Session::slice_changed, this, &DisplayControls::set_slice);
    connect(&m_session, &Session::colormap_changed, this, &DisplayControls::set_colormap);
    connect(&m_session, &Session::range_policy_changed, this, &DisplayControls::set_range_policy);
    update_enabled();
}

void DisplayControls::follow_problem(const StencilProblem& p, bool send_slice) {
    m_problem = p;
    update_slice_range();
    update_enabled();
    if (send_slice) emit_slice();
}

void DisplayControls::update_enabled() {
    const bool three = m_problem.dims == 3;
    m_axis->setEnabled(three);
    m_projection->setEnabled(three);
    m_index->setEnabled(three && !m_projection->isChecked());
}

void DisplayControls::set_slice(const SliceSelection& s) {
    m_updating = true;
    select_data(m_axis, s.axis);
    m_projection->setChecked(s.max_projection);
    update_slice_range();
    m_index->setValue(s.index);
    m_index_label->setText(QString::number(m_index->value()));
    m_updating = false;
    update_enabled();
}

void DisplayControls::set_colormap(ColormapKind k) {
    m_updating = true;
    select_data(m_colormap, k);
    m_updating = false;
}

void DisplayControls::set_range_policy(const RangePolicy& r) {
    m_updating = true;
    m_auto_range->setChecked(r.automatic);
    m_lo->setValue(r.fixed.lo);
    m_hi->setValue(r.fixed.hi);
    m_lo->setEnabled(!r.automatic);
    m_hi->setEnabled(!r.automatic);
    m_updating = false;
}

void DisplayControls::update_slice_range() {
    const SliceAxis axis = current<SliceAxis>(m_axis);
    const Extent& n = m_problem.size;
    const int extent = m_problem.dims == 3 ? (axis == SliceAxis::XY ? n.nz : axis == SliceAxis::XZ ? n.ny : n.nx) : 1;
    const bool was = m_updating;
    m_updating = true;
    // keep the same relative depth; from a 2D (one-plane) range, start in the middle
    const double fraction = m_index->maximum() > 0 ? double(m_index->value()) / m_index->maximum() : 0.5;
    m_index->setRange(0, std::max(extent - 1, 0));
    m_index->setValue(int(std::lround(fraction * (extent - 1))));
    m_index_label->setText(QString::number(m_index->value()));
    m_updating = was;
}

void DisplayControls::emit_slice() {
    m_index_label->setText(QString::number(m_index->value()));
    update_enabled();
    if (m_updating) return;
    m_session.set_slice({ current<SliceAxis>(m_axis), m_index->value(), m_projection->isChecked() });
}

void DisplayControls::emit_range() {
    m_lo->setEnabled(!m_auto_range->isChecked());
    m_hi->setEnabled(!m_auto_range->isChecked());
    if (m_updating) return;
    RangePolicy p;
    p.automatic = m_auto_range->isChecked();
    p.fixed = { float(m_lo->value()), float(m_hi->value()) };
    m_session.set_range_policy(p);
}

} // namespace ss::gui
