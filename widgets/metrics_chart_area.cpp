// SPDX-License-Identifier: MIT
#include "widgets/metrics_chart_area.h"

#include "gpu/problem/rates.h"
#include "widgets/export_util.h"
#include "widgets/metric_charts.h"
#include "widgets/plain_text.h"

#include <QChart>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QTime>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

double counter_value(const KernelMetrics& m, std::string_view name, double fallback = -1.0) {
    const auto it = m.find(name);
    return it == m.end() ? fallback : it->second;
}

// The counters the stall chart shows: GPU `device`'s, or the whole run's (device < 0, or not in `s`).
const KernelMetrics& stall_metrics(const MetricsSample& s, int device) {
    for (const GpuMetricsSample& g : s.gpus)
        if (device >= 0 && g.share.device == device) return g.launch.metrics;
    return s.launch.metrics;
}

} // namespace

MetricsChartArea::MetricsChartArea(QWidget* parent)
    : QWidget(parent) {
    m_dram = new TimeSeriesChart(tr("DRAM throughput"), tr("GB/s"), { tr("read"), tr("write") });
    m_dram->setObjectName(QStringLiteral("chart_dram"));
    m_dram->setToolTip(metric_explanation("dram__bytes_write.sum"));
    m_local = new TimeSeriesChart(tr("Local memory (spills)"), tr("GB/s"), { tr("load"), tr("store") });
    m_local->setObjectName(QStringLiteral("chart_local"));
    m_local->setToolTip(metric_explanation("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum"));
    m_stalls = new StallChart;
    m_stalls->setObjectName(QStringLiteral("chart_stalls"));
    m_stall_gpu = new QComboBox;
    m_stall_gpu->setObjectName(QStringLiteral("stall_gpu"));
    m_stall_gpu->setToolTip(tr("Whose warp stalls the chart shows: one GPU's, or all GPUs' together (each GPU's "
                               "ratios weighted by its kernel time)."));
    m_stall_gpu->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_stall_gpu->hide();
    connect(m_stall_gpu, &QComboBox::currentIndexChanged, this, [this] {
        if (m_current) show_stalls(*m_current);
    });
    m_notice = plain_label(new QLabel); // the reasons quote the engine and the profiler
    m_notice->setObjectName(QStringLiteral("chart_notice"));
    m_notice->setWordWrap(true);
    m_notice->setStyleSheet(QStringLiteral("color: palette(placeholder-text)"));
    m_stall_box = new QWidget;
    auto* stall_box = new QVBoxLayout(m_stall_box);
    stall_box->setContentsMargins(0, 0, 0, 0);
    stall_box->addWidget(m_stall_gpu, 0, Qt::AlignRight);
    stall_box->addWidget(m_stalls, 1);
    m_grid = new QGridLayout;
    m_grid->setContentsMargins(0, 0, 0, 0);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addLayout(m_grid, 1);
    outer->addWidget(m_notice); // below the charts: above, its line would push the first chart out of a short dock
    arrange_charts();
    set_no_data(tr("no kernel has been profiled yet"));
}

void MetricsChartArea::set_no_data(const QString& reason) {
    m_no_data = reason;
    m_current.reset();
    m_continuous_points = 0;
    m_dram->clear();
    m_local->clear();
    m_stalls->clear();
    m_stall_bars = false;
    update_visibility();
}

void MetricsChartArea::new_configuration() {
    const bool had_data = has_data();
    m_current.reset();
    m_continuous_points = 0;
    m_dram->clear();
    m_local->clear();
    m_stalls->clear();
    m_stall_bars = false;
    // a 60 s chart that starts again says since when, so a short line is not read as a short history
    if (had_data) m_since = tr("since the change at %1").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
    if (m_no_data.isEmpty()) m_no_data = tr("waiting for the first profiled launch of this kernel");
    update_visibility();
}

void MetricsChartArea::clear() {
    m_since.clear();
    set_no_data(tr("no kernel has been profiled yet"));
}

