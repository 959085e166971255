// SPDX-License-Identifier: MIT
#include "widgets/ebisu_model_chart.h"

#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/studies/ebisu_model.h"
#include "widgets/chart_view.h"
#include "widgets/export_util.h"
#include "widgets/plain_text.h"

#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

QChartView* make_view(QWidget* parent, const QString& tip) {
    QChartView* view = make_chart_view(parent, 220);
    view->setToolTip(tip);
    return view;
}

// Axes are kept for the chart's lifetime (Qt Charts 6.4 leaves ghost labels of removed axes behind).
std::pair<QValueAxis*, QValueAxis*> axes_of(QChart* chart) {
    auto* x = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
    if (!x) chart->addAxis(x = new QValueAxis, Qt::AlignBottom);
    if (!y) chart->addAxis(y = new QValueAxis, Qt::AlignLeft);
    return { x, y };
}

template <class Series>
Series* add(QChart* chart, const QString& name, const QColor& colour, Qt::PenStyle style, qreal width) {
    auto* s = new Series;
    s->setName(name);
    QPen pen(colour, width, style);
    s->setPen(pen);
    if constexpr (std::is_same_v<Series, QScatterSeries>) {
        s->setColor(colour);
        s->setMarkerSize(10);
    }
    chart->addSeries(s);
    return s;
}

QString rate_text(double bytes_or_flops_per_s, const char* unit) {
    return bytes_or_flops_per_s >= 1e12
        ? QStringLiteral("%1 T%2").arg(bytes_or_flops_per_s / 1e12, 0, 'f', 2).arg(QLatin1String(unit))
        : QStringLiteral("%1 G%2").arg(bytes_or_flops_per_s / 1e9, 0, 'f', 0).arg(QLatin1String(unit));
}

QString input_text(const char* name, const ModelInput& in, const char* unit) {
    if (!in.known()) return QObject::tr("%1 %2").arg(QLatin1String(name), QString::fromStdString(in.source));
    return QObject::tr("%1 = %2 (%3: %4)")
        .arg(QLatin1String(name), rate_text(in.value, unit),
            in.measured ? QObject::tr("measured") : QObject::tr("spec sheet"), QString::fromStdString(in.source));
}

} // namespace

EbisuModelChart::EbisuModelChart(QWidget* parent)
    : QWidget(parent)
    , m_rate(make_view(this,
          tr("EBISU's model (ICS '23, sec. 5): each resource alone allows V × t / T per tile cell; the least of them "
             "is PP. Dots: GCells/s measured by the depth sweep (GPU-timed).")))
    , m_bytes(make_view(this,
          tr("DRAM bytes per updated cell and step: the model's a_gm × S_cell / (t × V) against the profiled launch "
             "of each depth (hardware counters). The model reads and writes the whole tile; the kernel writes only "
             "the core, and neighbouring tiles' halo reads can hit the L2, so the measured bytes may fall below it.")))
    , m_note(new QLabel(this)) {
    setObjectName(QStringLiteral("ebisu_model_chart"));
    m_note->setObjectName(QStringLiteral("ebisu_model_note"));
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rate, 3);
    layout->addWidget(m_bytes, 2);
    layout->addWidget(m_note);
    show_model({}, nullptr, {}, tr("No device yet."));
}

