// SPDX-License-Identifier: MIT
// Throughput of the running kernel. The hardware-metrics work will extend this panel; until then it
// shows what the engine's own timing gives: time per step, GCells/s and GB/s.
#pragma once

#include "widgets/engine_types.h"

#include <QWidget>

class QLabel;

namespace ss::gui {

class MetricsPanel : public QWidget {
    Q_OBJECT
public:
    explicit MetricsPanel(QWidget* parent = nullptr);
    void show_stats(const EngineStats&);
    void clear();

private:
    QLabel *m_time, *m_cells, *m_bytes, *m_steps;
};

} // namespace ss::gui
