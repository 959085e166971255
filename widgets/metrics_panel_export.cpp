// SPDX-License-Identifier: MIT
// The metrics panel's charts written as PNG files with a caption, or why not.
#include "widgets/metrics_panel.h"

#include "widgets/export_util.h"
#include "widgets/metrics_chart_area.h"

namespace ss::gui {

bool MetricsPanel::charts_exportable(QString* why) const {
    if (m_charts->has_data()) return true;
    if (why) *why = tr("The charts are empty. %1").arg(m_charts->notice());
    return false;
}

bool MetricsPanel::save_charts(const QString& stem, QString* error, QStringList* written) {
    QString caption;
    if (m_current)
        caption = caption_for(m_current->settings.config, QString::fromStdString(m_current->device_name),
            m_current->iteration, tr("StencilScope metrics"));
    return m_charts->save_pngs(stem, caption, written, error);
}

} // namespace ss::gui