void EbisuModelChart::show_model(const StencilConfig& config, const DeviceInfo* device,
    const std::vector<ExperimentPoint>& points, const QString& why_no_device) {
    QChart* rate = m_rate->chart();
    QChart* bytes = m_bytes->chart();
    rate->removeAllSeries();
    bytes->removeAllSeries();
    const auto [rx, ry] = axes_of(rate);
    const auto [bx, by] = axes_of(bytes);
    m_measured = 0;
    StencilConfig c = config;
    c.policy.variant = Variant::Temporal;
    QString what = QString::fromStdString(describe(c)); // the chart spans the depths: not the configuration's one
    what.remove(QRegularExpression(QStringLiteral(" depth \\d+")));
    rate->setTitle(tr("EBISU's model vs depth t: %1").arg(chart_text(what))); // Qt Charts draw titles as HTML
    bytes->setTitle(tr("DRAM bytes per cell and step"));
    rx->setTitleText(tr("depth t (steps per launch)"));
    bx->setTitleText(rx->titleText());
    ry->setTitleText(tr("GCells/s"));
    by->setTitleText(tr("bytes"));
    if (!device || c.problem.stencil != StencilKind::Star) {
        rx->setRange(1, 12);
        ry->setRange(0, 1);
        bx->setRange(1, 12);
        by->setRange(0, 1);
        m_note->setText(!device ? tr("No model: %1").arg(why_no_device)
                                : tr("No model: temporal blocking runs the star stencil only."));
        return;
    }
    // The measured points of this configuration (its radius, CF, precision and dims).
    double copy = 0.0;
    std::vector<const ExperimentPoint*> measured;
    for (const ExperimentPoint& p : points) {
        const StencilConfig& q = p.config;
        if (q.policy.variant != Variant::Temporal || q.problem.radius != c.problem.radius || q.policy.cf != c.policy.cf
            || q.problem.precision != c.problem.precision || q.problem.dims != c.problem.dims || !p.error.empty())
            continue;
        measured.push_back(&p);
        if (std::isfinite(p.copy_bytes_per_s) && p.copy_bytes_per_s > 0) copy = p.copy_bytes_per_s;
    }
    if (!measured.empty()) c.policy.block = measured.front()->config.policy.block, c.policy.heuristic_block = false;
    const BlockDims block = c.policy.heuristic_block ? temporal_block(c) : c.policy.block;
    const EbisuInputs in = ebisu_inputs(*device, c.problem.precision, copy);
    const EbisuCounts k = ebisu_counts(c);
    std::vector<int> depths = temporal_depths(c);
    for (const ExperimentPoint* p : measured)
        if (std::find(depths.begin(), depths.end(), p->config.policy.depth) == depths.end())
            depths.push_back(p->config.policy.depth);
    std::sort(depths.begin(), depths.end());
    const std::vector<EbisuPoint> curve = ebisu_curve(c, block, in, depths);

    // PP first: the dashed ceilings stay visible where one of them is PP.
    auto* pp = add<QLineSeries>(rate, tr("model PP"), QColor(0xaaaaaa), Qt::SolidLine, 5);
    auto* gm = add<QLineSeries>(rate, tr("global memory × V"), QColor(0x1f77b4), Qt::DashLine, 2);
    auto* sm = add<QLineSeries>(rate, tr("shared memory × V"), QColor(0x2ca02c), Qt::DashLine, 2);
    auto* cmp = add<QLineSeries>(rate, tr("compute × V"), QColor(0xd62728), Qt::DashLine, 2);
    auto* ideal = add<QLineSeries>(bytes, tr("model a_gm S / (t V)"), QColor(0x333333), Qt::SolidLine, 2);
    double top = 0.0, top_bytes = 0.0;
    for (const EbisuPoint& e : curve) {
        if (e.gm_gcells > 0) gm->append(e.depth, e.gm_gcells);
        if (e.sm_gcells > 0) sm->append(e.depth, e.sm_gcells);
        if (e.cmp_gcells > 0) cmp->append(e.depth, e.cmp_gcells);
        if (e.pp_gcells > 0) pp->append(e.depth, e.pp_gcells);
        if (e.dram_bytes_per_cell_step > 0) ideal->append(e.depth, e.dram_bytes_per_cell_step);
        top = std::max(top, e.pp_gcells);
        top_bytes = std::max(top_bytes, e.dram_bytes_per_cell_step);
    }
    auto* rate_dots = add<QScatterSeries>(rate, tr("measured (GPU-timed)"), QColor(0xff7f0e), Qt::SolidLine, 1);
    auto* byte_dots = add<QScatterSeries>(bytes, tr("measured (counters)"), QColor(0xff7f0e), Qt::SolidLine, 1);
    const ExperimentPoint* best = nullptr;
    for (const ExperimentPoint* p : measured) {
        rate_dots->append(p->config.policy.depth, p->gcells_per_s);
        top = std::max(top, p->gcells_per_s);
        if (!best || p->gcells_per_s > best->gcells_per_s) best = p;
        if (std::isfinite(p->dram_bytes_per_cell)) {
            byte_dots->append(p->config.policy.depth, p->dram_bytes_per_cell);
            top_bytes = std::max(top_bytes, std::min(p->dram_bytes_per_cell, 4.0 * k.a_gm * k.cell_bytes));
        }
    }
    m_measured = int(measured.size());
    // The depth from which DRAM no longer limits, as a vertical line.
    const double crossover = ebisu_crossover_depth(k, in);
    const double last = depths.empty() ? 12.0 : double(depths.back());
    if (crossover >= 1 && crossover <= last) {
        auto* mark = add<QLineSeries>(rate, tr("DRAM stops limiting"), QColor(0x7f7f7f), Qt::DotLine, 1.5);
        mark->append(crossover, 0);
        mark->append(crossover, top * 1.15);
    }
    rx->setRange(1, std::max(2.0, last));
    bx->setRange(1, std::max(2.0, last));
    // The ceilings far above the measured rates run off the top: the note gives their values.
    ry->setRange(0, top > 0 ? top * 1.15 : 1.0);
    by->setRange(0, top_bytes > 0 ? top_bytes * 1.1 : 1.0);
    for (QChart* chart : { rate, bytes })
        for (QAbstractSeries* s : chart->series()) {
            s->attachAxis(chart == rate ? rx : bx);
            s->attachAxis(chart == rate ? ry : by);
        }
    rx->setTickCount(int(std::min(12.0, last)));
    bx->setTickCount(rx->tickCount());
    rx->setLabelFormat(QStringLiteral("%.0f"));
    bx->setLabelFormat(QStringLiteral("%.0f"));
    ry->setLabelFormat(QStringLiteral("%.0f"));
    by->setLabelFormat(QStringLiteral("%.1f"));

    const TemporalTile tile = temporal_tile(c, block, 1);
    QString note
        = tr("EBISU's model (seed 002, sec. 5) on %1, tile %2 cells (block %3): PP = V × t / max(T_gm, "
             "T_sm, T_cmp) per tile cell. Inputs: %4; %5; %6. Per cell and step: a_gm %7, a_sm %8, "
             "a_cmp %9 FLOPs, S_cell %10 B.")
              .arg(QString::fromStdString(device->name),
                  c.problem.dims == 3 ? QStringLiteral("%1 × %2").arg(tile.x).arg(tile.y) : QString::number(tile.x),
                  QString::fromStdString(format_block(block)), input_text("B_gm", in.dram_bytes_per_s, "B/s"),
                  input_text("B_sm", in.smem_bytes_per_s, "B/s"), input_text("THR_cmp", in.flops_per_s, "FLOP/s"))
              .arg(k.a_gm)
              .arg(k.a_sm)
              .arg(k.a_cmp)
              .arg(k.cell_bytes);
    if (crossover > 0)
        note += QLatin1Char(' ') + tr("DRAM stops being the bottleneck from t ≈ %1 on.").arg(crossover, 0, 'f', 1);
    if (!best) {
        note += QLatin1Char(' ')
            + tr("No measured points for this configuration: run the temporal depth sweep (or open its CSV) to put "
                 "the GPU-timed rates on the model.");
    } else {
        const EbisuPoint e = ebisu_point(c, block, in, best->config.policy.depth);
        note += QLatin1Char(' ')
            + tr("Measured: best %1 GCells/s at t = %2, %3 × the model's PP there (%4 GCells/s, %5-bound). The model "
                 "counts bandwidths and FLOPs only; what it leaves out (instruction issue, latency, barriers at "
                 "the occupancy the registers allow) is the gap.")
                  .arg(best->gcells_per_s, 0, 'f', 1)
                  .arg(best->config.policy.depth)
                  .arg(e.pp_gcells > 0 ? best->gcells_per_s / e.pp_gcells : 0.0, 0, 'f', 2)
                  .arg(e.pp_gcells, 0, 'f', 0)
                  .arg(QString::fromStdString(e.bottleneck));
        if (byte_dots->count() == 0)
            note += QLatin1Char(' ') + tr("No DRAM bytes measured: run the sweep with hardware counters.");
    }
    m_note->setText(note);
}

QString EbisuModelChart::note() const {
    return m_note->text();
}

QStringList EbisuModelChart::series() const {
    QStringList out;
    for (QChartView* view : { m_rate, m_bytes })
        for (QAbstractSeries* s : view->chart()->series()) out << s->name();
    return out;
}

bool EbisuModelChart::save_png(const QString& path, QString* why, const QString& caption) {
    return save_widget_png(this, path, why, caption);
}

} // namespace ss::gui
