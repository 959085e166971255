// SPDX-License-Identifier: MIT
// EBISU's model chart (offscreen, no GPU): the ceilings, the model's PP and a depth sweep's measured points are
// drawn, every input says whether it was measured or comes from the spec sheet, a chart without a device or
// without points says why, and the temporal lesson's button opens it in the Experiments window.
#include "gpu/plan/launch_policy.h"
#include "gpu/studies/ebisu_model.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/ebisu_model_chart.h"
#include "widgets/experiments_window.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

namespace {

DeviceInfo h100() {
    DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.cc_major = 9, d.sm_count = 132;
    d.sm_clock_khz = 1980000, d.memory_clock_khz = 2619000, d.memory_bus_bits = 5120;
    return d;
}

StencilConfig temporal2d(int depth) {
    StencilConfig c;
    c.problem.size = { 8352, 8352, 1 };
    c.policy.variant = Variant::Temporal, c.policy.depth = depth;
    c.policy.block = { 256, 1, 1 };
    return c;
}

// A depth sweep as the engine returns it: base, then depths 1..6 (GCells/s and bytes as measured on the H100).
std::vector<ExperimentPoint> depth_sweep(bool counters, double copy) {
    std::vector<ExperimentPoint> points;
    ExperimentPoint base;
    base.config = temporal2d(1);
    base.config.policy.variant = Variant::Base;
    base.series = "base";
    base.gcells_per_s = 213.4;
    points.push_back(base);
    const double rate[] = { 268.2, 509.3, 617.9, 831.7, 871.4, 919.9 };
    for (int t = 1; t <= 6; ++t) {
        ExperimentPoint p;
        p.config = temporal2d(t);
        p.series = "temporal";
        p.gcells_per_s = rate[t - 1];
        p.dram_bytes_per_cell = counters ? 8.2 / t : NAN;
        p.copy_bytes_per_s = copy;
        points.push_back(p);
    }
    return points;
}

} // namespace

class TestEbisuModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void the_model_and_the_measured_points_are_drawn() {
        EbisuModelChart chart;
        const DeviceInfo d = h100();
        chart.show_model(temporal2d(6), &d, depth_sweep(true, 2968e9));
        const QStringList series = chart.series();
        for (const char* name : { "global memory × V", "shared memory × V", "compute × V", "model PP",
                 "measured (GPU-timed)", "model a_gm S / (t V)", "measured (counters)", "DRAM stops limiting" })
            QVERIFY2(series.contains(QString::fromUtf8(name)), name);
        QCOMPARE(chart.measured_points(), 6); // base is not a temporal point
        const QString note = chart.note();
        QVERIFY2(note.contains(QStringLiteral("B_gm = 2.97 TB/s (measured")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("B_sm = 33.45 TB/s (spec sheet")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("THR_cmp = 66.91 TFLOP/s (spec sheet")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("best 919.9 GCells/s at t = 6")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("DRAM stops being the bottleneck from t ≈ 7.5")), qPrintable(note));
        QVERIFY(!note.contains(QStringLiteral("No DRAM bytes")));
        QTemporaryDir dir;
        QString why;
        QVERIFY2(chart.save_png(dir.filePath(QStringLiteral("model.png")), &why), qPrintable(why));
    }

    void without_a_measured_copy_the_spec_is_named() {
        EbisuModelChart chart;
        const DeviceInfo d = h100();
        chart.show_model(temporal2d(6), &d, depth_sweep(false, NAN));
        const QString note = chart.note();
        QVERIFY2(note.contains(QStringLiteral("B_gm = 3.35 TB/s (spec sheet: 2 x 2619 MHz")), qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("No DRAM bytes measured")), qPrintable(note));
    }

    void a_chart_without_data_says_why() {
        EbisuModelChart chart;
        chart.show_model(temporal2d(6), nullptr, depth_sweep(true, 2968e9), QStringLiteral("no CUDA device here."));
        QCOMPARE(chart.note(), QStringLiteral("No model: no CUDA device here."));
        QVERIFY(chart.series().isEmpty());
        QCOMPARE(chart.measured_points(), 0);
        const DeviceInfo d = h100();
        chart.show_model(temporal2d(6), &d, {});
        QVERIFY2(chart.note().contains(QStringLiteral("No measured points")), qPrintable(chart.note()));
        QVERIFY(chart.series().contains(QStringLiteral("model PP")));
        StencilConfig other = temporal2d(6); // points of another radius are not this configuration's
        other.problem.radius = 2;
        chart.show_model(other, &d, depth_sweep(true, 2968e9));
        QCOMPARE(chart.measured_points(), 0);
    }

    // The temporal lesson has a button to the model; other lessons do not.
    void the_temporal_lesson_opens_the_model() {
        MainWindow w(cpu_options());
        w.show();
        QString why;
        QString temporal, other;
        for (const QString& path : lesson_paths())
            (path.contains(QStringLiteral("beating-the-roofline")) ? temporal : other) = path;
        QVERIFY(!temporal.isEmpty());
        QVERIFY2(w.session().open_setup(other, &why), qPrintable(why));
        auto* button = knob<QPushButton>(w, "lesson_model_button");
        QVERIFY(button->isHidden());
        QVERIFY2(w.session().open_setup(temporal, &why), qPrintable(why));
        QTRY_VERIFY(!button->isHidden());
        button->click();
        ExperimentsWindow& e = w.experiments_window();
        QTRY_VERIFY(e.isVisible());
        auto* tabs = e.findChild<QTabWidget*>();
        QVERIFY(tabs);
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(&e.model_chart()));
        QCOMPARE(e.spec().kind, ExperimentKind::Depth);
        // No GPU here: the chart says so instead of drawing a model for no device.
        QVERIFY2(e.model_chart().note().startsWith(QStringLiteral("No model:")), qPrintable(e.model_chart().note()));
    }
};

QTEST_MAIN(TestEbisuModel)
#include "tst_ebisu_model.moc"
