// SPDX-License-Identifier: MIT
// The metrics panel's per-GPU table of a split run: each strip's timing from the engine's statistics, its
// GPU's counters from the latest profiled launch, and the halo line under it.
#include "widgets/metrics_panel.h"
#include "widgets/plain_text.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>

#include <algorithm>

namespace ss::gui {
namespace {

// The per-GPU table: timing from the engine's statistics, then the hardware counters of the GPU.
enum GpuColumn { kGpu, kRows, kCompute, kGcells, kExchange, kRemote, kNvlink, kDram, kLocal, kTopStall, kGpuColumns };

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

QString pair_text(double a, double b) {
    const int decimals = std::max(a, b) >= 10.0 ? 0 : 1;
    return QStringLiteral("%1 / %2").arg(a, 0, 'f', decimals).arg(b, 0, 'f', decimals);
}

} // namespace

void MetricsPanel::build_gpu_table() {
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
}

void MetricsPanel::show_strips() {
    const MultiGpuStats& m = m_strips;
    const bool split = m.strips.size() > 1;
    m_gpus->setVisible(split);
    m_halo->setVisible(split);
    place_strips();
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
        item->setToolTip(tooltip_text(tooltip)); // it quotes the device's name
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
                                 .arg(counters->figures.ideal_bytes_per_cell, 0, 'f', 2)
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

} // namespace ss::gui
