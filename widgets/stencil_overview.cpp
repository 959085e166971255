// SPDX-License-Identifier: MIT
#include "widgets/stencil_overview.h"

#include "gpu/problem/arithmetic_intensity.h"
#include "gpu/problem/stencil_catalog.h"
#include "session/session.h"
#include "widgets/stencil_drawing.h"
#include "widgets/stencil_editor_dialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace ss::gui {

QString stencil_facts_text(const StencilConfig& c) {
    return QObject::tr("%1 points · %2 flop/cell · %3 flop/B (ideal)")
        .arg(stencil_points(c.problem))
        .arg(flops_per_cell(c))
        .arg(ideal_arithmetic_intensity(c), 0, 'f', 2);
}

QString arithmetic_intensity_tooltip() {
    return QObject::tr(
        "<p>Arithmetic intensity: floating-point operations per byte moved between GPU memory and the SMs. A step "
        "of n points does 2n - 1 flop per cell (a product, then n - 1 fused multiply-adds, each counted as two); "
        "the ideal traffic is each cell read once and written once (fp32: 8 B, fp64: 16 B).</p>"
        "<p>On a roofline, a kernel whose intensity lies left of the ridge point (peak flop/s over peak bandwidth, "
        "tens of flop/B on recent GPUs) is limited by memory bandwidth, right of it by arithmetic. Stencils sit far "
        "left: more points raise the intensity, and temporal blocking raises it about depth-fold.</p>");
}

StencilOverview::StencilOverview(Session& session, QWidget* parent)
    : QWidget(parent)
    , m_drawing(new StencilDrawing)
    , m_facts(new QLabel)
    , m_edit(new QToolButton) {
    m_edit->setText(tr("Edit…"));
    setObjectName(QStringLiteral("stencil_overview"));
    m_facts->setObjectName(QStringLiteral("stencil_facts"));
    m_edit->setObjectName(QStringLiteral("edit_stencil"));
    m_facts->setToolTip(arithmetic_intensity_tooltip());
    QFont small = m_facts->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_facts->setFont(small);
    m_edit->setToolTip(tr("Edit the stencil's points and weights, or make one of your own (File: load and save)."));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_drawing);
    layout->addWidget(m_facts, 1);
    layout->addWidget(m_edit, 0, Qt::AlignVCenter);
    connect(m_edit, &QToolButton::clicked, this, &StencilOverview::open_editor);
    connect(&session, &Session::settings_changed, this, [this](const RunSettings& s) { show_config(s.config); });
    show_config(session.requested().config);
}

void StencilOverview::show_config(const StencilConfig& c) {
    m_config = c;
    m_drawing->set_shape(drawn_stencil(c.problem));
    // Two short lines in a small font: the row must stay as low as a button (the panel fits 1280x720, tst_classroom).
    QString text = stencil_facts_text(c);
    text.replace(text.lastIndexOf(QStringLiteral(" · ")), 3, QStringLiteral("\n"));
    m_facts->setText(text);
}

QString StencilOverview::facts() const {
    return m_facts->text();
}

// open(), not exec(): no nested event loop. The dialog edits a copy and hands it back on OK.
void StencilOverview::open_editor() {
    auto* dialog = new StencilEditorDialog(m_config, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { emit shape_accepted(dialog->shape()); });
    dialog->open();
}

} // namespace ss::gui
