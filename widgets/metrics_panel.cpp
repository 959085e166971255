// SPDX-License-Identifier: MIT
// The metrics panel's layout and what it observes. What it shows: metrics_panel_readouts.cpp; the per-GPU
// table: metrics_panel_gpu_table.cpp; its chart export: metrics_panel_export.cpp.
#include "widgets/metrics_panel.h"

#include "widgets/cpu_loop_caveat.h"
#include "widgets/metric_charts.h"
#include "widgets/metric_sources.h"
#include "widgets/metrics_chart_area.h"
#include "widgets/plain_text.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ss::gui {
namespace {

QLabel* figure(QGridLayout* grid, int column, const QString& caption, const char* name) {
    auto* value = new QLabel(QStringLiteral("-"));
    value->setObjectName(QLatin1String(name));
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setBold(true);
    value->setFont(f);
    value->setAlignment(Qt::AlignCenter);
    auto* label = new QLabel(caption);
    label->setObjectName(QLatin1String(name) + QLatin1String("_caption"));
    label->setAlignment(Qt::AlignCenter);
    grid->addWidget(value, 0, column);
    grid->addWidget(label, 1, column);
    return value;
}

} // namespace

MetricsPanel::MetricsPanel(Session& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session) {
    auto* outer = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* figures = new QGridLayout;
    m_time = figure(figures, 0, step_time_caption(false), "metric_time");
    m_cells = figure(figures, 1, rate_caption(false), "metric_gcells");
    m_bytes = figure(figures, 2, tr("GB/s (ideal traffic)"), "metric_gbs");
    const QString kernel_timing
        = tr("The kernel's own speed: one batch of steps every half second is timed on the GPU with CUDA events around "
             "its launches, held until the whole batch is queued (on the CPU backend: the time of the steps "
             "themselves). The display does not pace it: compare variants here. While the view draws, the GPU "
             "also gives time to the display, so this can read below 'GCells/s (profiled)', which times one "
             "launch replayed alone.");
    for (QLabel* l : { m_time, m_cells, m_bytes }) l->setToolTip(kernel_timing);
    m_cadence = plain_label(new QLabel);
    m_cadence->setObjectName(QStringLiteral("metric_cadence"));
    m_cadence->setWordWrap(true);
    m_cadence->setToolTip(tr("The display cadence: frames the screen shows per second, the steps computed between "
                             "two frames (the steps/frame knob; free running: as many as fit), and the steps per "
                             "second of wall-clock time that gives. Paced by the display, not a measure of the "
                             "kernel."));
    figures->addWidget(m_cadence, 2, 0, 1, 3);
    top->addLayout(figures, 2);
    auto* verdict_box = new QVBoxLayout;
    m_counters = new QCheckBox(tr("Hardware counters (CUPTI)"));
    m_counters->setObjectName(QStringLiteral("counters_toggle"));
    m_counters_tip = (tr("Profile one step about four times a second with CUPTI's Range Profiler (kernel replay: "
                         "the sampled step runs once per replay pass). The display kernel is never profiled."));
    m_counters->setToolTip(m_counters_tip);
    connect(m_counters, &QCheckBox::toggled, &m_session, &Session::set_counters);
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("metric_verdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setToolTip(
        tr("The likely limiter of the current kernel, from the counters of its last few profiled launches together "
           "(it changes only when the evidence moves clearly): DRAM bandwidth, local-memory spills, shared memory, "
           "latency/occupancy or compute. \"L2-resident\": the field fits in the GPU's L2, so DRAM is not the "
           "limit."));
    m_note = plain_label(new QLabel); // it names the device and quotes the profiler's reasons
    m_note->setObjectName(QStringLiteral("metric_note"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_box->addWidget(m_counters);
    verdict_box->addWidget(m_verdict);
    verdict_box->addWidget(m_note);
    build_gpu_table();
    m_halo = plain_label(new QLabel);
    m_halo->setObjectName(QStringLiteral("metric_halo"));
    m_halo->setWordWrap(true);
    m_halo->hide();
    m_strips_box = new QWidget;
    m_strips_box->setObjectName(QStringLiteral("metric_strips"));
    auto* strips = new QVBoxLayout(m_strips_box);
    strips->setContentsMargins(0, 0, 0, 0);
    strips->addWidget(m_gpus);
    strips->addWidget(m_halo);
    verdict_box->addWidget(m_strips_box);
    verdict_box->addStretch();
    m_verdict_box = verdict_box;
    m_outer = outer;
    top->addLayout(verdict_box, 3);
    outer->addLayout(top);

    auto* row = new QHBoxLayout;
    m_summary = new QWidget;
    m_summary->setObjectName(QStringLiteral("metric_summary"));
    auto* summary = new QFormLayout(m_summary);
    summary->setContentsMargins(0, 0, 0, 0);
    summary->setLabelAlignment(Qt::AlignRight);
    m_duration
        = summary_row(summary, tr("Kernel duration"), metric_explanation("gpu__time_duration.sum"), "sum_duration");
    m_profiled_rate = summary_row(summary, tr("GCells/s (profiled)"),
        tr("Updated cells per second over the profiled kernel's GPU time (a temporal launch updates each cell "
           "depth times)."),
        "sum_gcells");
    m_bytes_per_cell = summary_row(summary, tr("DRAM bytes/cell/step"),
        tr("DRAM bytes read + written per updated cell and step, against the ideal: each cell read once and written "
           "once (2 × element size; 3 × for the wave). Above the ideal: the caches miss neighbours. The temporal "
           "variant's launch fuses depth steps and moves each cell once for all of them: about 8/depth bytes in "
           "fp32, plus its re-read halo."),
        "sum_bytes_per_cell");
    const QString from_counts = tr("\nHits / (hits + misses) of the sector lookups, summed over the launch's kernels: "
                                   "never above 100 % (CUPTI's own percentage mixes replay passes on short kernels).");
    m_l1 = summary_row(
        summary, tr("L1 hit rate"), metric_explanation("l1tex__t_sector_hit_rate.pct") + from_counts, "sum_l1");
    m_l2 = summary_row(
        summary, tr("L2 hit rate"), metric_explanation("lts__t_sector_hit_rate.pct") + from_counts, "sum_l2");
    m_smem = summary_row(summary, tr("Shared-memory wavefronts/cell"),
        metric_explanation("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), "sum_smem");
    m_occupancy = summary_row(summary, tr("Occupancy achieved / theoretical"),
        metric_explanation("sm__warps_active.avg.pct_of_peak_sustained_active")
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
    row->addWidget(m_summary, 0);
    m_charts = new MetricsChartArea;
    m_charts->setObjectName(QStringLiteral("metric_charts"));
    row->addWidget(m_charts, 8);
    m_sources = new MetricSources(m_session, *m_charts);
    outer->addWidget(m_sources);
    outer->addLayout(row, 1);
    clear();
    observe_session();
}

bool MetricsPanel::event(QEvent* e) {
    if (e->type() == QEvent::Resize || e->type() == QEvent::LayoutRequest) place_strips();
    return QWidget::event(e);
}

void MetricsPanel::place_strips() {
    constexpr int kRoomForTableAndChart = 360; // px of the dock's viewport: readouts, verdict, table, most of a chart
    const QWidget* viewport = parentWidget(); // the Metrics dock's scroll area shows this panel in its viewport
    const bool below = m_gpus->isVisibleTo(this) && viewport && viewport->height() < kRoomForTableAndChart;
    if (below == m_strips_below) return;
    m_strips_below = below;
    (below ? m_verdict_box : m_outer)->removeWidget(m_strips_box);
    if (below)
        m_outer->addWidget(m_strips_box);
    else
        m_verdict_box->insertWidget(m_verdict_box->indexOf(m_note) + 1, m_strips_box);
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

// The panel follows the session: its statistics, each profiled launch, the baseline and the counter toggle.
void MetricsPanel::observe_session() {
    connect(&m_session, &Session::stats, this, &MetricsPanel::show_stats);
    connect(&m_session, &Session::sample_added, this, &MetricsPanel::show_sample);
    connect(&m_session, &Session::sample_unavailable, this, &MetricsPanel::show_sample);
    connect(&m_session, &Session::ready, this, &MetricsPanel::new_configuration);
    connect(&m_session, &Session::baseline_changed, this, &MetricsPanel::set_baseline);
    connect(&m_session, &Session::counters_changed, this, &MetricsPanel::set_counters_enabled);
    connect(&m_session, &Session::settings_changed, this, [this] { set_counters_enabled(m_session.counters()); });
}

} // namespace ss::gui