bool MetricsChartArea::has_data() const {
    return m_current.has_value() || m_continuous_points > 0;
}

void MetricsChartArea::set_continuous(bool on) {
    if (on == m_continuous) return;
    m_continuous = on;
    m_continuous_points = 0;
    m_continuous_devices.clear();
    m_chart_devices = { -2 }; // the titles and tooltips name the source: set the lines again
    set_throughput_lines({});
    m_dram->set_ceiling(0.0);
    m_dram->clear();
    m_local->clear();
    update_visibility();
}

// Each GPU's point goes to its pair of lines; a GPU not seen before adds a pair (lines per GPU, as the
// replayed samples draw them).
void MetricsChartArea::append_continuous(const std::vector<ContinuousPoint>& points) {
    if (!m_continuous || points.empty()) return;
    for (const ContinuousPoint& p : points)
        if (std::find(m_continuous_devices.begin(), m_continuous_devices.end(), p.device) == m_continuous_devices.end())
            m_continuous_devices.push_back(p.device);
    set_throughput_lines(m_continuous_devices.size() > 1 ? m_continuous_devices : std::vector<int> {});
    for (const ContinuousPoint& p : points) {
        const int pair = m_continuous_devices.size() > 1 ? 2
                * int(std::find(m_continuous_devices.begin(), m_continuous_devices.end(), p.device)
                    - m_continuous_devices.begin())
                                                         : 0;
        m_dram->append_point(pair, p.seconds, p.dram_read_gbs);
        m_dram->append_point(pair + 1, p.seconds, p.dram_write_gbs);
        if (p.local_load_gbs >= 0.0) {
            m_local->append_point(pair, p.seconds, p.local_load_gbs);
            m_local->append_point(pair + 1, p.seconds, p.local_store_gbs);
        }
        ++m_continuous_points;
    }
    const ContinuousPoint& last = points.back();
    if (m_continuous_devices.size() <= 1) {
        m_dram->set_series_label(0, tr("read %1").arg(last.dram_read_gbs, 0, 'f', 0));
        m_dram->set_series_label(1, tr("write %1").arg(last.dram_write_gbs, 0, 'f', 0));
        // The hardware's own share of its peak, never above 100 %, averaged over time with the GPU's idle gaps
        // between frames: a paced display reads far below the replayed kernel's share, and the title says why.
        if (last.dram_pct >= 0.0)
            m_dram->chart()->setTitle(tr("DRAM (continuous, over time, idle gaps included): %1 % of peak")
                                          .arg(percent_of(last.dram_pct, 100.0), 0, 'f', 0));
        if (last.local_load_gbs >= 0.0) {
            m_local->set_series_label(0, tr("load %1").arg(last.local_load_gbs, 0, 'f', 0));
            m_local->set_series_label(1, tr("store %1").arg(last.local_store_gbs, 0, 'f', 0));
        }
    }
    m_no_data.clear();
    update_visibility();
}

QString MetricsChartArea::notice() const {
    return m_notice->isVisible() || !m_notice->isHidden() ? m_notice->text() : QString();
}

// One row of charts where each gets a readable width (kChartWidth); narrower (beside the knobs at 1280x720), the
// stall chart moves below the time series, which keep the first row and the height the dock shows first.
void MetricsChartArea::arrange_charts() {
    constexpr int kChartWidth = 240;
    const int time_series = int(!m_dram->isHidden()) + int(!m_local->isHidden());
    const bool below = time_series > 0 && width() < kChartWidth * (time_series + 2); // the stall bars want two
    if (below == m_stalls_below && m_grid->count() > 0) return;
    m_stalls_below = below;
    for (QWidget* w : { static_cast<QWidget*>(m_dram), static_cast<QWidget*>(m_local), m_stall_box })
        m_grid->removeWidget(w);
    for (int c = 0; c < 3; ++c) m_grid->setColumnStretch(c, 0);
    m_grid->addWidget(m_dram, 0, 0);
    m_grid->addWidget(m_local, 0, 1);
    m_grid->addWidget(m_stall_box, below ? 1 : 0, below ? 0 : 2, 1, below ? 2 : 1);
    m_grid->setColumnStretch(0, 2);
    m_grid->setColumnStretch(1, 2);
    m_grid->setColumnStretch(2, below ? 0 : 4);
}

