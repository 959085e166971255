// SPDX-License-Identifier: MIT
// Autotune heatmap, Experiments window and their exports without a GPU: the heatmap lays out the thesis'
// space one panel per Bz and finds the best cell; the charts follow the points; sweep CSVs round-trip
// through Open results; broken files and unwritable paths are refused with a reason; a sweep on the CPU
// backend runs through the engine thread and resumes the live run.
#include "gpu/plan/launch_policy.h"
#include "reports/experiment_report.h"
#include "session/session.h"
#include "widgets/autotune_dialog.h"
#include "widgets/autotune_heatmap.h"
#include "widgets/experiment_charts.h"
#include "widgets/experiments_window.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using namespace ss;
using namespace ss::gui;

namespace {

StencilConfig star3d(int radius, Variant v) {
    StencilConfig c;
    c.problem.dims = 3;
    c.problem.size = { 64, 64, 64 };
    c.problem.radius = radius;
    c.policy.variant = v;
    return c;
}

ExperimentPoint point(const char* series, Variant v, int radius, double gcells, double improvement,
    double bottleneck = NAN, const char* error = "") {
    ExperimentPoint p;
    p.config.policy.variant = v;
    p.config.problem.radius = radius;
    p.config.problem.size = { 4096, 4096, 1 };
    p.config.policy.block = { 32, 8, 1 };
    p.series = series;
    p.gcells_per_s = gcells;
    p.ms_per_step = gcells > 0 ? 16.7 / gcells : 0.0;
    p.improvement = improvement;
    p.bottleneck_metric = "dram_write_gbs";
    p.bottleneck_improvement = bottleneck;
    p.bottleneck_gbs = std::isfinite(bottleneck) ? 1000.0 * bottleneck : NAN;
    p.error = error;
    return p;
}

std::vector<ExperimentPoint> radius_sweep(bool counters) {
    const double b = counters ? 1.0 : NAN, s = counters ? 1.2 : NAN;
    return { point("base", Variant::Base, 1, 200, 1.0, b), point("smem", Variant::Smem, 1, 180, 0.9, s),
        point("base", Variant::Base, 4, 150, 1.0, b), point("smem", Variant::Smem, 4, 165, 1.1, s),
        point("smem_padded", Variant::SmemPadded, 4, 0, NAN, NAN, "a block dim is below the radius") };
}

} // namespace

