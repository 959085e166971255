// SPDX-License-Identifier: MIT
// The Session's variant auto (issue 35): a request for auto is checked as its stand-in, resolved by choose_auto
// (gpu/studies/auto_choice.h) on the engine thread, or at once on the CPU backend, and what it chose runs through the
// same plan and engine generation as any request. The GUI thread only plans and never waits: the tune's progress and
// answer arrive as plain values, and an answer to an older request is dropped.
#include "session/session.h"

#include "gpu/plan/validation.h"
#include "session/engine_controller.h"

#include <stdexcept>

namespace ss::gui {

StencilConfig auto_request(StencilConfig c) {
    c.policy = KernelPolicy {};
    c.policy.variant = Variant::Auto;
    return c;
}

void Session::set_auto_timer(AutoTimeFn timer) {
    m_engine->set_auto_timer(std::move(timer));
}

bool Session::request_auto(const RunSettings& asked, QString* why) {
    RunSettings s = asked;
    s.config = auto_request(s.config);
    // What cannot run at all is refused before anything is timed, with the fallback candidate's reason.
    if (const Status verdict = plan_for(auto_stand_in(s.config)).verdict; !verdict) {
        const QString reason = QString::fromStdString(verdict.reason);
        if (why) *why = reason;
        emit request_refused(asked, reason);
        return false;
    }
    if (m_auto.selected && m_auto.request == s && !m_auto.failed) return true; // tuning for it, or chosen already
    stop_auto_tune();
    m_auto = {};
    m_auto.selected = true;
    m_auto.request = s;
    const std::uint64_t id = ++m_auto_id;
    if (s.config.placement.backend == Backend::Cpu) { // one loop runs every variant: choose_auto times nothing
        const AutoChoice choice = choose_auto(s.config, m_devices,
            [](const StencilConfig&) -> double { throw std::logic_error("the CPU backend's auto times nothing"); });
        AutoResolved now;
        now.id = id;
        now.chosen = choice.config;
        now.reason = choice.reason;
        if (!choice.verdict) now.error = choice.verdict.reason;
        auto_resolved(now);
        return true;
    }
    m_auto.tuning = true;
    m_auto.candidates = int(auto_candidates(s.config, m_devices).size()); // the model's list: host code, no CUDA
    m_auto_cancel = std::make_shared<std::atomic<bool>>(false);
    emit auto_variant_changed();
    m_engine->resolve_auto({ id, s }, m_auto_cancel);
    return true;
}

void Session::auto_progress(const AutoResolveProgress& p) {
    if (p.id != m_auto_id || !m_auto.tuning) return;
    m_auto.done = p.done;
    m_auto.candidates = p.total;
    m_auto.timing = QString::fromStdString(p.label);
    emit auto_variant_changed();
}

void Session::auto_resolved(const AutoResolved& r) {
    if (r.id != m_auto_id || !m_auto.selected) return; // superseded, or auto was left meanwhile
    m_auto_cancel.reset();
    m_auto.tuning = false;
    RunSettings chosen = m_auto.request;
    chosen.config = r.chosen;
    std::string error = r.error;
    std::shared_ptr<const LaunchPlan> plan;
    if (error.empty()) {
        plan = shared_plan_for(chosen.config);
        if (!plan->ok()) error = plan->verdict.reason;
    }
    if (!error.empty()) {
        m_auto.failed = true;
        m_auto.reason
            = tr("auto chose nothing: %1; the previous configuration runs on").arg(QString::fromStdString(error));
        emit auto_variant_changed();
        return;
    }
    m_auto.chosen = chosen;
    m_auto.reason = QString::fromStdString(r.reason);
    if (!r.warning.empty()) m_auto.reason += tr(" (not cached: %1)").arg(QString::fromStdString(r.warning));
    emit auto_variant_changed();
    run_planned(chosen, std::move(plan));
}

void Session::stop_auto_tune() {
    if (m_auto_cancel) m_auto_cancel->store(true);
    m_auto_cancel.reset();
}

void Session::leave_auto() {
    if (!m_auto.selected && !m_auto_cancel) return;
    stop_auto_tune();
    m_auto = {};
    emit auto_variant_changed();
}

} // namespace ss::gui
