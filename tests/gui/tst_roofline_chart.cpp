// SPDX-License-Identifier: MIT
// The roofline chart (offscreen, no GPU): without data it says why inside the chart; from plain ceilings and a point
// it draws the labelled ceilings (the precision in force solid, the other dashed), the kernel's point and the hollow
// single-step marker; it exports with a caption; and on the CPU backend View > Roofline is off and says why.
#include "gpu/profiler/roofline.h"
#include "widgets/main_window.h"
#include "widgets/roofline_chart.h"
#include "window_test_support.h"

#include <QAction>
#include <QChartView>
#include <QImage>
#include <QLineSeries>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

namespace {

RooflineCeilings h100_ceilings() {
    RooflineCeilings c;
    c.device_name = "NVIDIA H100 80GB HBM3";
    c.dram_bytes_per_s = { 3.35e12, true, "copy kernel" };
    c.l2_bytes_per_s = { 10.5e12, true, "L2 copy" };
    c.fp32_flops_per_s = { 60e12, true, "FMA kernel" };
    c.fp64_flops_per_s = { 30e12, false, "132 SMs x 64 FMA lanes x 2 x 1.98 GHz" };
    return c;
}

StencilConfig temporal2d(int depth) {
    StencilConfig c;
    c.problem.size = { 8192, 8192, 1 };
    c.policy.variant = Variant::Temporal, c.policy.depth = depth;
    return c;
}

QLineSeries* line_named(RooflineChart& chart, const QString& prefix) {
    for (QAbstractSeries* s : chart.findChild<QChartView*>()->chart()->series())
        if (s->name().startsWith(prefix)) return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

} // namespace

class TestRooflineChart : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void a_chart_without_data_says_why_in_the_chart() {
        RooflineChart chart;
        chart.resize(800, 500);
        chart.show();
        QCOMPARE(chart.reason(), QStringLiteral("measuring ceilings…"));
        RooflineCeilings none;
        none.unavailable = "no GPU: the CPU backend has no device ceilings";
        chart.show_roofline(none, Precision::FP32, {});
        QCOMPARE(chart.reason(), QStringLiteral("no GPU: the CPU backend has no device ceilings"));
        QVERIFY(chart.series().isEmpty());
        QVERIFY(chart.ceiling_labels().isEmpty());
    }

    void ceilings_and_the_point_are_drawn_from_plain_values() {
        RooflineChart chart;
        chart.resize(900, 560);
        chart.show();
        // A depth-4 temporal kernel at 800 GCells/s with 2.5 DRAM bytes per cell and step.
        const RooflinePoint p = roofline_point(temporal2d(4), 800e9, 2.5);
        chart.show_roofline(h100_ceilings(), Precision::FP32, p);
        QVERIFY(chart.reason().isEmpty());
        const QStringList names = chart.series();
        QVERIFY2(names.contains(QStringLiteral("DRAM 3.35 TB/s")), qPrintable(names.join(QLatin1Char('|'))));
        QVERIFY(names.contains(QStringLiteral("L2 10.5 TB/s")));
        QVERIFY(names.contains(QStringLiteral("fp32 FMA 60 TFLOP/s")));
        QVERIFY(names.contains(QStringLiteral("fp64 FMA 30 TFLOP/s (catalogue)")));
        QCOMPARE(chart.ceiling_labels().size(), 4);
        // The precision in force is solid, the other dashed.
        QCOMPARE(line_named(chart, QStringLiteral("fp32 FMA"))->pen().style(), Qt::SolidLine);
        QCOMPARE(line_named(chart, QStringLiteral("fp64 FMA"))->pen().style(), Qt::DashLine);
        QVERIFY(names.contains(QStringLiteral("kernel")));
        QVERIFY(names.contains(QStringLiteral("single-step intensity")));
        QVERIFY2(chart.note().contains(QStringLiteral("DRAM counters")), qPrintable(chart.note()));
        QVERIFY(chart.point_summary().contains(QStringLiteral("% of the DRAM roof")));
        // fp64: its roof solid now.
        chart.show_roofline(h100_ceilings(), Precision::FP64, p);
        QCOMPARE(line_named(chart, QStringLiteral("fp64 FMA"))->pen().style(), Qt::SolidLine);
        QCOMPARE(line_named(chart, QStringLiteral("fp32 FMA"))->pen().style(), Qt::DashLine);
    }

    void without_a_timed_kernel_the_ceilings_stand_alone() {
        RooflineChart chart;
        chart.show_roofline(h100_ceilings(), Precision::FP32, {});
        QCOMPARE(chart.series().size(), 4);
        QVERIFY(chart.point_summary().isEmpty());
        QVERIFY(chart.note().startsWith(QStringLiteral("No kernel point yet")));
    }

    void the_export_carries_a_caption() {
        RooflineChart chart;
        chart.resize(800, 500);
        chart.show();
        chart.show_roofline(h100_ceilings(), Precision::FP32, roofline_point(temporal2d(4), 800e9, 0.0));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("roofline.png"));
        QString why;
        QVERIFY2(chart.save_png(path, &why, QStringLiteral("Roofline · caption")), qPrintable(why));
        const QImage image(path);
        QVERIFY(image.height() > chart.height()); // the caption's strip below the chart
    }

    void the_cpu_backend_turns_the_view_off_and_says_why() {
        MainWindow w(cpu_options());
        w.show();
        auto* action = w.findChild<QAction*>(QStringLiteral("roofline_action"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled());
        QVERIFY2(action->toolTip().contains(QStringLiteral("CPU backend")), qPrintable(action->toolTip()));
        QCOMPARE(QString::fromStdString(w.session().roofline_ceilings().unavailable),
            QStringLiteral("no GPU: the CPU backend has no device ceilings"));
    }
};

QTEST_MAIN(TestRooflineChart)
#include "tst_roofline_chart.moc"