class TestExperiments : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void heatmap_has_a_panel_per_bz_and_finds_the_best() {
        const StencilConfig c = star3d(1, Variant::Base);
        const std::vector<BlockDims> space = autotune_space(c, nullptr);
        QVERIFY(space.size() > 10);
        AutotuneHeatmap map;
        map.resize(900, 400);
        map.set_space(space, BlockDims { 32, 4, 2 });
        QCOMPARE(map.candidates(), int(space.size()));
        QVERIFY(!map.best());
        // Every candidate gets its own cell, and the cell maps back to the block.
        std::set<std::pair<int, int>> corners;
        for (const BlockDims& b : space) {
            const QRect r = map.cell_rect(b);
            QVERIFY2(!r.isEmpty(), format_block(b).c_str());
            QVERIFY(corners.insert({ r.left(), r.top() }).second);
            QCOMPARE(map.block_at(r.center()), std::optional<BlockDims>(b));
        }
        // Results fill in; a refused candidate never wins even with a larger number.
        std::vector<AutotuneResult> results;
        for (const BlockDims& b : space) results.push_back({ b, 1.0, 100.0 * b.x + 10.0 * b.y + b.z, {} });
        results[3].gcells_per_s = 1e6;
        results[3].error = "too much shared memory";
        map.set_results(results);
        QCOMPARE(map.measured(), int(space.size()));
        BlockDims expected {};
        double top = 0.0;
        for (std::size_t i = 0; i < results.size(); ++i)
            if (i != 3 && results[i].gcells_per_s > top) top = results[i].gcells_per_s, expected = results[i].block;
        QCOMPARE(map.best(), std::optional<BlockDims>(expected));
        QImage image(map.QWidget::size(), QImage::Format_ARGB32);
        map.render(&image); // paints without a GPU or a display
        QVERIFY(!image.isNull());
    }

    void autotune_dialog_explains_the_cpu_backend() {
        Session engine { DeviceCatalogue {} };
        AutotuneDialog dialog(engine);
        StencilConfig c;
        c.placement.backend = Backend::Cpu;
        dialog.set_config(c);
        auto* search = dialog.findChild<QPushButton*>();
        QVERIFY(search);
        for (QPushButton* b : dialog.findChildren<QPushButton*>())
            if (b->text().contains(QLatin1String("Search")) || b->text().contains(QLatin1String("Apply")))
                QVERIFY2(!b->isEnabled(), qPrintable(b->text()));
        QVERIFY(dialog.status_text().contains(QLatin1String("CUDA")));
        QString why;
        QVERIFY(!dialog.export_csv(QStringLiteral("x.csv"), &why));
        QVERIFY(!why.isEmpty());
    }

    // A temporal search times each block at several depths: the heatmap keeps each block's fastest, and
    // applying it runs the block at that depth.
    void applying_a_temporal_result_sets_block_and_depth() {
        AutotuneHeatmap map;
        const BlockDims b { 128, 1, 1 };
        map.set_space({ b }, std::nullopt);
        map.set_result(AutotuneResult { b, 1.0, 100.0, "", 2 });
        map.set_result(AutotuneResult { b, 0.5, 300.0, "", 9 });
        map.set_result(AutotuneResult { b, 0.0, 0.0, "refused", 12 }); // a refused depth does not replace it
        map.set_result(AutotuneResult { b, 0.7, 200.0, "", 6 });
        QCOMPARE(map.result(b)->depth, 9);
        QCOMPARE(map.best(), std::optional<BlockDims>(b));
        MainWindow w(test::cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        test::choose(w, "variant", int(Variant::Temporal));
        QTRY_COMPARE(test::engine_config(w).policy.variant, Variant::Temporal);
        w.apply_block(b, map.result(b)->depth);
        QTRY_COMPARE(test::engine_config(w).policy.depth, 9);
        QCOMPARE(test::engine_config(w).policy.block, b);
        QVERIFY(!test::engine_config(w).policy.heuristic_block);
        w.apply_block({ 256, 1, 1 }); // no depth given: the depth stays
        QTRY_COMPARE(test::engine_config(w).policy.block, (BlockDims { 256, 1, 1 }));
        QCOMPARE(test::engine_config(w).policy.depth, 9);
    }

    void charts_follow_the_points() {
        ExperimentCharts charts;
        charts.show_points(radius_sweep(false), QStringLiteral("radius"));
        QCOMPARE(charts.series(),
            (QStringList { QStringLiteral("base"), QStringLiteral("smem"), QStringLiteral("smem_padded") }));
        QCOMPARE(charts.radii(), (QStringList { QStringLiteral("R1"), QStringLiteral("R4") }));
        QVERIFY(!charts.bottleneck_shown());
        charts.show_points(radius_sweep(true), QStringLiteral("radius"));
        QVERIFY(charts.bottleneck_shown());
        // Counters read but no base traffic (nothing spills): GB/s are charted instead of ratios.
        std::vector<ExperimentPoint> no_spills = radius_sweep(false);
        for (ExperimentPoint& p : no_spills) p.bottleneck_gbs = 0.0;
        charts.show_points(no_spills, QStringLiteral("radius"));
        QVERIFY(charts.bottleneck_shown());
        charts.show_points(radius_sweep(true), QStringLiteral("radius"), QStringLiteral("smem"));
        QCOMPARE(charts.series(), (QStringList { QStringLiteral("smem") })); // not smem_padded
    }

    void sweep_csv_round_trips_through_the_window() {
        QTemporaryDir dir;
        const std::vector<ExperimentPoint> points = radius_sweep(true);
        const std::string path = dir.filePath(QStringLiteral("sweep.csv")).toStdString();
        QVERIFY(append_csv(path, experiment_csv_header(),
            experiment_csv_rows(ExperimentKind::Radius, points, "Test GPU, \"quoted\"", "2026-11-22T00:00:00Z")));
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow window(engine);
        QString why;
        QVERIFY2(window.open_results(QString::fromStdString(path), &why), qPrintable(why));
        QCOMPARE(window.points().size(), points.size());
        QCOMPARE(window.spec().kind, ExperimentKind::Radius); // the controls follow the opened sweep
        QCOMPARE(window.spec().base.problem.size, points.front().config.problem.size);
        for (std::size_t i = 0; i < points.size(); ++i) {
            QCOMPARE(window.points()[i].series, points[i].series);
            QCOMPARE(window.points()[i].config.problem.radius, points[i].config.problem.radius);
            QCOMPARE(window.points()[i].error, points[i].error);
            QCOMPARE(std::isfinite(window.points()[i].improvement), std::isfinite(points[i].improvement));
        }
        QVERIFY(window.status_text().contains(QLatin1String("quoted")));
        QVERIFY(window.charts().bottleneck_shown());
        const QString png = dir.filePath(QStringLiteral("sweep.png")), csv = dir.filePath(QStringLiteral("again.csv"));
        QVERIFY2(window.export_png(png, &why), qPrintable(why));
        const QImage chart(png);
        QVERIFY(chart.width() > 100);
        // the caption strip below the charts: what, where and on which device
        QVERIFY(chart.height() > window.charts().grab().toImage().height());
        for (const char* part : { "thesis fig. 5.1", "rule ", "4096x4096", "Test GPU", "5 points" })
            QVERIFY2(window.sweep_caption().contains(QLatin1String(part)), part);
        QVERIFY2(window.export_csv(csv, &why), qPrintable(why));
        ExperimentTable again;
        QVERIFY(read_experiment_csv(csv.toStdString(), &again));
        QCOMPARE(again.points.size(), points.size());
        QVERIFY(!window.export_csv(QStringLiteral("/nonexistent-dir/x.csv"), &why));
        QVERIFY(why.contains(QLatin1String("nonexistent-dir")));
    }

    // The job pauses the live run, reports progress, and the run resumes with its field and step count.
    void a_sweep_on_the_engine_thread_pauses_and_resumes_the_live_run() {
        Session engine { DeviceCatalogue {} };
        QSignalSpy ready(&engine, &Session::ready);
        QSignalSpy progress(&engine, &Session::job_progress);
        QSignalSpy finished(&engine, &Session::job_finished);
        RunSettings live;
        live.config.placement.backend = Backend::Cpu;
        live.config.problem.size = { 64, 48, 1 };
        QVERIFY(engine.request(live));
        engine.set_playing(true);
        QVERIFY(ready.wait(10000));
        QTest::qWait(200); // some steps run
        JobRequest job;
        job.kind = JobRequest::Kind::Experiment;
        job.experiment.base.placement.backend = Backend::Cpu;
        job.experiment.base.problem.size = { 96, 64, 1 };
        job.experiment.radii = { 1, 2 };
        job.experiment.variants = { Variant::Base, Variant::Smem };
        job.experiment.steps = 2;
        job.experiment.repeats = 1;
        const std::uint64_t id = engine.start_job(job);
        QVERIFY(id != 0);
        QVERIFY(engine.job_running());
        QCOMPARE(engine.start_job(job), std::uint64_t(0)); // one job at a time
        QVERIFY(finished.wait(30000));
        const auto outcome = finished.takeFirst().at(0).value<JobOutcome>();
        QCOMPARE(outcome.id, id);
        QVERIFY2(outcome.error.empty(), outcome.error.c_str());
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.points.size(), std::size_t(4));
        for (const ExperimentPoint& p : outcome.points) {
            QVERIFY2(p.error.empty(), p.error.c_str());
            QVERIFY(p.gcells_per_s > 0);
            if (p.config.policy.variant == Variant::Base) QCOMPARE(p.improvement, 1.0);
        }
        QVERIFY(progress.count() >= 4);
        QVERIFY(!engine.job_running());
        // The live run comes back on its own field.
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() >= 2, 10000);
        const auto resumed = ready.last().at(0).value<EngineReady>();
        QVERIFY(resumed.reused_field);
        QCOMPARE(resumed.settings.config.problem.size, live.config.problem.size);
    }

    // The window's sweep: the thesis' rule whatever the live view runs, points in chart and table as
    // they arrive (before the sweep ends), and the time left while it runs.
    void the_window_streams_its_own_rule_with_the_time_left() {
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow w(engine);
        StencilConfig live;
        live.problem.rule = UpdateRule::Wave;
        live.placement.backend = Backend::Cpu;
        w.set_base(live);
        QCOMPARE(w.spec().base.problem.rule, UpdateRule::Thesis);
        QCOMPARE(w.spec().base.placement.backend, Backend::Cpu);
        // a small sweep on the host
        for (QLineEdit* size : w.findChildren<QLineEdit*>()) size->setText(QStringLiteral("96x64"));
        for (QSpinBox* spin : w.findChildren<QSpinBox*>()) spin->setValue(1);
        std::vector<std::size_t> shown_while_running;
        bool time_left_shown = false;
        connect(&engine, &Session::job_progress, &w, [&](const JobProgress&) {
            if (!w.running()) return;
            shown_while_running.push_back(w.points().size());
            const QString status = w.findChild<QLabel*>(QStringLiteral("experiment_status"))->text();
            time_left_shown
                = time_left_shown || (std::isfinite(w.time_left()) && status.contains(QStringLiteral("left")));
        });
        QSignalSpy finished(&engine, &Session::job_finished);
        QVERIFY(w.start());
        QVERIFY(finished.wait(60000));
        QTRY_VERIFY(!w.running());
        QVERIFY(w.points().size() >= 4);
        for (const ExperimentPoint& p : w.points()) QCOMPARE(p.config.problem.rule, UpdateRule::Thesis);
        QVERIFY(!shown_while_running.empty());
        QCOMPARE(shown_while_running.front(), std::size_t(1)); // the first point shows with the first report
        QVERIFY(shown_while_running.back() > 1);
        QVERIFY(time_left_shown);
    }

    // The depth sweep on the CPU backend (CI): variants do not apply, the bars stand over the depths, base is the
    // reference named in the note, and without counters the bytes chart is hidden and says why.
    void the_depth_sweep_charts_over_the_depth() {
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow w(engine);
        StencilConfig live;
        live.placement.backend = Backend::Cpu;
        w.set_base(live);
        auto* experiment = w.findChildren<QComboBox*>().first();
        experiment->setCurrentIndex(experiment->findData(int(ExperimentKind::Depth)));
        QCOMPARE(w.spec().kind, ExperimentKind::Depth);
        for (QLineEdit* size : w.findChildren<QLineEdit*>()) size->setText(QStringLiteral("96x64"));
        for (QSpinBox* spin : w.findChildren<QSpinBox*>()) spin->setValue(1);
        for (QCheckBox* box : w.findChildren<QCheckBox*>()) {
            if (box->text() == QLatin1String("smem")) QVERIFY(!box->isEnabled()); // variants do not apply
            if (box->text() != QLatin1String("R1") && box->text() != QLatin1String("1")) box->setChecked(false);
        }
        QCOMPARE(w.spec().radii, (std::vector<int> { 1 }));
        QCOMPARE(w.spec().cfs, (std::vector<int> { 1 }));
        QVERIFY(!w.spec().counters);
        QSignalSpy finished(&engine, &Session::job_finished);
        QVERIFY(w.start());
        QVERIFY(finished.wait(60000));
        QTRY_VERIFY(!w.running());
        QCOMPARE(w.points().size(), std::size_t(13)); // base + depths 1..12
        QCOMPARE(w.charts().series(), (QStringList { QStringLiteral("temporal") }));
        QCOMPARE(w.charts().radii().size(), 12);
        QCOMPARE(w.charts().radii().front(), QStringLiteral("t1"));
        QCOMPARE(w.charts().radii().back(), QStringLiteral("t12"));
        QVERIFY(!w.charts().bottleneck_shown());
        QVERIFY2(
            w.charts().note().contains(QLatin1String("DRAM bytes per cell and step")), qPrintable(w.charts().note()));
        QVERIFY2(w.charts().note().contains(QLatin1String("base at R1")), qPrintable(w.charts().note()));
        // With counters (a recorded sweep): the bytes chart shows.
        std::vector<ExperimentPoint> recorded = w.points();
        for (ExperimentPoint& p : recorded) p.dram_bytes_per_cell = 8.0 / p.config.policy.depth;
        w.charts().show_points(recorded, QStringLiteral("depth"), {}, ExperimentKind::Depth);
        QVERIFY(w.charts().bottleneck_shown());
    }

    void cancelling_returns_what_was_measured() {
        Session engine { DeviceCatalogue {} };
        QSignalSpy finished(&engine, &Session::job_finished);
        JobRequest job;
        job.kind = JobRequest::Kind::Experiment;
        job.experiment.base.placement.backend = Backend::Cpu;
        job.experiment.base.problem.size = { 256, 256, 1 };
        job.experiment.kind = ExperimentKind::Coarsening;
        job.experiment.steps = 4;
        job.experiment.repeats = 2;
        connect(&engine, &Session::job_progress, &engine, [&engine](const JobProgress& p) {
            if (p.done >= 2) engine.cancel_job();
        });
        QVERIFY(engine.start_job(job) != 0);
        QVERIFY(finished.wait(60000));
        const auto outcome = finished.takeFirst().at(0).value<JobOutcome>();
        QVERIFY(outcome.cancelled);
        QVERIFY(!outcome.points.empty());
        QVERIFY(outcome.points.size() < experiment_plan(job.experiment).size());
    }

    void broken_sweep_files_are_refused_and_keep_the_shown_results() {
        QTemporaryDir dir;
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow window(engine);
        const std::string good = dir.filePath(QStringLiteral("good.csv")).toStdString();
        QVERIFY(append_csv(good, experiment_csv_header(),
            experiment_csv_rows(ExperimentKind::Radius, radius_sweep(false), "GPU", "t")));
        QString why;
        QVERIFY(window.open_results(QString::fromStdString(good), &why));
        const std::size_t shown = window.points().size();
        const std::pair<const char*, const char*> broken[] = {
            { "empty.csv", "" },
            { "other.csv", "a,b,c\n1,2,3\n" },
            { "short.csv", nullptr }, // the header, then a row with too few fields
            { "quote.csv", "\"unterminated\n" },
        };
        for (const auto& [name, content] : broken) {
            const QString path = dir.filePath(QLatin1String(name));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            if (content)
                f.write(content);
            else
                f.write(QByteArray::fromStdString(csv_line(experiment_csv_header())) + "x,y,radius\n");
            f.close();
            QVERIFY2(!window.open_results(path, &why), name);
            QVERIFY2(!why.isEmpty(), name);
            QCOMPARE(window.points().size(), shown);
        }
        QVERIFY(!window.open_results(dir.filePath(QStringLiteral("missing.csv")), &why));
    }
};

QTEST_MAIN(TestExperiments)
#include "tst_experiments.moc"
