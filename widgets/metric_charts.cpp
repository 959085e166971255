// SPDX-License-Identifier: MIT
#include "widgets/metric_charts.h"

#include "widgets/plain_text.h"

#include "gpu/profiler/metrics.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCursor>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QResizeEvent>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ss::gui {
namespace {

QChart* make_chart(const QString& title) {
    auto* chart = new QChart;
    chart->setTitle(chart_text(title)); // Qt Charts draw titles, legends and labels as HTML
    chart->setAnimationOptions(QChart::NoAnimation); // redrawn several times a second
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    QFont small = chart->legend()->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    chart->legend()->setFont(small);
    chart->setTitleFont(small);
    return chart;
}

} // namespace

QString metric_explanation(std::string_view metric) {
    for (const MetricInfo& m : kernel_metrics())
        if (m.name == metric)
            return QString::fromUtf8(m.explanation.data(), int(m.explanation.size())) + QStringLiteral("\n(")
                + QString::fromUtf8(m.name.data(), int(m.name.size())) + QLatin1Char(')');
    return {};
}

AxisScale nice_axis(double largest) {
    if (!(largest > 0.0) || !std::isfinite(largest)) return {};
    const double wanted = largest * 1.1 / 4.0; // about four intervals, a little headroom
    const double magnitude = std::pow(10.0, std::floor(std::log10(wanted)));
    double step = 10.0 * magnitude;
    for (double m : { 1.0, 2.0, 5.0 })
        if (m * magnitude >= wanted) {
            step = m * magnitude;
            break;
        }
    const int intervals = int(std::ceil(largest * 1.1 / step - 1e-9));
    return { intervals * step, intervals + 1, std::max(0, -int(std::floor(std::log10(step) + 1e-9))) };
}

int time_axis_ticks(double plot_width) {
    constexpr double kLabelRoom = 56.0; // "1234" in the axis font, with a gap
    return std::clamp(int(plot_width / kLabelRoom) + 1, 2, 7);
}

TimeSeriesChart::TimeSeriesChart(
    const QString& title, const QString& unit, const QStringList& series_names, QWidget* parent)
    : QChartView(make_chart(title), parent) {
    setRenderHint(QPainter::Antialiasing);
    // Below about 180 px the title, the legend and the time axis leave the axis' labels too little height and
    // Qt draws "..." for every time: two GPUs' continuous charts, without a stall chart beside them, got 170.
    setMinimumHeight(190);
    QChart* c = chart();
    m_x = new QValueAxis;
    m_x->setTitleText(tr("time (s)"));
    m_x->setLabelFormat(QStringLiteral("%.0f"));
    m_y = new QValueAxis;
    m_y->setTitleText(unit);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    std::vector<Line> lines;
    for (const QString& name : series_names) lines.push_back({ name });
    set_lines(lines);
}

void TimeSeriesChart::set_lines(const std::vector<Line>& lines) {
    // Qt's light-theme colours in its order, so that one GPU's lines look like the single-GPU chart's
    static const QColor palette[] = { QColor(0x20, 0x9f, 0xdf), QColor(0x99, 0xca, 0x53), QColor(0xf6, 0xa6, 0x25),
        QColor(0x6d, 0x5f, 0xd5), QColor(0xbf, 0x59, 0x3e) };
    QChart* c = chart();
    for (QLineSeries* s : m_series) {
        c->removeSeries(s);
        delete s;
    }
    m_series.clear();
    m_labels.clear();
    for (const Line& line : lines) {
        auto* s = new QLineSeries;
        s->setName(chart_text(line.name));
        c->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(m_y);
        if (line.group >= 0 || line.dashed) {
            QPen pen = s->pen();
            if (line.group >= 0) pen.setColor(palette[std::size_t(line.group) % std::size(palette)]);
            pen.setStyle(line.dashed ? Qt::DashLine : Qt::SolidLine);
            pen.setWidthF(2.0);
            s->setPen(pen);
        }
        if (line.dashed) // the legend has room for one entry per GPU
            for (QLegendMarker* marker : c->legend()->markers(s)) marker->setVisible(false);
        m_series.push_back(s);
    }
    clear();
}

