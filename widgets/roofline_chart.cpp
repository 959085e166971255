// SPDX-License-Identifier: MIT
#include "widgets/roofline_chart.h"

#include "widgets/chart_view.h"
#include "widgets/export_util.h"

#include <QChartView>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ss::gui {
namespace {

constexpr double kGiga = 1e9; // the y axis is in GFLOP/s: its decade labels stay short

QString rate_text(double per_s, const char* unit) {
    const bool tera = per_s >= 1e12;
    return QStringLiteral("%1 %2%3").arg(
        QString::number(per_s / (tera ? 1e12 : 1e9), 'g', 3), QLatin1String(tera ? "T" : "G"), QLatin1String(unit));
}

QString ceiling_name(const char* what, const RooflineCeiling& c, const char* unit) {
    QString name = QStringLiteral("%1 %2").arg(QLatin1String(what), rate_text(c.value, unit));
    if (!c.measured) name += QObject::tr(" (catalogue)");
    return name;
}

QString ceiling_line(const char* what, const RooflineCeiling& c, const char* unit) {
    if (!c.known()) return QObject::tr("%1: %2").arg(QLatin1String(what), QString::fromStdString(c.source));
    return QObject::tr("%1 %2, %3 (%4)")
        .arg(
            QLatin1String(what), rate_text(c.value, unit), QLatin1String(c.origin()), QString::fromStdString(c.source));
}

double decade_below(double v) {
    return std::pow(10.0, std::floor(std::log10(v)));
}
double decade_above(double v) {
    return std::pow(10.0, std::ceil(std::log10(v)));
}

QLineSeries* line(QChart* chart, const QString& name, const QColor& colour, Qt::PenStyle style, qreal width) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->setPen(QPen(colour, width, style));
    chart->addSeries(s);
    return s;
}

