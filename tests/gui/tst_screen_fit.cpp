// SPDX-License-Identifier: MIT
// Issue 38, windows sized from the available screen. Run on an offscreen screen of 1280x720 (a projector,
// offscreen_1280x720.json): the main window and the Experiments window open within it, the figures, the
// status bar and the Export buttons in view; captions of small exports wrap; the user guide's pictures fit
// its width; the time axis keeps readable labels when narrow.
#include "metrics_test_samples.h"
#include "widgets/experiments_window.h"
#include "widgets/export_util.h"
#include "widgets/main_window.h"
#include "widgets/metric_charts.h"
#include "widgets/metrics_panel.h"
#include "widgets/screen_fit.h"
#include "window_test_support.h"

#include <QAction>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextFragment>
#include <QTextImageFormat>

using namespace ss;
using namespace ss::gui;

namespace {

// `child` is drawn whole inside `window` (not cut by its edge) and not hidden.
bool shown_whole(QWidget& window, QWidget& child) {
    const QRect at(child.mapTo(&window, QPoint(0, 0)), child.size());
    return child.isVisible() && window.rect().contains(at);
}

} // namespace

class TestScreenFit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(), QSize(1280, 720));
    }

    void sizes_fit_the_available_screen() {
        QCOMPARE(fit_to_available({ 1280, 800 }, { 1920, 1080 }), QSize(1280, 800));
        QCOMPARE(fit_to_available({ 1280, 800 }, { 1280, 720 }), QSize(1280, 720) - kWindowFrameAllowance);
        QCOMPARE(fit_to_available({ 1180, 760 }, { 1024, 600 }), QSize(1024, 600) - kWindowFrameAllowance);
        QCOMPARE(fit_to_available({ 1280, 800 }, {}), QSize(1280, 800)); // no screen known
    }

    // With counters, the Metrics dock shows the readouts and one chart (190 px) at 1280x720 without scrolling.
    void a_projector_gets_the_readouts_and_one_chart() {
        const QSize projector = fit_to_available({ 1280, 800 }, { 1280, 720 });
        const int bars = 82, controls = 340;
        QVERIFY(metrics_dock_height(projector, bars, controls, true) >= 110 + 190);
        QVERIFY(projector.height() - bars - metrics_dock_height(projector, bars, controls, true) >= 200);
        QCOMPARE(metrics_dock_height(projector, bars, controls, false), 110); // no charts: the readouts
        QVERIFY(metrics_dock_height({ 1920, 1040 }, bars, 440, true) >= 420);
    }

    // A run split over two GPUs at 1280x720: its per-GPU table is drawn whole and one chart is still in view
    // without scrolling (the H100 shot of the two-strip lesson had the charts below the fold, the table cut).
    void a_split_run_keeps_its_table_whole_and_a_chart_in_view() {
        WindowOptions o = test::cpu_options(128);
        o.playing = false;
        MainWindow w(o);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.fit_docks(true); // as a CUDA window with counters sizes them
        w.metrics().show_stats(test::strip_stats({ 0, 1 }));
        for (int i = 0; i < 4; ++i) w.session().add_sample(test::split_sample(1.0 + 0.25 * i));
        QTest::qWait(100);
        auto* metrics = test::knob<QScrollArea>(w, "metrics_scroll");
        const QRect view = metrics->viewport()->rect();
        const auto in_view = [&](QWidget* x) { return QRect(x->mapTo(metrics->viewport(), QPoint(0, 0)), x->size()); };
        auto* table = test::knob<QWidget>(w, "metric_gpus");
        QVERIFY(table->isVisible());
        QVERIFY2(in_view(table).right() <= view.right(),
            qPrintable(QStringLiteral("table ends at %1 of %2").arg(in_view(table).right()).arg(view.right())));
        auto* chart = test::knob<QWidget>(w, "chart_dram");
        QVERIFY(chart->isVisible());
        const QRect c = in_view(chart);
        QVERIFY2(c.top() >= 0 && c.top() + 150 <= view.bottom(),
            qPrintable(QStringLiteral("chart from y %1, view to %2").arg(c.top()).arg(view.bottom())));
    }

    // The window opens within 1280x720 with the status bar and the kernel's figures in view.
    void the_main_window_opens_within_a_projector_screen() {
        WindowOptions o = test::cpu_options(128);
        o.playing = false;
        MainWindow w(o);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(w.width() <= 1280 && w.height() <= 720 - 40,
            qPrintable(QStringLiteral("%1x%2").arg(w.width()).arg(w.height())));
        QVERIFY(shown_whole(w, *w.statusBar()));
        auto* metrics = test::knob<QScrollArea>(w, "metrics_scroll");
        for (const char* name : { "metric_time", "metric_gcells", "metric_gbs", "metric_time_caption" }) {
            QWidget* figure = test::knob<QWidget>(w, name);
            const QRect at(figure->mapTo(metrics->viewport(), QPoint(0, 0)), figure->size());
            QVERIFY2(metrics->viewport()->rect().contains(at), name);
        }
    }

    // The Experiments window (1180x760 by design) fits, its Run and Export buttons in view.
    void the_experiments_window_fits_with_its_export_buttons() {
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow w(engine);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY2(w.height() <= 720 - 40, qPrintable(QString::number(w.height())));
        for (QPushButton* b : w.findChildren<QPushButton*>()) QVERIFY2(shown_whole(w, *b), qPrintable(b->text()));
    }

    // A narrow picture (a small field) keeps its whole caption: it wraps onto more lines.
    void captions_wrap_instead_of_being_cut() {
        QImage small(120, 80, QImage::Format_ARGB32);
        small.fill(Qt::gray);
        const QString caption
            = QStringLiteral("temperature u · star thesis 2D 48x40 R1 base · CPU (2 threads) · iteration 7");
        const QImage one_line = with_caption(QImage(2400, 80, QImage::Format_ARGB32), caption);
        const QImage wrapped = with_caption(small, caption);
        QVERIFY2(wrapped.height() - 80 >= 2 * (one_line.height() - 80) - 8,
            qPrintable(QStringLiteral("%1 vs %2").arg(wrapped.height()).arg(one_line.height())));
    }

    // F1: text first, every picture at most as wide as the text, no horizontal scroll bar.
    void the_user_guide_fits_its_pictures_to_the_width() {
        MainWindow w(test::cpu_options());
        w.show();
        test::knob<QAction>(w, "user_guide")->trigger();
        auto* guide = test::knob<QTextBrowser>(w, "user_guide_text");
        QTRY_VERIFY(guide->isVisible());
        QVERIFY(guide->window()->height() <= 720 - 40);
        QVERIFY(!guide->horizontalScrollBar()->isVisible());
        const QTextBlock first = guide->document()->begin();
        QVERIFY2(first.text().startsWith(QStringLiteral("User guide")), qPrintable(first.text()));
        int pictures = 0;
        for (QTextBlock block = guide->document()->begin(); block.isValid(); block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextImageFormat image = it.fragment().charFormat().toImageFormat();
                if (!image.isValid()) continue;
                ++pictures;
                QVERIFY2(image.width() > 0 && image.width() <= guide->viewport()->width(), qPrintable(image.name()));
            }
        QVERIFY(pictures >= 3);
    }

    // The time axis: fewer ticks when narrow, so that the labels are numbers, not "…".
    void narrow_time_axes_get_fewer_ticks() {
        QVERIFY(time_axis_ticks(140) <= 3);
        QVERIFY(time_axis_ticks(700) >= 6);
        TimeSeriesChart chart(QStringLiteral("DRAM"), QStringLiteral("GB/s"), { QStringLiteral("GPU 0") });
        chart.resize(240, 200);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QCOMPARE(chart.time_ticks(), time_axis_ticks(240 - 80));
    }
};

QTEST_MAIN(TestScreenFit)
#include "tst_screen_fit.moc"