QStringList TimeSeriesChart::series_names() const {
    QStringList names;
    for (const QLineSeries* s : m_series) names << s->name();
    return names;
}

void TimeSeriesChart::append(double t, const std::vector<double>& values) {
    for (std::size_t i = 0; i < m_series.size() && i < values.size(); ++i) {
        QLineSeries* s = m_series[i];
        s->append(t, values[i]);
        int old = 0;
        while (old < s->count() && s->at(old).x() < t - m_window_s) ++old;
        if (old > 1) s->removePoints(0, old - 1); // keep one point left of the window for the line
    }
    rescale(t);
}

void TimeSeriesChart::append_point(int series, double t, double value) {
    if (series < 0 || series >= int(m_series.size())) return;
    QLineSeries* s = m_series[std::size_t(series)];
    s->append(t, value);
    int old = 0;
    while (old < s->count() && s->at(old).x() < t - m_window_s) ++old;
    if (old > 1) s->removePoints(0, old - 1);
    rescale(t);
}

void TimeSeriesChart::set_series_label(int index, const QString& label, const QString& brief) {
    if (index < 0 || index >= int(m_series.size())) return;
    m_labels.resize(m_series.size());
    m_labels[std::size_t(index)] = { label, brief };
    fit_legend();
}

// Full labels where the legend has room for every visible entry (marker, gap, text) in one row, else the
// brief ones: Qt would elide each entry to "GPU 1 1500/..." instead.
void TimeSeriesChart::fit_legend() {
    const QFontMetrics metrics(chart()->legend()->font());
    int needed = 0;
    bool any_brief = false;
    for (std::size_t i = 0; i < m_series.size() && i < m_labels.size(); ++i) {
        const QList<QLegendMarker*> markers = chart()->legend()->markers(m_series[i]);
        if (markers.isEmpty() || !markers.first()->isVisible() || m_labels[i].first.isEmpty()) continue;
        needed += metrics.horizontalAdvance(m_labels[i].first) + metrics.height() + 24;
        any_brief = any_brief || !m_labels[i].second.isEmpty();
    }
    m_abbreviated = any_brief && needed > width() - 16;
    for (std::size_t i = 0; i < m_series.size() && i < m_labels.size(); ++i) {
        const auto& [label, brief] = m_labels[i];
        if (!label.isEmpty()) m_series[i]->setName(chart_text(m_abbreviated && !brief.isEmpty() ? brief : label));
    }
}

QString TimeSeriesChart::hover_text() const {
    if (!m_abbreviated) return toolTip();
    QStringList shown;
    for (std::size_t i = 0; i < m_series.size() && i < m_labels.size(); ++i) {
        const QList<QLegendMarker*> markers = chart()->legend()->markers(m_series[i]);
        if (!markers.isEmpty() && markers.first()->isVisible() && !m_labels[i].first.isEmpty())
            shown << m_labels[i].first;
    }
    return toolTip() + tr("\nNow: %1").arg(shown.join(QStringLiteral(" · ")));
}

bool TimeSeriesChart::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip && m_abbreviated) {
        QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(), hover_text(), this);
        return true;
    }
    return QChartView::viewportEvent(e);
}

void TimeSeriesChart::rescale(double t) {
    m_x->setRange(std::max(0.0, t - m_window_s), std::max(t, m_window_s));
    apply_axis(m_ceiling > 0.0 ? m_ceiling : largest());
}

void TimeSeriesChart::apply_axis(double top) {
    const AxisScale a = nice_axis(top);
    m_y->setRange(0.0, a.top);
    m_y->setTickCount(a.ticks);
    m_y->setLabelFormat(QStringLiteral("%.") + QString::number(a.decimals) + QLatin1Char('f'));
}

void TimeSeriesChart::resizeEvent(QResizeEvent* e) {
    QChartView::resizeEvent(e);
    // The plot area is laid out later: the view's width less the y axis and the margins stands for it.
    m_x->setTickCount(time_axis_ticks(width() - 80));
    fit_legend();
}

int TimeSeriesChart::time_ticks() const {
    return m_x->tickCount();
}

double TimeSeriesChart::largest() const {
    double top = 0.0;
    for (const QLineSeries* s : m_series)
        for (const QPointF& p : s->points()) top = std::max(top, p.y());
    return top;
}