QScatterSeries* marker(QChart* chart, const QString& name, const QColor& colour, bool hollow) {
    auto* s = new QScatterSeries;
    s->setName(name);
    s->setMarkerSize(12);
    s->setColor(hollow ? QColor(Qt::transparent) : colour);
    s->setBorderColor(colour);
    s->setPen(QPen(colour, 2));
    chart->addSeries(s);
    return s;
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : QWidget(parent)
    , m_view(make_chart_view(this, 260))
    , m_note(new QLabel(this)) {
    setObjectName(QStringLiteral("roofline_chart"));
    m_note->setObjectName(QStringLiteral("roofline_note"));
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QChart* chart = m_view->chart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setTitle(tr("Roofline"));
    // Axes are kept for the chart's lifetime (Qt Charts 6.4 leaves ghost labels of removed axes behind).
    auto* x = new QLogValueAxis;
    auto* y = new QLogValueAxis;
    x->setTitleText(tr("arithmetic intensity (FLOP per DRAM byte)"));
    y->setTitleText(tr("GFLOP/s"));
    for (QLogValueAxis* axis : { x, y }) {
        axis->setBase(10.0);
        axis->setMinorTickCount(8); // the 2..9 of each decade, unlabelled
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setRange(1.0, 10.0);
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    m_reason = new QGraphicsSimpleTextItem(chart);
    m_reason->setZValue(10);
    connect(chart, &QChart::plotAreaChanged, this, [this] { place_labels(); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_note);
    show_reason(tr("measuring ceilings…"));
}

void RooflineChart::clear() {
    QChart* chart = m_view->chart();
    chart->removeAllSeries();
    for (const Label& l : m_labels) delete l.item;
    m_labels.clear();
    m_point_summary.clear();
}

void RooflineChart::show_reason(const QString& why) {
    clear();
    m_reason->setText(why);
    m_reason->setVisible(true);
    m_note->setText(why);
    place_labels();
}

void RooflineChart::add_label(const QString& text, double x, double y) {
    auto* item = new QGraphicsSimpleTextItem(text, m_view->chart());
    item->setZValue(5);
    m_labels.push_back({ item, x, y });
}

void RooflineChart::place_labels() {
    QChart* chart = m_view->chart();
    const QRectF area = chart->plotArea();
    if (m_reason->isVisible()) m_reason->setPos(area.center() - QPointF(m_reason->boundingRect().width() / 2, 0));
    QAbstractSeries* anchor = chart->series().value(0);
    for (const Label& l : m_labels) {
        l.item->setVisible(anchor != nullptr);
        if (!anchor) continue;
        QPointF at = chart->mapToPosition(QPointF(l.x, l.y / kGiga), anchor);
        at -= QPointF(l.item->boundingRect().width(), l.item->boundingRect().height() + 2); // above, ending at x
        l.item->setPos(std::max(at.x(), area.left()), std::max(at.y(), area.top()));
    }
}

void RooflineChart::show_roofline(const RooflineCeilings& c, Precision precision, const RooflinePoint& p) {
    if (!c.ok()) return show_reason(QString::fromStdString(c.unavailable));
    const RooflineCeiling& roof = c.flops(precision);
    const Precision other_precision = precision == Precision::FP64 ? Precision::FP32 : Precision::FP64;
    const RooflineCeiling& other = c.flops(other_precision);
    const double dram = c.dram_bytes_per_s.value, l2 = c.l2_bytes_per_s.value;
    if (!c.dram_bytes_per_s.known() && !roof.known())
        return show_reason(tr("no ceilings: %1").arg(QString::fromStdString(c.dram_bytes_per_s.source)));
    clear();
    m_reason->setVisible(false);
    QChart* chart = m_view->chart();

    // The x range: every ridge and the point, with a decade's room either side.
    double lo = 1e30, hi = 0.0;
    for (double x : { ridge_point(roof.value, dram), ridge_point(other.value, dram), ridge_point(roof.value, l2),
             p.valid() ? p.intensity : 0.0, p.valid() ? p.single_step_intensity : 0.0 })
        if (x > 0.0) lo = std::min(lo, x), hi = std::max(hi, x);
    if (hi == 0.0) lo = hi = 1.0;
    const double x0 = decade_below(lo / 2), x1 = decade_above(hi * 2);
    const double top = std::max({ roof.value, other.value, p.flops_per_s, dram * x0 });
    double bottom = dram > 0.0 ? dram * x0 : top / 1e3;
    if (p.valid()) bottom = std::min(bottom, p.flops_per_s);
    const double y0 = decade_below(bottom / 1.2), y1 = decade_above(top * 1.2);

    const bool fp64 = precision == Precision::FP64;
    const char* roof_name = fp64 ? "fp64 FMA" : "fp32 FMA";
    const char* other_name = fp64 ? "fp32 FMA" : "fp64 FMA";
    // A diagonal ends where it meets the roof in force (or runs on to the right edge without one).
    const auto diagonal = [&](const char* name, const RooflineCeiling& bw, const QColor& colour) {
        if (!bw.known()) return;
        const double end = roof.known() ? std::min(x1, ridge_point(roof.value, bw.value)) : x1;
        const double start = std::max(x0, y0 / bw.value);
        if (end <= start) return;
        QLineSeries* s = line(chart, ceiling_name(name, bw, "B/s"), colour, Qt::SolidLine, 2.5);
        s->append(start, bw.value * start / kGiga);
        s->append(end, bw.value * end / kGiga);
        add_label(s->name(), std::sqrt(start * end), bw.value * std::sqrt(start * end));
    };
    const auto flat = [&](const char* name, const RooflineCeiling& peak, const QColor& colour, Qt::PenStyle style) {
        if (!peak.known()) return;
        const double start = dram > 0.0 ? std::max(x0, ridge_point(peak.value, dram)) : x0;
        QLineSeries* s = line(chart, ceiling_name(name, peak, "FLOP/s"), colour, style, 2.5);
        s->append(start, peak.value / kGiga);
        s->append(x1, peak.value / kGiga);
        add_label(s->name(), x1, peak.value);
    };
    diagonal("DRAM", c.dram_bytes_per_s, QColor(0x1f77b4));
    diagonal("L2", c.l2_bytes_per_s, QColor(0x2ca02c));
    flat(roof_name, roof, QColor(0xd62728), Qt::SolidLine);
    flat(other_name, other, QColor(0x9467bd), Qt::DashLine);

    QString note;
    if (p.valid()) {
        const RooflineBound bound = roofline_bound(c, precision, p.intensity);
        const double share = percent_of_roof(p.flops_per_s, bound.attainable_flops_per_s);
        // Short legend names (the legend runs along the bottom at 1280x720); the note carries the values.
        QScatterSeries* point = marker(chart, tr("kernel"), QColor(0xff7f0e), false);
        point->append(p.intensity, p.flops_per_s / kGiga);
        if (p.single_step_intensity > 0.0) {
            QScatterSeries* single = marker(chart, tr("single-step intensity"), QColor(0xff7f0e), true);
            single->append(p.single_step_intensity, p.flops_per_s / kGiga);
        }
        m_point_summary = tr("%1 FLOP/cell, %2 FLOP/B (%3), %4%5; single-step ideal %6 FLOP/B")
                              .arg(p.flops_per_cell)
                              .arg(p.intensity, 0, 'g', 3)
                              .arg(QString::fromStdString(p.traffic), rate_text(p.flops_per_s, "FLOP/s"),
                                  std::isnan(share) ? QString()
                                                    : tr(", %1 % of the %2 roof")
                                                          .arg(share, 0, 'f', 0)
                                                          .arg(QString::fromStdString(bound.ceiling)))
                              .arg(p.single_step_intensity, 0, 'g', 3);
        note = tr("The filled dot is the kernel at its DRAM intensity; the hollow one puts the same FLOP/s at the "
                  "single-step ideal intensity, where a dot above the DRAM line means the kernel does more work "
                  "than one trip through DRAM per step allows: temporal blocking keeps cells on chip across its "
                  "fused steps.")
            + QLatin1Char('\n') + tr("Kernel: %1.").arg(m_point_summary);
    } else {
        note = tr("No kernel point yet: it appears once the running kernel has been timed on the GPU.");
    }
    for (QAbstractSeries* s : chart->series())
        for (QAbstractAxis* axis : chart->axes()) s->attachAxis(axis);
    auto* x = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).value(0));
    auto* y = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
    // A hair past the decades: the axis labels its first and last decade only when they lie inside the range.
    x->setRange(x0 * 0.999, x1 * 1.001);
    y->setRange(y0 / kGiga * 0.999, y1 / kGiga * 1.001);
    note += QLatin1Char('\n')
        + tr("Ceilings on %1: %2; %3; %4; %5.")
              .arg(QString::fromStdString(c.device_name.empty() ? std::string("the GPU") : c.device_name),
                  ceiling_line("DRAM", c.dram_bytes_per_s, "B/s"), ceiling_line("L2", c.l2_bytes_per_s, "B/s"),
                  ceiling_line("fp32 FMA", c.fp32_flops_per_s, "FLOP/s"),
                  ceiling_line("fp64 FMA", c.fp64_flops_per_s, "FLOP/s"));
    m_note->setText(note);
    place_labels();
}

QString RooflineChart::reason() const {
    return m_reason->isVisible() ? m_reason->text() : QString();
}

QStringList RooflineChart::series() const {
    QStringList out;
    for (QAbstractSeries* s : m_view->chart()->series()) out << s->name();
    return out;
}

QStringList RooflineChart::ceiling_labels() const {
    QStringList out;
    for (const Label& l : m_labels) out << l.item->text();
    return out;
}

QString RooflineChart::note() const {
    return m_note->text();
}

QString RooflineChart::point_summary() const {
    return m_point_summary;
}

bool RooflineChart::save_png(const QString& path, QString* why, const QString& caption) {
    layout()->activate(); // the note's wrapped lines take their height before the grab
    return save_widget_png(this, path, why, caption);
}

} // namespace ss::gui
