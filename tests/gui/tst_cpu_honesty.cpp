// SPDX-License-Identifier: MIT
// Issue 38, honest on the CPU: the CPU backend runs one loop for every variant, CF and block, so the window
// says "CPU loop" where a GPU kernel's timing would be, its sweeps carry the caveat in charts, table and
// status, the block boxes agree with the heuristic line beside them, the CSV has empty block and register
// fields rather than zeros, and counter-only actions are off with the reason.
#include "reports/run_report.h"
#include "session/session.h"
#include "widgets/cpu_loop_caveat.h"
#include "widgets/experiment_charts.h"
#include "widgets/experiments_window.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

ExperimentPoint cpu_point(Variant v, int radius, double rate) {
    ExperimentPoint p;
    p.config.placement.backend = Backend::Cpu;
    p.config.policy.variant = v;
    p.config.problem.radius = radius;
    p.series = to_string(v);
    p.gcells_per_s = rate;
    p.improvement = 1.0;
    return p;
}

} // namespace

class TestCpuHonesty : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The bench and metrics CSV: a CPU loop has no block, registers or occupancy: empty fields, not zeros.
    void the_csv_leaves_gpu_only_fields_empty_on_the_cpu() {
        StencilConfig c;
        c.placement.backend = Backend::Cpu;
        KernelResources cpu; // what the CPU backend reports: block 0x0x0, 0 registers
        cpu.block = { 0, 0, 0 };
        const CsvRow header = config_csv_header(), values = config_csv_values(c, cpu);
        const auto column
            = [&](const char* name) { return std::find(header.begin(), header.end(), name) - header.begin(); };
        for (const char* name : { "block_x", "block_y", "block_z" }) QCOMPARE(values[column(name)], std::string());
        for (const std::string& field : resources_csv_values(cpu)) QCOMPARE(field, std::string());
        KernelResources gpu;
        gpu.block = { 32, 8, 1 };
        gpu.registers = 24;
        c.placement.backend = Backend::Cuda;
        QCOMPARE(config_csv_values(c, gpu)[column("block_y")], std::string("8"));
        QCOMPARE(resources_csv_values(gpu).front(), std::string("24"));
    }

    // The window on the CPU: the headline and the status bar say "CPU loop", the block boxes show the block
    // the heuristic line names, and the counter-only actions are disabled with the reason in their tooltip.
    void the_window_on_the_cpu_names_its_loop_and_no_fictitious_block() {
        MainWindow w(test::cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QTRY_COMPARE(test::knob<QLabel>(w, "metric_gcells_caption")->text(), QStringLiteral("GCells/s (CPU loop)"));
        QCOMPARE(test::knob<QLabel>(w, "metric_time_caption")->text(), QStringLiteral("time / step (CPU loop)"));
        QTRY_VERIFY_WITH_TIMEOUT(!test::knob<QLabel>(w, "status_gcells")->text().isEmpty(), 20000);
        const QString status = test::knob<QLabel>(w, "status_gcells")->text();
        QVERIFY2(status.endsWith(QStringLiteral("GCells/s (CPU loop)")), qPrintable(status));

        QVERIFY(test::knob<QCheckBox>(w, "heuristic")->isChecked());
        const QString line = test::knob<QLabel>(w, "heuristic_choice")->text();
        const QString boxes = QStringLiteral("%1x%2x%3")
                                  .arg(test::knob<QSpinBox>(w, "bx")->value())
                                  .arg(test::knob<QSpinBox>(w, "by")->value())
                                  .arg(test::knob<QSpinBox>(w, "bz")->value());
        QVERIFY2(
            line.contains(QStringLiteral("heuristic: ") + boxes), qPrintable(boxes + QStringLiteral(" / ") + line));

        for (const char* name : { "pin_baseline", "export_metric_charts" }) {
            auto* action = test::knob<QAction>(w, name);
            QVERIFY2(!action->isEnabled(), name);
            QVERIFY2(action->toolTip().contains(QStringLiteral("Needs hardware counters")), name);
            QVERIFY2(action->toolTip().contains(QStringLiteral("CPU")), qPrintable(action->toolTip()));
        }
    }

    // A sweep measured on the CPU: the charts' titles and note, the status line and the table say it is one
    // loop, and the table shows no block.
    void a_cpu_sweep_says_the_variants_are_one_loop() {
        const std::vector<ExperimentPoint> points { cpu_point(Variant::Base, 4, 1.0),
            cpu_point(Variant::Smem, 4, 1.2) };
        QVERIFY(ran_on_cpu_loop(points, "CPU (2 threads)"));
        std::vector<ExperimentPoint> from_csv = points; // a CSV read back keeps the device only
        for (ExperimentPoint& p : from_csv) p.config.placement.backend = Backend::Cuda;
        QVERIFY(ran_on_cpu_loop(from_csv, "CPU (16 threads)"));
        QVERIFY(!ran_on_cpu_loop(from_csv, "NVIDIA H100 80GB HBM3"));
        QVERIFY(!ran_on_cpu_loop({}, "CPU (2 threads)"));

        ExperimentCharts charts;
        charts.show_points(points, QStringLiteral("Radius sweep"), {}, ExperimentKind::Radius, true);
        QVERIFY2(charts.note().startsWith(cpu_loop_caveat()), qPrintable(charts.note()));
        charts.show_points(points, QStringLiteral("Radius sweep"), {}, ExperimentKind::Radius, false);
        QVERIFY(!charts.note().contains(cpu_loop_caveat()));

        // Through the window: a CSV whose device is the CPU.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cpu.csv"));
        QFile csv(path);
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("timestamp,device,experiment,series,stencil,rule,dims,size,radius,variant,cf,precision,block_x,"
                  "block_y,block_z,autotuned,ms_per_step,gcells_per_s,improvement,bottleneck_metric,bottleneck_gbs,"
                  "bottleneck_improvement,error\n"
                  "2026-11-22T23:06:22Z,CPU (2 threads),radius,base,star,thesis,2,256x256,4,base,1,fp32,32,32,1,0,"
                  "0.5,0.13,1,,,,\n"
                  "2026-11-22T23:06:22Z,CPU (2 threads),radius,smem,star,thesis,2,256x256,4,smem,1,fp32,32,32,1,0,"
                  "0.4,0.16,1.23,,,,\n");
        csv.close();
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow window(engine);
        QString why;
        QVERIFY2(window.open_results(path, &why), qPrintable(why));
        QVERIFY2(window.status_text().contains(cpu_loop_caveat()), qPrintable(window.status_text()));
        QVERIFY2(window.charts().note().contains(cpu_loop_caveat()), qPrintable(window.charts().note()));
        auto* table = window.findChild<QTableWidget*>();
        QVERIFY(table);
        for (int row = 0; row < table->rowCount(); ++row) QCOMPARE(table->item(row, 3)->text(), QStringLiteral("–"));
    }
};

QTEST_MAIN(TestCpuHonesty)
#include "tst_cpu_honesty.moc"
