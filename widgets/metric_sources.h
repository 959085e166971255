// SPDX-License-Identifier: MIT
// Which figure of the metrics panel comes from which source, and the continuous feed: a line naming
// the continuous counters (CUPTI PM sampling, no replay: the DRAM and local-memory charts) and the
// replayed profile (kernel replay: summary, verdict, stall reasons, hit rates, occupancy) or why one of
// them is off, a "Take a detailed profile now" button, and a timer that reads the session's new chart
// points once per frame (Tracy's habit: the history is the one store) and hands them to the charts.
#pragma once

#include <QWidget>

#include <cstdint>

class QLabel;
class QPushButton;
class QTimer;

namespace ss::gui {

class Session;
class MetricsChartArea;

class MetricSources : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 50; // 20 chart updates per second at most

    MetricSources(Session& session, MetricsChartArea& charts, QWidget* parent = nullptr);
    void refresh(); // the text and the button from the session's state
    void new_configuration(); // the next replayed profile is the new kernel's first
    void detail_arrived(); // a replayed profile arrived: its time goes into the text
    QString text() const;
    int updates() const { return m_updates; } // chart updates so far (timer ticks that drew points)
    void pull(); // one timer tick: new points into the charts

private:
    Session& m_session;
    MetricsChartArea& m_charts;
    QLabel* m_text;
    QPushButton* m_detail;
    QTimer* m_timer;
    std::uint64_t m_cursor = 0; // the next history point to draw
    QString m_detail_at; // when the last replayed profile was taken
    int m_updates = 0;
};

} // namespace ss::gui