void MetricsChartArea::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    arrange_charts();
}

void MetricsChartArea::update_visibility() {
    const bool drawn = has_data();
    const bool local = drawn && m_local->largest() > 0.0;
    const bool throughput = m_continuous ? m_continuous_points > 0 : drawn;
    m_dram->setVisible(throughput);
    m_local->setVisible(local && throughput);
    m_stall_box->setVisible(drawn && m_stall_bars);
    QStringList lines;
    if (!drawn) {
        lines << tr("Charts: no data because %1.").arg(m_no_data);
    } else {
        if (!m_since.isEmpty())
            lines << tr("Charts %1 (another kernel); earlier launches are in the metrics export.").arg(m_since);
        if (!local) lines << tr("Local memory: 0 B/s in every profiled launch shown (no spills), chart hidden.");
        if (!m_stall_bars)
            lines << (m_current ? tr("Warp stalls: not collected on this GPU, chart hidden.")
                                : tr("Warp stalls: waiting for a replayed profile, chart hidden."));
    }
    arrange_charts();
    m_notice->setText(lines.join(QLatin1Char('\n')));
    m_notice->setVisible(!lines.isEmpty());
    // collapsed to the notice when nothing is drawn, so the dock gives the room back to the field
    setSizePolicy(QSizePolicy::Preferred, drawn ? QSizePolicy::Expanding : QSizePolicy::Maximum);
    updateGeometry();
}

void MetricsChartArea::show_sample(const MetricsSample& s) {
    m_current = s;
    m_no_data.clear();
    if (!m_continuous) show_throughput(s);
    update_stall_selector(s);
    show_stalls(s);
}

void MetricsChartArea::set_baseline(const std::optional<MetricsSample>& baseline) {
    m_baseline = baseline;
    if (m_current) show_stalls(*m_current);
}

void MetricsChartArea::set_throughput_lines(const std::vector<int>& devices) {
    if (devices == m_chart_devices) return;
    m_chart_devices = devices;
    std::vector<TimeSeriesChart::Line> dram, local;
    if (devices.empty()) {
        dram = { { tr("read") }, { tr("write") } };
        local = { { tr("load") }, { tr("store") } };
    }
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const QString gpu = tr("GPU %1").arg(devices[i]);
        dram.push_back({ gpu + tr(" read"), int(i), false });
        dram.push_back({ gpu + tr(" write"), int(i), true });
        local.push_back({ gpu + tr(" load"), int(i), false });
        local.push_back({ gpu + tr(" store"), int(i), true });
    }
    m_dram->set_lines(dram);
    m_local->set_lines(local);
    const QString source = m_continuous ? tr(" (continuous)") : QString();
    m_dram->chart()->setTitle((devices.empty() ? tr("DRAM throughput") : tr("DRAM R/W per GPU")) + source);
    // Continuous sampling counts the whole GPU, the display's own kernels too (the H100 showed 4-6 GB/s beside a
    // kernel that spills nothing): "spills" only where the replayed profile measured the stencil kernel alone.
    m_local->chart()->setTitle(devices.empty()
            ? (m_continuous ? tr("Local memory, whole GPU (continuous)") : tr("Local memory (spills)"))
            : tr("Local load/store per GPU") + source);
    QString lines
        = devices.empty() ? QString() : tr("\nOne colour per GPU: solid lines read (load), dashed write (store).");
    lines += m_continuous
        ? tr("\nSource: continuous sampling (CUPTI PM sampling, no replay): each point is one GPU's bytes over "
             "about 50 ms of its samples, per second.")
        : tr("\nSource: the replayed profiles (kernel replay), one point per profiled step.");
    m_dram->setToolTip(metric_explanation("dram__bytes_write.sum") + lines);
    m_local->setToolTip(metric_explanation("l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum") + lines
        + (m_continuous ? tr("\nContinuous sampling counts every kernel on the GPU, the display's too; the stencil "
                             "kernel's own spills are the replayed profile's \"Spill (local) bytes/thread\".")
                        : QString()));
}

