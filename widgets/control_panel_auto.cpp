// SPDX-License-Identifier: MIT
// The control panel's variant auto (issue 35). The Session resolves it (session/session_auto.cpp); the panel shows
// the tune ("auto: timing 7 candidates…") and then the choice: the kernel box names the kernel with auto's reason
// above it, and the CF, depth and block boxes show what it chose, greyed like the block boxes under the heuristic,
// since auto decides them. Choosing a variant takes them back: the variant auto chose starts from its choice.
#include "widgets/control_panel.h"

#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "reports/run_options.h"
#include "widgets/form_helpers.h"
#include "widgets/kernel_resources_box.h"
#include "widgets/plain_text.h"
#include "widgets/teaching_texts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>

namespace ss::gui {
using namespace form;
namespace {

QString auto_line(const AutoVariantState& a) {
    if (!a.selected) return {};
    if (a.tuning) {
        QString line = QObject::tr("auto: timing %1 candidates…").arg(a.candidates);
        if (!a.timing.isEmpty()) line += QObject::tr(" (%1 of %2: %3)").arg(a.done + 1).arg(a.candidates).arg(a.timing);
        return line;
    }
    return a.reason;
}

} // namespace

StencilConfig ControlPanel::planned(const StencilConfig& c) const {
    if (c.policy.variant != Variant::Auto) return c;
    const AutoVariantState& a = m_session.auto_variant();
    if (a.selected && a.chosen && a.request.config == c) return a.chosen->config;
    return auto_stand_in(c); // what the Session checks a request for auto as
}

RunSettings ControlPanel::concrete_settings() const {
    RunSettings s = settings();
    s.config = planned(s.config);
    return s;
}

void ControlPanel::show_auto_variant() {
    const AutoVariantState& a = m_session.auto_variant();
    if (a.selected && !(a.request == m_sent)) set_settings(a.request); // a setup or the command line chose auto
    if (a.selected && a.chosen) { // the boxes auto decides show its choice (the block: once the kernel is built)
        const KernelPolicy& chosen = a.chosen->config.policy;
        m_updating = true;
        m_cf->setCurrentIndex(std::max(m_cf->findData(chosen.cf), 0));
        m_depth->setValue(chosen.depth);
        m_heuristic->setChecked(chosen.heuristic_block);
        m_updating = false;
    }
    show_auto_line(*m_resources, auto_line(a));
    update_enabled();
    if (a.selected && !a.tuning) show_heuristic_choice(nullptr); // the chosen kernel's block until it is built
}

// While auto is chosen the boxes it decides are greyed and say why; otherwise they teach what they do, and under
// temporal the CF and depth boxes also name the defaults it starts from and where they come from (as run's
// "defaults" line).
void ControlPanel::explain_auto_knobs(const StencilConfig& c) {
    const bool automatic = c.policy.variant == Variant::Auto;
    const QString tip = tr("Chosen by the variant auto: the fastest of its candidates, timed on this device (the CPU "
                           "backend runs base). To set it yourself, choose a variant: the one auto chose starts "
                           "from its choice.");
    for (QWidget* knob : std::initializer_list<QWidget*> { m_cf, m_depth, m_heuristic, m_bx, m_by, m_bz })
        knob->setToolTip(automatic ? tip : teaching_tooltip(knob->objectName()));
    if (c.policy.variant != Variant::Temporal) return;
    const QString defaults = tr("Temporal starts here from CF %1 and depth %2: %3.")
                                 .arg(default_temporal_cf(c))
                                 .arg(default_temporal_depth(c.problem))
                                 .arg(QString::fromStdString(temporal_defaults_origin(c)));
    for (QWidget* knob : std::initializer_list<QWidget*> { m_cf, m_depth })
        knob->setToolTip(tooltip_text(teaching_tooltip(knob->objectName()) + QStringLiteral("\n\n") + defaults));
}

} // namespace ss::gui
