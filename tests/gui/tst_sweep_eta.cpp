// SPDX-License-Identifier: MIT
// Issue 38: the Experiments window's time left is measured. Synthetic timings: an even pace gives
// elapsed / done * left; a sweep whose later points are slower is not promised the early pace (the issue's
// "about 8 s left" at 6/15 and "about 7 s left" at 13/15, 35 s later); the estimate counts down between
// reports; a cache hit completing many units at once does not make the rest look free.
#include "widgets/sweep_eta.h"

#include <QTest>

#include <cmath>

using ss::gui::SweepEta;

class TestSweepEta : public QObject {
    Q_OBJECT
private slots:
    void nothing_done_is_no_estimate() {
        SweepEta eta;
        QVERIFY(std::isnan(eta.seconds_left(0.0)));
        eta.report(0, 15, 2.0);
        QVERIFY(std::isnan(eta.seconds_left(2.0)));
    }

    void an_even_pace_is_elapsed_over_done_times_left() {
        SweepEta eta;
        for (int done = 1; done <= 6; ++done) eta.report(done, 15, 2.0 * done);
        QCOMPARE(eta.seconds_left(12.0), 18.0); // 2 s per point, 9 left
    }

    // 6 points at 1 s, then 7 at 5 s: at 13/15 the 2 points left take about 10 s, not the whole run's
    // average (40 s / 13 x 2 = 6.2 s).
    void later_slower_points_set_the_pace() {
        SweepEta eta;
        double t = 0.0;
        for (int done = 1; done <= 6; ++done) eta.report(done, 15, t += 1.0);
        QCOMPARE(eta.seconds_left(t), 9.0);
        for (int done = 7; done <= 13; ++done) eta.report(done, 15, t += 5.0);
        QCOMPARE(eta.seconds_left(t), 10.0);
    }

    // Between reports the estimate goes down with the clock, but never below the units after the current one.
    void it_counts_down_between_reports() {
        SweepEta eta;
        for (int done = 1; done <= 4; ++done) eta.report(done, 10, 3.0 * done); // 3 s each, 6 left: 18 s
        QCOMPARE(eta.seconds_left(12.0), 18.0);
        QCOMPARE(eta.seconds_left(14.0), 16.0);
        QCOMPARE(eta.seconds_left(40.0), 15.0); // the current unit overran: the 5 after it still take 3 s each
    }

    // An autotune cache hit completes 20 candidates at once: the whole run's pace keeps the estimate honest.
    void a_jump_of_many_units_does_not_make_the_rest_free() {
        SweepEta eta;
        eta.report(1, 30, 4.0);
        eta.report(2, 30, 8.0);
        eta.report(22, 30, 8.1); // cache hit
        eta.report(23, 30, 12.1);
        const double left = eta.seconds_left(12.1);
        QVERIFY2(left >= 7 * (12.1 / 23) - 1e-9, qPrintable(QString::number(left)));
        QVERIFY(left > 7 * ((12.1 - 8.0) / 21)); // not the pace of the jump
    }

    void a_finished_sweep_has_nothing_left() {
        SweepEta eta;
        eta.report(3, 3, 9.0);
        QCOMPARE(eta.seconds_left(9.0), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestSweepEta)
#include "tst_sweep_eta.moc"