// One GPU: read/write (load/store) lines against its peak. Split: a pair of lines per GPU, one colour
// per GPU, dashed for writes (stores), against the largest GPU's peak.
void MetricsChartArea::show_throughput(const MetricsSample& s) {
    std::vector<int> devices;
    if (s.gpus.size() > 1)
        for (const GpuMetricsSample& g : s.gpus) devices.push_back(g.share.device);
    set_throughput_lines(devices);
    if (devices.empty()) {
        const double peak = s.figures.dram_peak_gbs;
        m_dram->set_ceiling(peak);
        if (peak > 0 && !std::isnan(s.figures.dram_pct_of_roofline))
            m_dram->chart()->setTitle(tr("DRAM: %1 % of the %2 GB/s peak")
                                          .arg(s.figures.dram_pct_of_roofline, 0, 'f', 0)
                                          .arg(peak, 0, 'f', 0));
        m_dram->set_series_label(0, tr("read %1").arg(s.figures.dram_read_gbs, 0, 'f', 0));
        m_dram->set_series_label(1, tr("write %1").arg(s.figures.dram_write_gbs, 0, 'f', 0));
        m_dram->append(s.seconds, { s.figures.dram_read_gbs, s.figures.dram_write_gbs });
        m_local->set_series_label(0, tr("load %1").arg(s.figures.local_load_gbs, 0, 'f', 0));
        m_local->set_series_label(1, tr("store %1").arg(s.figures.local_store_gbs, 0, 'f', 0));
        m_local->append(s.seconds, { s.figures.local_load_gbs, s.figures.local_store_gbs });
        return;
    }
    // The legend's one entry per GPU (the solid line's) carries both figures, "GPU 1 2101/2098", where the chart is
    // wide enough; narrower it says "GPU 1" and the tooltip has the figures.
    std::vector<double> dram, local;
    std::vector<double> shares; // of each GPU's own copy peak, %
    double ceiling = 0.0;
    for (std::size_t i = 0; i < s.gpus.size(); ++i) {
        const GpuMetricsSample& g = s.gpus[i];
        const QString gpu = tr("GPU %1").arg(g.share.device);
        const int line = int(2 * i);
        m_dram->set_series_label(line,
            tr("%1 %2/%3").arg(gpu).arg(g.figures.dram_read_gbs, 0, 'f', 0).arg(g.figures.dram_write_gbs, 0, 'f', 0),
            gpu);
        if (!std::isnan(g.figures.dram_pct_of_roofline)) shares.push_back(g.figures.dram_pct_of_roofline);
        m_dram->set_series_label(line + 1, tr("%1 write %2").arg(gpu).arg(g.figures.dram_write_gbs, 0, 'f', 0));
        m_local->set_series_label(line,
            tr("%1 %2/%3").arg(gpu).arg(g.figures.local_load_gbs, 0, 'f', 0).arg(g.figures.local_store_gbs, 0, 'f', 0),
            gpu);
        m_local->set_series_label(line + 1, tr("%1 store %2").arg(gpu).arg(g.figures.local_store_gbs, 0, 'f', 0));
        dram.insert(dram.end(), { g.figures.dram_read_gbs, g.figures.dram_write_gbs });
        local.insert(local.end(), { g.figures.local_load_gbs, g.figures.local_store_gbs });
        ceiling = std::max(ceiling, g.figures.dram_peak_gbs);
    }
    m_dram->set_ceiling(ceiling);
    if (shares.size() == s.gpus.size()) { // the title has room for two GPUs' shares, else their range
        const auto [low, high] = std::minmax_element(shares.begin(), shares.end());
        m_dram->chart()->setTitle(shares.size() == 2
                ? tr("DRAM R/W per GPU: %1 %, %2 % of peak").arg(shares[0], 0, 'f', 0).arg(shares[1], 0, 'f', 0)
                : tr("DRAM R/W per GPU: %1–%2 % of peak").arg(*low, 0, 'f', 0).arg(*high, 0, 'f', 0));
    }
    m_dram->append(s.seconds, dram);
    m_local->append(s.seconds, local);
}

