// SPDX-License-Identifier: MIT
#include "widgets/run_status_bar.h"

#include "session/session.h"
#include "widgets/cpu_loop_caveat.h"
#include "widgets/field_view.h"
#include "widgets/plain_text.h"

#include <QLabel>

namespace ss::gui {

RunStatusBar::RunStatusBar(Session& session, FieldView& view, QWidget* parent)
    : QStatusBar(parent)
    , m_session(session)
    , m_view(view) {
    m_notice = plain_label(new QLabel);
    m_notice->setObjectName(QStringLiteral("status_notice"));
    m_notice->setStyleSheet(QStringLiteral("color: #c62828; font-weight: bold"));
    m_notice->hide();
    addWidget(m_notice, 2);
    m_hover = plain_label(new QLabel);
    addWidget(m_hover, 1);
    m_device = permanent("status_device", 120);
    m_path = permanent("status_path", 160);
    m_fps = permanent("status_fps", 70);
    m_steps = permanent("status_steps", 100);
    m_gcells = permanent("status_gcells", 100);
    m_steps->setToolTip(tr("Steps per second of wall-clock time: paced by the display (steps/frame x frames/s)."));
    m_gcells->setToolTip(tr("The kernel's own rate, timed on the GPU (CUDA events; the CPU backend: the steps' own "
                            "time), not paced by the display."));
    m_iteration = permanent("status_iteration", 110);

    connect(&view, &FieldView::hovered, m_hover, &QLabel::setText);
    connect(&view, &FieldView::interop_changed, this, &RunStatusBar::update_interop);
    connect(&session, &Session::slice_changed, this, &RunStatusBar::update_interop);
    connect(&session, &Session::ready, this, [this](const EngineReady& r) {
        m_device->setText(QString::fromStdString(r.device_name));
        m_device->setToolTip(tooltip_text(QString::fromStdString(describe(r.settings.config))));
        update_interop();
    });
    connect(&session, &Session::frame, this, [this](const FieldFrame& f) {
        // ~10 updates a second while running: a label repainted at every frame is work nobody can read
        if (!m_session.playing() || !m_iteration_clock.isValid() || m_iteration_clock.elapsed() >= 100) {
            m_iteration->setText(tr("iteration %1").arg(f.iteration));
            m_iteration_clock.start();
        }
    });
    connect(&session, &Session::stats, this, [this](const EngineStats& s) {
        m_steps->setText(tr("%1 steps/s (wall clock)").arg(s.steps_per_second, 0, 'f', 0));
        m_gcells->setText(s.kernel_gcells_per_second > 0
                ? tr("%1 %2")
                      .arg(s.kernel_gcells_per_second, 0, 'f', 2)
                      .arg(rate_caption(m_session.active().settings.config.placement.backend == Backend::Cpu))
                : QString());
        m_iteration->setText(tr("iteration %1").arg(s.iteration));
    });
    connect(&session, &Session::fps_changed, this, [this](double fps) {
        m_fps->setText(m_session.playing() || fps > 0 ? tr("%1 FPS").arg(fps, 0, 'f', 0) : tr("paused"));
    });
    connect(&session, &Session::job_progress, this, [this](const JobProgress& p) {
        // While a long job runs the live view is paused: say so where the throughput normally is.
        showMessage(
            tr("Live view paused: %1 %2/%3").arg(QString::fromStdString(p.what)).arg(p.done).arg(p.total), 2000);
    });
    connect(&session, &Session::job_finished, this, [this](const JobOutcome& o) {
        showMessage(o.cancelled   ? tr("Cancelled; the live view resumes.")
                : o.error.empty() ? tr("Done; the live view resumes.")
                                  : tr("The job failed: %1").arg(QString::fromStdString(o.error)),
            5000);
    });
    connect(&session, &Session::auto_variant_changed, this, [this] {
        // The tune pauses the live view as a job does: say so where the throughput normally is.
        const AutoVariantState& a = m_session.auto_variant();
        if (a.tuning)
            showMessage(tr("Live view paused: auto: timing %1 candidates…").arg(a.candidates), 10000);
        else if (a.selected)
            showMessage(a.reason, a.failed ? 10000 : 5000);
    });
    connect(&session, &Session::failed, this,
        [this](const EngineFailure& f) { showMessage(tr("Engine: %1").arg(QString::fromStdString(f.reason)), 10000); });
}

void RunStatusBar::set_notice(const QString& text, const QString& details) {
    m_notice->setText(text);
    m_notice->setToolTip(tooltip_text(details));
    m_notice->setVisible(!text.isEmpty());
}

QString RunStatusBar::notice() const {
    return m_notice->text();
}

QLabel* RunStatusBar::permanent(const char* name, int min_width) {
    auto* l = plain_label(new QLabel); // the device's name, the interop blocker: never markup
    l->setObjectName(QLatin1String(name));
    l->setMinimumWidth(min_width);
    addPermanentWidget(l);
    return l;
}

void RunStatusBar::update_interop() {
    const QString blocker = m_view.interop_blocker(m_session.requested().config);
    m_session.set_device_frames(blocker.isEmpty());
    m_path->setText(interop_text());
    m_path->setToolTip(blocker.isEmpty() ? tr("Frames go GPU -> GL: CUDA copies each one into a registered GL texture")
                                         : tooltip_text(tr("Frames are copied through host memory: %1").arg(blocker)));
}

QString RunStatusBar::interop_text() const {
    const QString blocker = m_view.interop_blocker(m_session.requested().config);
    if (!blocker.isEmpty()) return tr("host copy (%1)").arg(blocker);
    if (m_session.slice().max_projection) return tr("host copy (max projection)");
    return tr("CUDA-GL interop (texture)");
}

} // namespace ss::gui
