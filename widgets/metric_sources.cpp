// SPDX-License-Identifier: MIT
#include "widgets/metric_sources.h"

#include "session/metrics_sampler.h"
#include "session/session.h"
#include "widgets/metrics_chart_area.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTime>
#include <QTimer>

namespace ss::gui {

MetricSources::MetricSources(Session& session, MetricsChartArea& charts, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_charts(charts) {
    m_text = new QLabel;
    m_text->setObjectName(QStringLiteral("metric_sources"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_detail = new QPushButton(tr("Take a detailed profile now"));
    m_detail->setObjectName(QStringLiteral("take_detail"));
    m_detail->setToolTip(tr("Replays the next step under CUPTI's range profiler (kernel replay, about six passes, "
                            "~0.1 s plus ~1 s to set up): stall reasons, hit rates, occupancy, wavefronts. Continuous "
                            "sampling stops meanwhile (the two may not share a GPU) and resumes afterwards."));
    connect(m_detail, &QPushButton::clicked, this, [this] { m_session.take_detailed_profile(); });
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_text, 1);
    row->addWidget(m_detail, 0, Qt::AlignTop);
    m_timer = new QTimer(this);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &MetricSources::pull);
    m_timer->start();
    connect(&m_session, &Session::continuous_changed, this, &MetricSources::refresh);
    connect(&m_session, &Session::counters_changed, this, &MetricSources::refresh);
    connect(&m_session, &Session::settings_changed, this, &MetricSources::refresh);
    connect(&m_session, &Session::playing_changed, this, &MetricSources::refresh);
    refresh();
}

void MetricSources::pull() {
    const MetricsHistory& h = m_session.history();
    if (m_cursor >= h.continuous_points_end()) return;
    std::vector<ContinuousPoint> points = h.continuous_points_from(m_cursor);
    m_cursor = h.continuous_points_end();
    const std::uint64_t generation = m_session.active().generation;
    std::erase_if(points, [generation](const ContinuousPoint& p) { return p.generation != generation; });
    if (points.empty() || !m_charts.continuous()) return;
    m_charts.append_continuous(points);
    ++m_updates;
}

void MetricSources::new_configuration() {
    m_detail_at.clear();
    m_cursor = m_session.history().continuous_points_end(); // the old kernel's points stay in the export
    refresh();
}

void MetricSources::detail_arrived() {
    m_detail_at = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
    refresh();
}

QString MetricSources::text() const {
    return m_text->text();
}

void MetricSources::refresh() {
    const bool on = m_session.counters() && m_session.counters_unavailable().isEmpty();
    const bool continuous = on && m_session.continuous_active();
    m_charts.set_continuous(continuous);
    const std::string replay_off = MetricsSampler::precheck(m_session.requested().config);
    m_detail->setVisible(continuous);
    m_detail->setEnabled(continuous && replay_off.empty() && m_session.playing());
    setVisible(on);
    if (!on) return;
    QStringList lines;
    if (continuous)
        lines << tr("Charts (DRAM, local memory): continuous counters, %1.").arg(m_session.continuous_note());
    else if (!m_session.continuous_note().isEmpty())
        lines << m_session.continuous_note(); // why not, and that the replayed profile stands in
    else
        lines << tr("Continuous counters start with the run (CUPTI PM sampling on each GPU).");
    if (!replay_off.empty()) {
        lines << QString::fromStdString(replay_off);
    } else {
        const QString when = m_detail_at.isEmpty() ? tr("none yet for this kernel") : tr("last at %1").arg(m_detail_at);
        lines << (continuous
                ? tr("Summary, verdict, stall reasons, hit rates, occupancy: replayed profile (kernel "
                     "replay) once per kernel, every %1 s and on request; %2.")
                      .arg(MetricsSampler::kDetailInterval.count())
                      .arg(when)
                : tr("All figures: replayed profiles (kernel replay), about four a second; %1.").arg(when));
    }
    m_text->setText(lines.join(QLatin1Char('\n')));
}

} // namespace ss::gui