QString TimeSeriesChart::axis_labels() const {
    QStringList labels;
    const int n = m_y->tickCount();
    for (int i = 0; i < n; ++i)
        labels << QString::asprintf(m_y->labelFormat().toLatin1().constData(), m_y->max() * i / std::max(n - 1, 1));
    return labels.join(QStringLiteral(", "));
}

void TimeSeriesChart::clear() {
    for (QLineSeries* s : m_series) s->clear();
    m_x->setRange(0.0, m_window_s);
    apply_axis(m_ceiling);
}

int TimeSeriesChart::points() const {
    return m_series.empty() ? 0 : int(m_series.front()->count());
}

StallChart::StallChart(QWidget* parent)
    : QChartView(make_chart(tr("Warp stall reasons (warps stalled per issued instruction)")), parent)
    , m_title(chart()->title()) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(260);
    m_series = new QHorizontalBarSeries;
    m_current = new QBarSet(tr("current kernel"));
    m_baseline = new QBarSet(tr("baseline"), this);
    m_series->append(m_current);
    chart()->addSeries(m_series);
    m_axis = new QBarCategoryAxis;
    QFont labels = m_axis->labelsFont();
    labels.setPointSizeF(labels.pointSizeF() * 0.75);
    m_axis->setLabelsFont(labels); // the reasons' names must fit next to the bars
    m_values = new QValueAxis;
    m_values->setLabelFormat(QStringLiteral("%.2f"));
    chart()->addAxis(m_axis, Qt::AlignLeft);
    chart()->addAxis(m_values, Qt::AlignBottom);
    m_series->attachAxis(m_axis);
    m_series->attachAxis(m_values);
    connect(m_series, &QHorizontalBarSeries::hovered, this, [this](bool on, int index, QBarSet*) {
        if (!on || index < 0 || index >= int(m_bars.size())) return QToolTip::hideText();
        const Bar& b = m_bars[std::size_t(index)];
        QString text = QStringLiteral("<b>%1</b>: %2<br>%3")
                           .arg(b.label.toHtmlEscaped())
                           .arg(b.value, 0, 'f', 3)
                           .arg(b.explanation.toHtmlEscaped());
        if (b.baseline >= 0.0) text += tr("<br>baseline: %1").arg(b.baseline, 0, 'f', 3);
        QToolTip::showText(QCursor::pos(), text, this);
    });
}

void StallChart::show_bars(std::vector<Bar> bars, int top) {
    std::sort(bars.begin(), bars.end(),
        [](const Bar& a, const Bar& b) { return std::max(a.value, a.baseline) > std::max(b.value, b.baseline); });
    if (int(bars.size()) > top) bars.resize(std::size_t(top));
    std::reverse(bars.begin(), bars.end()); // a horizontal bar chart draws its first category at the bottom
    const bool with_baseline = std::any_of(bars.begin(), bars.end(), [](const Bar& b) { return b.baseline >= 0.0; });
    m_current->remove(0, m_current->count());
    m_baseline->remove(0, m_baseline->count());
    QStringList labels;
    double largest = 0.0;
    for (const Bar& b : bars) {
        labels << chart_text(b.label);
        m_current->append(b.value);
        m_baseline->append(std::max(b.baseline, 0.0));
        largest = std::max({ largest, b.value, b.baseline });
    }
    const bool has_baseline_set = m_series->barSets().contains(m_baseline);
    if (with_baseline && !has_baseline_set) {
        m_series->append(m_baseline);
    } else if (!with_baseline && has_baseline_set) {
        m_series->take(m_baseline);
        m_baseline->setParent(this); // take() hands ownership back
    }
    m_axis->clear();
    m_axis->append(labels);
    chart()->legend()->setVisible(with_baseline); // one bar set needs no legend
    m_values->setRange(0.0, largest > 0.0 ? largest * 1.1 : 1.0);
    m_bars = std::move(bars);
}

void StallChart::set_subject(const QString& subject) {
    chart()->setTitle(subject.isEmpty() ? m_title : m_title + QStringLiteral(" — ") + chart_text(subject));
}

void StallChart::clear() {
    show_bars({});
}

QStringList StallChart::categories() const {
    return m_axis->categories();
}

} // namespace ss::gui
