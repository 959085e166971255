// SPDX-License-Identifier: MIT
#include "widgets/metrics_panel.h"

#include "widgets/metric_charts.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ss::gui {
namespace {

constexpr std::size_t kHistoryLimit = 100000; // a day at 1 Hz; a few MB

QLabel* figure(QGridLayout* grid, int column, const QString& caption, const char* name) {
    auto* value = new QLabel(QStringLiteral("-"));
    value->setObjectName(QLatin1String(name));
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    value->setFont(f);
    value->setAlignment(Qt::AlignCenter);
    auto* label = new QLabel(caption);
    label->setAlignment(Qt::AlignCenter);
    grid->addWidget(value, 0, column);
    grid->addWidget(label, 1, column);
    return value;
}

QString explanation(std::string_view metric) {
    for (const MetricInfo& m : kernel_metrics())
        if (m.name == metric)
            return QString::fromUtf8(m.explanation.data(), int(m.explanation.size())) + QStringLiteral("\n(")
                + QString::fromUtf8(m.name.data(), int(m.name.size())) + QLatin1Char(')');
    return {};
}

double counter_value(const MetricsSample& s, std::string_view name, double fallback = -1.0) {
    const auto it = s.launch.metrics.find(name);
    return it == s.launch.metrics.end() ? fallback : it->second;
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

MetricsPanel::MetricsPanel(QWidget* parent)
    : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* figures = new QGridLayout;
    m_time = figure(figures, 0, tr("time / step"), "metric_time");
    m_cells = figure(figures, 1, tr("GCells/s"), "metric_gcells");
    m_bytes = figure(figures, 2, tr("GB/s (ideal traffic)"), "metric_gbs");
    m_steps = figure(figures, 3, tr("steps/s"), "metric_steps");
    top->addLayout(figures, 2);
    auto* verdict_box = new QVBoxLayout;
    m_counters = new QCheckBox(tr("Hardware counters (CUPTI)"));
    m_counters->setObjectName(QStringLiteral("counters_toggle"));
    m_counters->setToolTip(tr("Profile one step about four times a second with CUPTI's Range Profiler (kernel replay: "
                              "the sampled step runs once per replay pass). The display kernel is never profiled."));
    connect(m_counters, &QCheckBox::toggled, this, &MetricsPanel::counters_toggled);
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("metric_verdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setToolTip(
        tr("The likely limiter of the current kernel, from its counters: DRAM bandwidth, local-memory "
           "spills, shared memory, latency/occupancy or compute."));
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("metric_note"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_box->addWidget(m_counters);
    verdict_box->addWidget(m_verdict);
    verdict_box->addWidget(m_note);
    m_gpus = new QLabel;
    m_gpus->setObjectName(QStringLiteral("metric_gpus"));
    m_gpus->setTextFormat(Qt::RichText);
    m_gpus->setToolTip(tr("Per GPU: the strip's rows, its kernels' time and throughput in the last sampled step, and "
                          "how long receiving its ghost rows took. Overlap computes the boundary rows first and "
                          "exchanges them while the interior runs."));
    m_gpus->hide();
    verdict_box->addWidget(m_gpus);
    verdict_box->addStretch();
    top->addLayout(verdict_box, 3);
    outer->addLayout(top);

    auto* row = new QHBoxLayout;
    auto* summary = new QFormLayout;
    summary->setLabelAlignment(Qt::AlignRight);
    m_duration = summary_row(summary, tr("Kernel duration"), explanation("gpu__time_duration.sum"), "sum_duration");
    m_profiled_rate = summary_row(summary, tr("GCells/s (profiled)"),
        tr("Updated cells per second over the profiled kernel's GPU time."), "sum_gcells");
    m_bytes_per_cell = summary_row(summary, tr("DRAM bytes/cell"),
        tr("DRAM bytes read + written per updated cell, against the ideal: each cell read once and written once "
           "(2 × element size; 3 × for the wave). Above the ideal: the caches miss neighbours."),
        "sum_bytes_per_cell");
    m_l1 = summary_row(summary, tr("L1 hit rate"), explanation("l1tex__t_sector_hit_rate.pct"), "sum_l1");
    m_l2 = summary_row(summary, tr("L2 hit rate"), explanation("lts__t_sector_hit_rate.pct"), "sum_l2");
    m_smem = summary_row(summary, tr("Shared-memory wavefronts/cell"),
        explanation("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), "sum_smem");
    m_occupancy = summary_row(summary, tr("Occupancy achieved / theoretical"),
        explanation("sm__warps_active.avg.pct_of_peak_sustained_active")
            + tr("\nTheoretical: what registers, shared memory and the block size allow."),
        "sum_occupancy");
    m_registers
        = summary_row(summary, tr("Registers/thread"), tr("Registers per thread of the compiled kernel."), "sum_regs");
    m_spills = summary_row(summary, tr("Spill (local) bytes/thread"),
        tr("Bytes per thread the compiler placed in local memory: spilled registers. Their traffic shows in the "
           "local-memory chart."),
        "sum_spills");
    m_passes = summary_row(summary, tr("Replay passes"),
        tr("How many times CUPTI replayed the profiled step to collect every counter (kernel replay), and the "
           "host time it took."),
        "sum_passes");
    row->addLayout(summary, 0);
    m_dram = new TimeSeriesChart(tr("DRAM throughput"), tr("GB/s"), { tr("read"), tr("write") });
    m_dram->setObjectName(QStringLiteral("chart_dram"));
    m_dram->setToolTip(explanation("dram__bytes_write.sum"));
    m_local = new TimeSeriesChart(tr("Local memory (spills)"), tr("GB/s"), { tr("load"), tr("store") });
    m_local->setObjectName(QStringLiteral("chart_local"));
    m_local->setToolTip(explanation("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"));
    m_stalls = new StallChart;
    m_stalls->setObjectName(QStringLiteral("chart_stalls"));
    row->addWidget(m_dram, 2);
    row->addWidget(m_local, 2);
    row->addWidget(m_stalls, 4);
    outer->addLayout(row, 1);
    clear();
}

QLabel* MetricsPanel::summary_row(QFormLayout* form, const QString& caption, const QString& tooltip, const char* name) {
    auto* value = new QLabel(QStringLiteral("–"));
    value->setObjectName(QLatin1String(name));
    value->setTextFormat(Qt::RichText);
    auto* label = new QLabel(caption);
    label->setToolTip(tooltip);
    value->setToolTip(tooltip);
    form->addRow(label, value);
    return value;
}

void MetricsPanel::show_strips(const MultiGpuStats& m) {
    if (m.strips.size() <= 1 || !m.timed) {
        m_gpus->setVisible(m.strips.size() > 1);
        m_gpus->setText(tr("Split over %1 strips; timing the first sampled step…").arg(m.strips.size()));
        return;
    }
    QString html = QStringLiteral("<table cellspacing=6><tr><th>GPU</th><th>rows</th><th>compute</th><th>GCells/s</th>"
                                  "<th>exchange</th></tr>");
    for (const StripStats& s : m.strips)
        html += QStringLiteral("<tr><td>%1</td><td>%2–%3</td><td>%4 ms</td><td>%5</td><td>%6 ms</td></tr>")
                    .arg(s.device)
                    .arg(s.first_row)
                    .arg(s.end_row - 1)
                    .arg(s.compute_ms, 0, 'f', 3)
                    .arg(s.gcells_per_s(), 0, 'f', 1)
                    .arg(s.exchange_ms, 0, 'f', 3);
    html += QStringLiteral("</table>")
        + tr("Halo: %1 KiB/step, %2 GB/s, %3; overlap %4")
              .arg(double(m.halo_bytes()) / 1024.0, 0, 'f', 0)
              .arg(m.halo_gbytes_per_s(), 0, 'f', 1)
              .arg(QString::fromStdString(m.path_summary()))
              .arg(m.overlap ? tr("on") : tr("off"));
    m_gpus->setText(html);
    m_gpus->show();
}

void MetricsPanel::show_stats(const EngineStats& s) {
    show_strips(s.strips);
    if (s.ms_per_step <= 0.0) {
        for (QLabel* l : { m_time, m_cells, m_bytes, m_steps }) l->setText(QStringLiteral("-"));
        return;
    }
    m_time->setText(s.ms_per_step >= 1.0 ? tr("%1 ms").arg(s.ms_per_step, 0, 'f', 2)
                                         : tr("%1 µs").arg(s.ms_per_step * 1000.0, 0, 'f', 1));
    m_cells->setText(QString::number(s.gcells_per_second, 'f', 2));
    m_bytes->setText(QString::number(s.gbytes_per_second, 'f', 1));
    m_steps->setText(QString::number(s.steps_per_second, 'f', 0));
}

void MetricsPanel::set_counters_enabled(bool on) {
    const QSignalBlocker block(m_counters);
    m_counters->setChecked(on);
    if (!on) m_note->setText(tr("Hardware counters are off: timing-based figures only."));
}

void MetricsPanel::new_configuration() {
    m_verdict->clear();
    if (m_counters->isChecked()) m_note->setText(tr("Waiting for the first profiled launch of this kernel…"));
}

void MetricsPanel::show_sample(const MetricsSample& s) {
    if (!s.ok()) {
        m_verdict->clear();
        m_note->setText(QString::fromStdString(s.unavailable));
        return;
    }
    if (m_history.size() >= kHistoryLimit) m_history.erase(m_history.begin(), m_history.begin() + kHistoryLimit / 10);
    m_history.push_back(s);
    m_note->setText(
        tr("Profiled launch at iteration %1 on %2.").arg(s.iteration).arg(QString::fromStdString(s.device_name)));
    m_verdict->setText(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(s.verdict.sentence).toHtmlEscaped()));
    const double peak = s.dram_peak_gbs;
    m_dram->set_ceiling(peak);
    if (peak > 0)
        m_dram->chart()->setTitle(tr("DRAM: %1 % of the %2 GB/s peak")
                                      .arg(100.0 * (s.dram_read_gbs + s.dram_write_gbs) / peak, 0, 'f', 0)
                                      .arg(peak, 0, 'f', 0));
    m_dram->set_series_label(0, tr("read %1").arg(s.dram_read_gbs, 0, 'f', 0));
    m_dram->set_series_label(1, tr("write %1").arg(s.dram_write_gbs, 0, 'f', 0));
    m_dram->append(s.seconds, { s.dram_read_gbs, s.dram_write_gbs });
    m_local->set_series_label(0, tr("load %1").arg(s.local_load_gbs, 0, 'f', 0));
    m_local->set_series_label(1, tr("store %1").arg(s.local_store_gbs, 0, 'f', 0));
    m_local->append(s.seconds, { s.local_load_gbs, s.local_store_gbs });
    show_summary(s);
    show_stalls(s);
}

void MetricsPanel::show_summary(const MetricsSample& s) {
    const MetricsSample* b = m_baseline ? &*m_baseline : nullptr;
    m_duration->setText(
        tr("%1 ms").arg(s.duration_ms, 0, 'f', 3) + (b ? versus(s.duration_ms, b->duration_ms, false, 3) : QString()));
    m_profiled_rate->setText(QString::number(s.gcells_per_second, 'f', 1)
        + (b ? versus(s.gcells_per_second, b->gcells_per_second, true, 1) : QString()));
    m_bytes_per_cell->setText(
        tr("%1 (ideal %2)").arg(s.dram_bytes_per_cell, 0, 'f', 2).arg(s.ideal_bytes_per_cell, 0, 'f', 0));
    m_l1->setText(percent(counter_value(s, "l1tex__t_sector_hit_rate.pct")));
    m_l2->setText(percent(counter_value(s, "lts__t_sector_hit_rate.pct")));
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

void MetricsPanel::show_stalls(const MetricsSample& s) {
    std::vector<StallChart::Bar> bars;
    for (const StallReason& r : stall_reasons()) {
        if (r.reason == "selected") continue; // issuing, not stalling
        const std::string name = stall_metric_name(r.reason);
        const double v = counter_value(s, name);
        if (v < 0) continue;
        StallChart::Bar bar;
        bar.label = QString::fromUtf8(r.label.data(), int(r.label.size()));
        bar.explanation = QString::fromUtf8(r.explanation.data(), int(r.explanation.size()));
        bar.value = v;
        if (m_baseline) bar.baseline = std::max(counter_value(*m_baseline, name), 0.0);
        bars.push_back(bar);
    }
    m_stalls->show_bars(std::move(bars));
}

void MetricsPanel::set_baseline(const std::optional<MetricsSample>& baseline) {
    m_baseline = baseline;
    if (const MetricsSample* s = latest()) {
        show_summary(*s);
        show_stalls(*s);
    }
}

bool MetricsPanel::save_charts(const QString& stem, QString* error) {
    const std::pair<QWidget*, const char*> charts[]
        = { { m_dram, "-dram.png" }, { m_local, "-local.png" }, { m_stalls, "-stalls.png" } };
    for (const auto& [chart, suffix] : charts) {
        const QString path = stem + QLatin1String(suffix);
        if (!chart->grab().save(path)) {
            if (error) *error = tr("could not write %1").arg(path);
            return false;
        }
    }
    return true;
}

void MetricsPanel::clear() {
    show_stats({});
    m_verdict->clear();
    m_dram->clear();
    m_local->clear();
    m_stalls->clear();
    for (QLabel* l : { m_duration, m_profiled_rate, m_bytes_per_cell, m_l1, m_l2, m_smem, m_occupancy, m_registers,
             m_spills, m_passes })
        l->setText(QStringLiteral("–"));
}

} // namespace ss::gui
