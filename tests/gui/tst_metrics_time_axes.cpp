// SPDX-License-Identifier: MIT
// Issue 38: on two GPUs the per-GPU charts' time axis read "..." instead of times. The main window at
// 1280x720, 1600x1000 and 1920x1080 gets two GPUs' replayed samples (the per-GPU charts and the stall
// chart) or two GPUs' continuous chunks, early in a run and 20 minutes in (four-digit times); every
// visible chart's horizontal axis must draw each of its tick labels whole. The labels are read back
// from the chart's scene, where Qt Charts puts the text it drew, elided or not. The per-GPU legends at a
// projector's size are drawn whole too ("GPU 1 1500/..." was cut): brief where narrow, the figures in the tooltip.
#include "metrics_test_samples.h"
#include "session/metrics_history.h"
#include "session/session.h"
#include "widgets/main_window.h"
#include "widgets/metric_charts.h"
#include "widgets/metrics_chart_area.h"
#include "window_test_support.h"

#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QStandardPaths>
#include <QTest>
#include <QValueAxis>

using namespace ss;
using namespace ss::gui;

namespace {

// Two GPUs' replayed sample at `seconds` with an H100's figures: the y axis up to its peak has four-digit
// labels (a narrower plot), and local-memory traffic shows that chart too.
MetricsSample two_gpu_sample(double seconds) {
    MetricsSample s = test::split_sample(seconds);
    for (GpuMetricsSample& g : s.gpus) {
        g.figures.dram_peak_gbs = 3352.0;
        g.figures.dram_read_gbs = 1500.0, g.figures.dram_write_gbs = 1400.0;
        g.figures.local_load_gbs = 5.0, g.figures.local_store_gbs = 3.0;
    }
    return s;
}

// GPU `device`'s continuous chunk: `n` back-to-back 1 ms samples from `t0` seconds, 2 TB/s read, 1 TB/s written.
ContinuousChunk continuous_chunk(int device, double t0, int n) {
    return test::continuous_samples(device, t0, n, { 2e9, 1e9, 60.0, 2e6, 1e6 });
}

// The labels Qt Charts draws for a value axis with fixed ticks: min + i (max - min) / (ticks - 1), printf-formatted.
QStringList expected_labels(const QValueAxis& axis) {
    QStringList labels;
    const int n = axis.tickCount();
    const QByteArray format = axis.labelFormat().toLatin1();
    for (int i = 0; i < n; ++i)
        labels << QString::asprintf(format.constData(), axis.min() + (i * (axis.max() - axis.min()) / (n - 1)));
    return labels;
}

// Every horizontal value axis of `view` draws each of its labels whole: the text items below the plot area
// (the axis' labels and title; the legend's entries are left out) hold each expected label exactly, none elided.
// Returns what is wrong, empty when nothing is.
QString horizontal_axis_problems(QChartView& view) {
    QChart* chart = view.chart();
    const QRectF plot = chart->mapRectToScene(chart->plotArea());
    const QRectF legend = chart->legend()->mapRectToScene(chart->legend()->rect());
    QStringList below_plot;
    for (QGraphicsItem* item : chart->scene()->items()) {
        auto* text = dynamic_cast<QGraphicsTextItem*>(item);
        const QRectF at = text ? text->sceneBoundingRect() : QRectF();
        if (text && text->isVisible() && at.top() >= plot.bottom() - 1.0 && !legend.intersects(at))
            below_plot << text->toPlainText();
    }
    QStringList problems;
    for (QAbstractAxis* abstract : chart->axes(Qt::Horizontal)) {
        auto* axis = qobject_cast<QValueAxis*>(abstract);
        if (!axis || !axis->isVisible()) continue;
        QStringList drawn = below_plot;
        for (const QString& label : expected_labels(*axis))
            if (!drawn.removeOne(label)) problems << QStringLiteral("'%1' not drawn whole").arg(label);
    }
    for (const QString& text : below_plot)
        if (text.endsWith(QLatin1String("...")) || text.endsWith(QChar(0x2026)))
            problems << QStringLiteral("elided: '%1'").arg(text);
    if (problems.isEmpty()) return {};
    return QStringLiteral("%1 (%2x%3 px, plot %4x%5 px): %6; drawn below the plot: %7")
        .arg(chart->title())
        .arg(view.width())
        .arg(view.height())
        .arg(plot.width())
        .arg(plot.height())
        .arg(problems.join(QStringLiteral(", ")), below_plot.join(QStringLiteral(" | ")));
}

// Checks every visible chart of `w`; `at_least` of them must be visible (the test would pass on none).
void check_visible_charts(MainWindow& w, int at_least) {
    int checked = 0;
    QStringList problems;
    for (QChartView* view : w.findChildren<QChartView*>()) {
        if (!view->isVisible()) continue;
        ++checked;
        const QString p = horizontal_axis_problems(*view);
        if (!p.isEmpty()) problems << p;
    }
    QVERIFY2(checked >= at_least, qPrintable(QStringLiteral("%1 charts visible").arg(checked)));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// The CPU backend, paused: the samples the test feeds are the only ones.
WindowOptions paused_cpu_options() {
    WindowOptions o = test::cpu_options();
    o.playing = false;
    return o;
}

// The window shown at `size`.
void open_window(MainWindow& w, QSize size) {
    w.resize(size);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.size(), size);
}

} // namespace