// "All GPUs" plus one entry per GPU of a split run; the choice survives samples of the same GPUs.
void MetricsChartArea::update_stall_selector(const MetricsSample& s) {
    std::vector<int> wanted;
    if (s.gpus.size() > 1) {
        wanted.push_back(-1);
        for (const GpuMetricsSample& g : s.gpus) wanted.push_back(g.share.device);
    }
    std::vector<int> present;
    for (int i = 0; i < m_stall_gpu->count(); ++i) present.push_back(m_stall_gpu->itemData(i).toInt());
    m_stall_gpu->setVisible(!wanted.empty());
    if (wanted == present) return;
    const QSignalBlocker block(m_stall_gpu);
    const int chosen = m_stall_gpu->count() > 0 ? m_stall_gpu->currentData().toInt() : -1; // first: all GPUs
    m_stall_gpu->clear();
    for (int device : wanted) m_stall_gpu->addItem(device < 0 ? tr("All GPUs") : tr("GPU %1").arg(device), device);
    m_stall_gpu->setCurrentIndex(std::max(m_stall_gpu->findData(chosen), 0));
}

void MetricsChartArea::show_stalls(const MetricsSample& s) {
    const std::optional<MetricsSample>& baseline = m_baseline;
    const int device = s.gpus.size() > 1 ? m_stall_gpu->currentData().toInt() : -1;
    const KernelMetrics& metrics = stall_metrics(s, device);
    std::vector<StallChart::Bar> bars;
    for (const StallReason& r : stall_reasons()) {
        if (r.reason == "selected") continue; // issuing, not stalling
        const std::string name = stall_metric_name(r.reason);
        const double v = counter_value(metrics, name);
        if (v < 0) continue;
        StallChart::Bar bar;
        bar.label = QString::fromUtf8(r.label.data(), int(r.label.size()));
        bar.explanation = QString::fromUtf8(r.explanation.data(), int(r.explanation.size()));
        bar.value = v;
        if (baseline) bar.baseline = std::max(counter_value(stall_metrics(*baseline, device), name), 0.0);
        bars.push_back(bar);
    }
    m_stall_bars = !bars.empty();
    m_stalls->show_bars(std::move(bars));
    m_stalls->set_subject(s.gpus.size() <= 1 ? QString() : device < 0 ? tr("all GPUs") : tr("GPU %1").arg(device));
    update_visibility();
}

bool MetricsChartArea::save_pngs(const QString& stem, const QString& caption, QStringList* written, QString* why) {
    if (!has_data()) {
        if (why) *why = tr("The charts are empty: no data because %1.").arg(m_no_data);
        return false;
    }
    // hidden charts have nothing to show (no local traffic, no stall counters): they are not written
    const std::pair<QWidget*, const char*> charts[]
        = { { m_dram, "-dram.png" }, { m_local, "-local.png" }, { m_stall_box, "-stalls.png" } };
    for (const auto& [chart, suffix] : charts) {
        if (chart->isHidden()) continue;
        const QString path = stem + QLatin1String(suffix);
        if (!save_widget_png(chart, path, why, caption)) return false;
        if (written) *written << path;
    }
    return true;
}

} // namespace ss::gui
