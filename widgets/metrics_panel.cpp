// SPDX-License-Identifier: MIT
#include "widgets/metrics_panel.h"

#include "widgets/export_util.h"
#include "widgets/metric_charts.h"
#include "widgets/metric_sources.h"
#include "widgets/metrics_chart_area.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ss::gui {
namespace {

// The per-GPU table: timing from the engine's statistics, then the hardware counters of the GPU.
enum GpuColumn { kGpu, kRows, kCompute, kGcells, kExchange, kRemote, kNvlink, kDram, kLocal, kTopStall, kGpuColumns };

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

double counter_value(const KernelMetrics& m, std::string_view name, double fallback = -1.0) {
    const auto it = m.find(name);
    return it == m.end() ? fallback : it->second;
}

double counter_value(const MetricsSample& s, std::string_view name, double fallback = -1.0) {
    return counter_value(s.launch.metrics, name, fallback);
}

const GpuMetricsSample* gpu_of(const MetricsSample& s, int device) {
    for (const GpuMetricsSample& g : s.gpus)
        if (g.share.device == device) return &g;
    return nullptr;
}

QString top_stall_text(const KernelMetrics& m) {
    const TopStall top = top_stall(m);
    if (!top.reason) return QStringLiteral("–");
    return QStringLiteral("%1 %2 (%3 %)")
        .arg(QString::fromUtf8(top.reason->label.data(), int(top.reason->label.size())))
        .arg(top.ratio, 0, 'f', 2)
        .arg(100.0 * top.share, 0, 'f', 0);
}

// "Hardware counters need..." -> "hardware counters need...", to follow "no data because".
QString lower_first(QString text) {
    if (!text.isEmpty()) text[0] = text[0].toLower();
    while (text.endsWith(QLatin1Char('.'))) text.chop(1);
    return text;
}

QString pair_text(double a, double b) {
    const int decimals = std::max(a, b) >= 10.0 ? 0 : 1;
    return QStringLiteral("%1 / %2").arg(a, 0, 'f', decimals).arg(b, 0, 'f', decimals);
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

MetricsPanel::MetricsPanel(Session& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session) {
    auto* outer = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* figures = new QGridLayout;
    m_time = figure(figures, 0, tr("time / step (kernel)"), "metric_time");
    m_cells = figure(figures, 1, tr("GCells/s (kernel)"), "metric_gcells");
    m_bytes = figure(figures, 2, tr("GB/s (ideal traffic)"), "metric_gbs");
    const QString kernel_timing
        = tr("The kernel's own speed: one batch of steps every half second is timed on the GPU with CUDA events around "
             "its launches, held until the whole batch is queued (on the CPU backend: the time of the steps "
             "themselves). The display does not pace it: compare variants here. While the view draws, the GPU "
             "also gives time to the display, so this can read below 'GCells/s (profiled)', which times one "
             "launch replayed alone.");
    for (QLabel* l : { m_time, m_cells, m_bytes }) l->setToolTip(kernel_timing);
    m_cadence = new QLabel;
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
    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("metric_note"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_box->addWidget(m_counters);
    verdict_box->addWidget(m_verdict);
    verdict_box->addWidget(m_note);
    m_gpus = new QTableWidget(0, kGpuColumns);
    m_gpus->setObjectName(QStringLiteral("metric_gpus"));
    const std::pair<QString, QString> headers[kGpuColumns] = {
        { tr("GPU"), tr("The CUDA device the strip runs on.") },
        { tr("rows"), tr("The strip's rows along the split axis (y in 2D, z in 3D).") },
        { tr("compute"), tr("The strip's kernels in the last sampled step (boundary + interior rows), CUDA events.") },
        { tr("GCells/s"), tr("The strip's updated cells per second of its compute time.") },
        { tr("exchange"),
            tr("Receiving its ghost rows in the sampled step. Overlap computes the boundary rows first and exchanges "
               "them while the interior runs. Remote loads: the wait for the neighbours' kernels (nothing is "
               "copied).") },
        { tr("remote reads (computed)"),
            tr("Remote loads (halo mode remote): the bytes the strip's kernels load from its neighbours' memory per "
               "step, computed from the geometry (R rows of each neighbour, its updated cells once), not measured "
               "(strips on one GPU, the testing hook, read another buffer of the same GPU). The NVLink column, where "
               "shown, is measured.") },
        { tr("NVLink rx/tx GB/s (measured)"),
            tr("Measured by the continuous counters: the bytes this GPU's NVLink ports received / sent per second "
               "over the last chart point (nvlrx__bytes.sum, nvltx__bytes.sum), whatever moved them: peer copies "
               "of ghost rows, or remote loads. Shown when the device samples them and the strips are on several "
               "GPUs.") },
        { tr("DRAM R/W GB/s"),
            tr("Hardware counters of this GPU in the last profiled step: DRAM bytes read / written per second of its "
               "kernel time (dram__bytes_read.sum, dram__bytes_write.sum). Hover a cell for its bytes per cell "
               "against the ideal and its verdict.") },
        { tr("local GB/s"),
            tr("Local-memory (register spill) bytes loaded / stored per second of this GPU's kernel time "
               "(l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum / _st.sum).") },
        { tr("top stall"),
            tr("The reason this GPU's warps stall on most: warp cycles stalled per issued instruction and its share "
               "of all stalls. The stall chart shows every reason of the GPU chosen above it.") },
    };
    for (int column = 0; column < kGpuColumns; ++column) {
        auto* header = new QTableWidgetItem(headers[column].first);
        header->setToolTip(headers[column].second);
        m_gpus->setHorizontalHeaderItem(column, header);
    }
    m_gpus->verticalHeader()->hide();
    m_gpus->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gpus->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_gpus->setSelectionMode(QAbstractItemView::NoSelection);
    m_gpus->setFocusPolicy(Qt::NoFocus);
    m_gpus->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_gpus->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_gpus->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents); // as wide as its columns
    m_gpus->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    m_gpus->hide();
    m_halo = new QLabel;
    m_halo->setObjectName(QStringLiteral("metric_halo"));
    m_halo->setWordWrap(true);
    m_halo->hide();
    verdict_box->addWidget(m_gpus);
    verdict_box->addWidget(m_halo);
    verdict_box->addStretch();
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

void MetricsPanel::show_strips() {
    const MultiGpuStats& m = m_strips;
    const bool split = m.strips.size() > 1;
    m_gpus->setVisible(split);
    m_halo->setVisible(split);
    if (!split) return;
    const MetricsSample* counters = m_current ? &*m_current : nullptr;
    const int rows = int(m.strips.size());
    m_gpus->clearSpans();
    m_gpus->setRowCount(rows);
    for (int column = kDram; column < kGpuColumns; ++column) m_gpus->setColumnHidden(column, !counters);
    m_gpus->setColumnHidden(kRemote, m.remote_bytes() == 0); // copies: nothing is loaded remotely
    auto cell = [this](int row, int column, const QString& text, const QString& tooltip = {}) {
        auto* item = new QTableWidgetItem(text);
        item->setTextAlignment(column <= kRows ? Qt::Alignment(Qt::AlignCenter) : (Qt::AlignRight | Qt::AlignVCenter));
        item->setToolTip(tooltip);
        m_gpus->setItem(row, column, item);
    };
    bool shared_gpu = false, nvlink_measured = false, several_gpus = false;
    for (int i = 0; i < rows; ++i) {
        const StripStats& s = m.strips[std::size_t(i)];
        cell(i, kGpu, QString::number(s.device));
        cell(i, kRows, QStringLiteral("%1–%2").arg(s.first_row).arg(s.end_row - 1));
        const QString none = QStringLiteral("…"); // the first sampled step is not timed yet
        cell(i, kCompute, m.timed ? tr("%1 ms").arg(s.compute_ms, 0, 'f', 3) : none);
        cell(i, kGcells, m.timed ? QString::number(s.gcells_per_s(), 'f', 1) : none);
        cell(i, kExchange, m.timed ? tr("%1 ms").arg(s.exchange_ms, 0, 'f', 3) : none);
        cell(i, kRemote, tr("%1 KiB").arg(double(s.remote_bytes) / 1024.0, 0, 'f', 1),
            tr("Computed from the geometry, not measured."));
        const ContinuousPoint* link
            = m_session.history().latest_continuous_point(s.device, m_session.active().generation);
        nvlink_measured = nvlink_measured || (link && link->nvlink_rx_gbs >= 0.0);
        cell(i, kNvlink,
            link && link->nvlink_rx_gbs >= 0.0 ? pair_text(link->nvlink_rx_gbs, link->nvlink_tx_gbs)
                                               : QStringLiteral("–"),
            tr("Measured by the continuous counters (nvlrx__bytes.sum / nvltx__bytes.sum)."));
        several_gpus = several_gpus || s.device != m.strips.front().device;
        if (!counters || (i > 0 && m.strips[std::size_t(i - 1)].device == s.device)) continue; // spanned above
        int span = 1; // strips sharing this GPU (the testing hook) share its counters: one cell for them all
        while (i + span < rows && m.strips[std::size_t(i) + std::size_t(span)].device == s.device) ++span;
        shared_gpu = shared_gpu || span > 1;
        const GpuMetricsSample* g = gpu_of(*counters, s.device);
        if (!g) {
            for (int column = kDram; column < kGpuColumns; ++column) cell(i, column, QStringLiteral("–"));
        } else {
            QString detail = tr("GPU %1 (%2): %3 DRAM bytes per updated cell of its rows and step (ideal %4); %5")
                                 .arg(s.device)
                                 .arg(QString::fromStdString(g->device_name))
                                 .arg(g->figures.dram_bytes_per_cell, 0, 'f', 2)
                                 .arg(counters->figures.ideal_bytes_per_cell, 0, 'g', 3)
                                 .arg(QString::fromStdString(g->figures.verdict.sentence));
            if (span > 1) detail += tr("\nIts %1 strips are counted together.").arg(span);
            cell(i, kDram, pair_text(g->figures.dram_read_gbs, g->figures.dram_write_gbs), detail);
            cell(i, kLocal, pair_text(g->figures.local_load_gbs, g->figures.local_store_gbs), detail);
            cell(i, kTopStall, top_stall_text(g->launch.metrics), detail);
        }
        if (span > 1)
            for (int column = kDram; column < kGpuColumns; ++column) m_gpus->setSpan(i, column, span, 1);
    }
    m_gpus->setColumnHidden(kNvlink, !nvlink_measured || !several_gpus); // one GPU: no link between strips
    const int height = m_gpus->horizontalHeader()->sizeHint().height()
        + rows * m_gpus->verticalHeader()->defaultSectionSize() + 2 * m_gpus->frameWidth();
    m_gpus->setFixedHeight(height);
    QString text = m.timed ? tr("Halo: %1 KiB/step, %2 GB/s, %3; overlap %4")
                                 .arg(double(m.halo_bytes()) / 1024.0, 0, 'f', 0)
                                 .arg(m.halo_gbytes_per_s(), 0, 'f', 1)
                                 .arg(QString::fromStdString(m.path_summary()))
                                 .arg(m.overlap ? tr("on") : tr("off"))
                           : tr("Split over %1 strips; timing the first sampled step…").arg(rows);
    if (m.timed && m.remote_bytes() > 0)
        text = tr("Halo: remote loads, nothing copied; the kernels read %1 KiB/step from the neighbours' memory "
                  "(computed from the geometry)")
                   .arg(double(m.remote_bytes()) / 1024.0, 0, 'f', 1);
    if (shared_gpu)
        text += tr(". Strips on one GPU (the STENCILSCOPE_STRIPS_PER_GPU testing hook) share its counters: their "
                   "figures cover them together.");
    m_halo->setText(text);
}

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
    m_counters->setToolTip(why.isEmpty() ? m_counters_tip : why);
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
                                  .arg(s.figures.ideal_bytes_per_cell, 0, 'g', 3));
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