class TestMetricsTimeAxes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void replayed_two_gpu_charts_keep_numbers_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<double>("start");
        for (const QSize size : { QSize(1280, 720), QSize(1600, 1000), QSize(1920, 1080) })
            for (const double start : { 1.0, 1234.5 })
                QTest::addRow("%dx%d from %.0f s", size.width(), size.height(), start) << size << start;
    }

    // The per-GPU DRAM and local-memory charts and the stall chart, from replayed profiles.
    void replayed_two_gpu_charts_keep_numbers() {
        QFETCH(QSize, size);
        QFETCH(double, start);
        MainWindow w(paused_cpu_options());
        open_window(w, size);
        for (int i = 0; i < 8; ++i) w.session().add_sample(two_gpu_sample(start + 0.25 * i));
        QTest::qWait(100); // the charts lay out their axes on the next events
        check_visible_charts(w, 3);
    }

    void per_gpu_legends_are_whole_at_a_projector_size_data() {
        QTest::addColumn<QSize>("size");
        for (const QSize size : { QSize(1280, 720), QSize(1264, 672), QSize(1920, 1080) })
            QTest::addRow("%dx%d", size.width(), size.height()) << size;
    }

    // Each legend entry of the per-GPU charts is drawn whole; where it says only "GPU 1", the tooltip has the figures.
    void per_gpu_legends_are_whole_at_a_projector_size() {
        QFETCH(QSize, size);
        MainWindow w(paused_cpu_options());
        open_window(w, size);
        for (int i = 0; i < 8; ++i) w.session().add_sample(two_gpu_sample(1.0 + 0.25 * i));
        w.fit_docks(true); // as with counters: the charts' row
        QTest::qWait(100);
        auto* dram = w.findChild<TimeSeriesChart*>(QStringLiteral("chart_dram"));
        QVERIFY(dram && dram->isVisible());
        for (TimeSeriesChart* chart : w.findChildren<TimeSeriesChart*>()) {
            if (!chart->isVisible()) continue;
            QLegend* legend = chart->chart()->legend();
            const QRectF area = legend->mapRectToScene(legend->rect());
            QStringList entries;
            for (QGraphicsItem* item : chart->scene()->items())
                if (auto* text = dynamic_cast<QGraphicsTextItem*>(item);
                    text && text->isVisible() && area.contains(text->sceneBoundingRect().center()))
                    entries << text->toPlainText();
            const QString drawn = entries.join(QStringLiteral(" | "));
            QCOMPARE(entries.size(), 2); // one entry per GPU
            QVERIFY2(!drawn.contains(QLatin1String("...")) && !drawn.contains(QChar(0x2026)), qPrintable(drawn));
        }
        const QString figures = QStringLiteral("GPU 1 1500/1400");
        QVERIFY2((dram->legend_abbreviated() ? dram->hover_text() : dram->series_names().join(QLatin1Char(' ')))
                     .contains(figures),
            qPrintable(dram->hover_text()));
        if (size.width() >= 1920) QVERIFY(!dram->legend_abbreviated()); // room for the figures themselves
    }

    void continuous_two_gpu_charts_keep_numbers_data() { replayed_two_gpu_charts_keep_numbers_data(); }

    // The continuous DRAM and local-memory charts, GPU 0's and GPU 1's lines. The CPU backend has no counters, so
    // the chunks go through the history's binning into the window's chart area as its sources would pass them.
    void continuous_two_gpu_charts_keep_numbers() {
        QFETCH(QSize, size);
        QFETCH(double, start);
        MainWindow w(paused_cpu_options());
        open_window(w, size);
        MetricsHistory history;
        for (int device : { 0, 1 }) history.append_continuous(continuous_chunk(device, start, 400));
        auto* charts = w.findChild<MetricsChartArea*>();
        QVERIFY(charts);
        charts->set_continuous(true);
        charts->append_continuous(history.continuous_points_from(0));
        QTest::qWait(100); // the charts lay out their axes on the next events
        QVERIFY(charts->continuous() && charts->continuous_points() > 0);
        check_visible_charts(w, 2);
    }
};

QTEST_MAIN(TestMetricsTimeAxes)
#include "tst_metrics_time_axes.moc"
