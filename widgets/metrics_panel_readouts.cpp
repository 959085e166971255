// SPDX-License-Identifier: MIT
// What the metrics panel shows: the kernel's timing and the display cadence, the counter toggle and its
// reason, each profiled launch's verdict and summary, and the deltas against the pinned baseline.
#include "widgets/metrics_panel.h"

#include "widgets/cpu_loop_caveat.h"
#include "widgets/metric_sources.h"
#include "widgets/metrics_chart_area.h"
#include "widgets/plain_text.h"

#include <QCheckBox>
#include <QLabel>

#include <cmath>

namespace ss::gui {
namespace {

double counter_value(const KernelMetrics& m, std::string_view name, double fallback = -1.0) {
    const auto it = m.find(name);
    return it == m.end() ? fallback : it->second;
}

double counter_value(const MetricsSample& s, std::string_view name, double fallback = -1.0) {
    return counter_value(s.launch.metrics, name, fallback);
}

// "Hardware counters need..." -> "hardware counters need...", to follow "no data because".
QString lower_first(QString text) {
    if (!text.isEmpty()) text[0] = text[0].toLower();
    while (text.endsWith(QLatin1Char('.'))) text.chop(1);
    return text;
}

QString percent(double v) {
    return v < 0 ? QStringLiteral("–") : QStringLiteral("%1 %").arg(v, 0, 'f', 1);
}

// " (baseline 12.3, 1.25x)": how the current value compares with the pinned one.
QString versus(double now, double then, bool higher_is_better, int decimals = 2) {
    if (then <= 0.0 || now < 0.0) return {};
    const double ratio = higher_is_better ? now / then : then / now;
    return QStringLiteral("  <span style='color:%1'>(baseline %2, %3×)</span>")
        .arg(ratio >= 1.0 ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828"))
        .arg(then, 0, 'f', decimals)
        .arg(ratio, 0, 'f', 2);
}

} // namespace

void MetricsPanel::show_stats(const EngineStats& s) {
    m_strips = s.strips;
    show_strips();
    const double fps = m_session.displayed_fps();
    const int per_frame = m_session.pacing().steps_per_frame;
    const QString idle = m_session.playing() ? tr("Display: measuring…") : tr("Display: paused");
    m_cadence->setText(s.steps_per_second <= 0.0 ? idle
                                                 : tr("Display: %1 frames/s, %2 steps/frame, %3 steps/s wall clock")
                                                       .arg(fps, 0, 'f', 0)
                                                       .arg(per_frame > 0 ? QString::number(per_frame) : tr("free"))
                                                       .arg(s.steps_per_second, 0, 'f', 0));
    if (s.kernel_ms_per_step <= 0.0) {
        for (QLabel* l : { m_time, m_cells, m_bytes }) l->setText(QStringLiteral("-"));
        return;
    }
    m_time->setText(s.kernel_ms_per_step >= 1.0 ? tr("%1 ms").arg(s.kernel_ms_per_step, 0, 'f', 2)
                                                : tr("%1 µs").arg(s.kernel_ms_per_step * 1000.0, 0, 'f', 1));
    m_cells->setText(QString::number(s.kernel_gcells_per_second, 'f', 2));
    m_bytes->setText(QString::number(s.kernel_gbytes_per_second, 'f', 1));
}

// The toggle follows the session, disabled with the reason where counters cannot work (CPU, no CUPTI).
void MetricsPanel::set_counters_enabled(bool on) {
    const QString why = m_session.counters_unavailable();
    const QSignalBlocker block(m_counters);
    m_counters->setEnabled(why.isEmpty());
    m_counters->setChecked(on && why.isEmpty());
    m_counters->setToolTip(why.isEmpty() ? m_counters_tip : tooltip_text(why));
    if (!why.isEmpty()) {
        m_note->setText(why);
        m_charts->set_no_data(lower_first(why));
    } else if (on && !m_charts->has_data()) {
        m_charts->set_no_data(tr("no counter sample yet (they are sampled while playing)"));
    } else if (!on) {
        m_note->setText(tr("Hardware counters are off: timing-based figures only."));
        m_charts->set_no_data(tr("hardware counters are off (tick \"Hardware counters\" to profile a step four times "
                                 "a second)"));
    }
}

void MetricsPanel::new_configuration() {
    // The CPU loop is timed, not a GPU kernel: the captions say which (issue 38).
    const bool cpu = m_session.active().settings.config.placement.backend == Backend::Cpu;
    findChild<QLabel*>(QStringLiteral("metric_time_caption"))->setText(step_time_caption(cpu));
    findChild<QLabel*>(QStringLiteral("metric_gcells_caption"))->setText(rate_caption(cpu));
    m_verdict->clear();
    m_current.reset(); // the per-GPU counters and the stall chart wait for the new kernel's first sample
    show_strips();
    m_charts->new_configuration(); // a new kernel's charts start again
    m_sources->new_configuration();
    m_summary->hide(); // until its first profiled launch
    set_counters_enabled(m_session.counters());
    if (m_counters->isChecked()) m_note->setText(tr("Waiting for the first profiled launch of this kernel…"));
}

void MetricsPanel::show_sample(const MetricsSample& s) {
    if (!s.ok() && m_session.continuous_active()) { // the replayed detail is off; the continuous charts run on
        m_summary->hide();
        m_sources->refresh();
        return;
    }
    if (!s.ok()) {
        m_verdict->clear();
        m_note->setText(QString::fromStdString(s.unavailable));
        m_charts->set_no_data(lower_first(QString::fromStdString(s.unavailable)));
        m_summary->hide(); // every row is a counter: none to show
        return;
    }
    m_current = s;
    QString where = QString::fromStdString(s.device_name);
    if (s.gpus.size() > 1)
        where = tr("%1 GPUs (%2); the summary and verdict are the whole run's, the table has each GPU's")
                    .arg(s.gpus.size())
                    .arg(QString::fromStdString(s.gpus.front().device_name));
    else if (!s.gpus.empty() && s.gpus.front().share.strips > 1)
        where += tr(", whose %1 strips are counted together").arg(s.gpus.front().share.strips);
    m_note->setText(tr("Profiled launch at iteration %1 on %2.").arg(s.iteration).arg(where));
    m_verdict->setText(
        QStringLiteral("<b>%1</b>").arg(QString::fromStdString(s.figures.verdict.sentence).toHtmlEscaped()));
    m_charts->show_sample(s);
    m_sources->detail_arrived();
    m_summary->show();
    show_summary(s);
    show_strips();
}

void MetricsPanel::show_summary(const MetricsSample& s) {
    const MetricsSample* b = m_baseline ? &*m_baseline : nullptr;
    m_duration->setText(tr("%1 ms").arg(s.figures.duration_ms, 0, 'f', 3)
        + (b ? versus(s.figures.duration_ms, b->figures.duration_ms, false, 3) : QString()));
    m_profiled_rate->setText(QString::number(s.figures.gcells_per_second, 'f', 1)
        + (b ? versus(s.figures.gcells_per_second, b->figures.gcells_per_second, true, 1) : QString()));
    m_bytes_per_cell->setText(tr("%1 (ideal %2)")
                                  .arg(s.figures.dram_bytes_per_cell, 0, 'f', 2)
                                  .arg(s.figures.ideal_bytes_per_cell, 0, 'f', 2));
    m_l1->setText(percent(std::isnan(s.figures.l1_hit_pct) ? -1.0 : s.figures.l1_hit_pct));
    m_l2->setText(percent(std::isnan(s.figures.l2_hit_pct) ? -1.0 : s.figures.l2_hit_pct));
    const double wavefronts = counter_value(s, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
    const double cells = double(updated_cells(s.settings.config));
    m_smem->setText(wavefronts < 0 || cells <= 0 ? QStringLiteral("–") : QString::number(wavefronts / cells, 'f', 2));
    m_occupancy->setText(
        tr("%1 / %2").arg(percent(counter_value(s, "sm__warps_active.avg.pct_of_peak_sustained_active")),
            percent(100.0 * s.resources.theoretical_occupancy)));
    m_registers->setText(QString::number(s.resources.registers));
    m_spills->setText(QString::number(s.resources.local_bytes));
    m_passes->setText(tr("%1 passes, %2 ms").arg(s.launch.passes).arg(s.launch.wall_ms, 0, 'f', 0));
}

void MetricsPanel::set_baseline(const std::optional<MetricsSample>& baseline) {
    m_baseline = baseline;
    m_charts->set_baseline(baseline);
    if (const MetricsSample* s = m_session.history().latest()) show_summary(*s);
}

void MetricsPanel::clear() {
    m_current.reset();
    show_stats({});
    m_verdict->clear();
    m_charts->clear();
    m_summary->hide();
    for (QLabel* l : { m_duration, m_profiled_rate, m_bytes_per_cell, m_l1, m_l2, m_smem, m_occupancy, m_registers,
             m_spills, m_passes })
        l->setText(QStringLiteral("–"));
}

} // namespace ss::gui
