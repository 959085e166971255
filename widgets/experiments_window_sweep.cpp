// SPDX-License-Identifier: MIT
// The Experiments window running a sweep: the job started on the engine thread, its progress and time
// left as the points stream in, and its outcome.
#include "widgets/experiments_window.h"

#include "session/session.h"
#include "widgets/cpu_loop_caveat.h"

#include <QLabel>
#include <QProgressBar>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

QString time_left_text(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return {};
    if (seconds < 60) return QObject::tr("about %1 s left").arg(std::max(1, int(std::ceil(seconds))));
    if (seconds < 3600) return QObject::tr("about %1 min left").arg(int(std::ceil(seconds / 60)));
    return QObject::tr("about %1 h %2 min left").arg(int(seconds / 3600)).arg(int(std::fmod(seconds, 3600) / 60));
}

} // namespace

bool ExperimentsWindow::start() {
    if (m_job != 0) return false;
    const ExperimentSpec s = spec();
    if (Status ok = check_experiment(s); !ok) {
        m_status->setText(QString::fromStdString(ok.reason));
        return false;
    }
    JobRequest r;
    r.kind = JobRequest::Kind::Experiment;
    r.experiment = s;
    m_job = m_session.start_job(r);
    if (m_job == 0) {
        m_status->setText(tr("Another long job is running on the engine: wait for it or cancel it first."));
        return false;
    }
    m_progress->setRange(0, 0);
    m_progress->show();
    m_status->setText(tr("Running… the live view is paused meanwhile."));
    // The points stream in as they are measured: the old ones go now.
    m_kind = s.kind;
    m_points.clear();
    m_device.clear();
    show_results();
    m_clock.start();
    m_eta.reset();
    m_time_left = NAN;
    m_running_what.clear();
    m_tick->start();
    update_enabled();
    return true;
}

void ExperimentsWindow::on_progress(const JobProgress& p) {
    if (p.id != m_job) return;
    m_progress->setRange(0, std::max(p.total, 1));
    m_progress->setValue(p.done);
    m_progress->setFormat(QStringLiteral("%v / %m"));
    if (p.point) { // charted and tabled as it arrives, improvements against the base points so far
        m_points.push_back(*p.point);
        normalise_to_base(m_points);
        show_results();
    }
    m_eta.report(p.done, p.total, m_clock.elapsed() / 1000.0);
    m_running_what = QString::fromStdString(p.what);
    show_time_left();
}

void ExperimentsWindow::show_time_left() {
    if (m_job == 0) return;
    m_time_left = m_eta.seconds_left(m_clock.elapsed() / 1000.0);
    const QString left = time_left_text(m_time_left);
    m_status->setText(tr("Running %1 … %2 the live view is paused meanwhile.")
                          .arg(m_running_what, left.isEmpty() ? QString() : left + QStringLiteral(";")));
}

void ExperimentsWindow::on_finished(const JobOutcome& o) {
    if (o.id != m_job) return;
    m_job = 0;
    m_tick->stop();
    m_progress->hide(); // shown only while a sweep runs
    if (!o.error.empty()) {
        m_status->setText(tr("The sweep could not run: %1").arg(QString::fromStdString(o.error)));
        update_enabled();
        return;
    }
    m_kind = o.request.experiment.kind;
    m_points = o.points;
    m_device = o.device_name;
    show_results();
    QString text = status_text() + (o.cancelled ? tr(" Cancelled: the points so far are shown.") : QString());
    for (const std::string& w : o.warnings) text += QLatin1Char('\n') + QString::fromStdString(w);
    m_status->setText(text);
    update_enabled();
}

QString ExperimentsWindow::status_text() const {
    if (m_points.empty()) return tr("No results yet.");
    int failed = 0;
    for (const ExperimentPoint& p : m_points) failed += p.error.empty() ? 0 : 1;
    const QString text = tr("%1 points on %2, %3 could not run.")
                             .arg(m_points.size())
                             .arg(m_device.empty() ? tr("an unknown device") : QString::fromStdString(m_device))
                             .arg(failed);
    return ran_on_cpu_loop(m_points, m_device) ? text + QLatin1Char(' ') + cpu_loop_caveat() : text;
}

} // namespace ss::gui
