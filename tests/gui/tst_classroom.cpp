// SPDX-License-Identifier: MIT
// The window in front of a class (CPU backend, offscreen): the first picture keeps moving, a projector's
// 1280x720 (and the 1264x672 window a 1280x720 screen opens) leaves the field half the window and shows
// every knob, the figures and a chart without scrolling (a lesson open too), the lessons are one click away
// and come back only with a lesson, a clicked wave pulse matches the waves, Help holds the guide and the shortcuts, and
// every teaching knob explains itself; the recorded figures read with fixed decimals.
#include "app/gui/gui_options.h"
#include "metrics_test_samples.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/field_image.h"
#include "widgets/help_menu.h"
#include "widgets/lesson_dock.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QChartView>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QToolBar>

#include <memory>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

namespace {

// Where `w` lies in `scroll`'s viewport, and whether it lies there whole (no scrolling needed to see it).
QRect in_viewport(const QScrollArea& scroll, const QWidget& w) {
    return { w.mapTo(scroll.viewport(), QPoint(0, 0)), w.size() };
}

// The projector tests' window: the CPU backend's, paused, at `size`, shown.
std::unique_ptr<MainWindow> projector_window(QSize size) {
    WindowOptions o = cpu_options(256);
    o.playing = false;
    auto w = std::make_unique<MainWindow>(o);
    w->resize(size);
    w->show();
    return w;
}

// At a projector's size, as a CUDA window with counters lays it out (two GPUs' profiled launches in the charts):
// every knob of the control panel, the headline figures and one whole chart of at least its minimum height are
// in view without scrolling. Returns what is not, empty when all are. The read-only Kernel resources box at the
// panel's foot holds no knob and may lie below the fold (at 1264x672 it does).
QString projector_problems(MainWindow& w) {
    for (int i = 0; i < 4; ++i) w.session().add_sample(split_sample(1.0 + 0.25 * i));
    w.fit_docks(true);
    QTest::qWait(100); // the docks and the charts lay out on the next events
    QStringList problems;
    const auto* controls = knob<QScrollArea>(w, "controls_scroll");
    int knobs = 0;
    for (QWidget* k : controls->widget()->findChildren<QWidget*>()) {
        const bool input = qobject_cast<QComboBox*>(k) || qobject_cast<QAbstractSpinBox*>(k)
            || qobject_cast<QCheckBox*>(k) || qobject_cast<QPushButton*>(k) || qobject_cast<QSlider*>(k);
        if (!input || !k->isVisible()) continue;
        ++knobs;
        const QRect at = in_viewport(*controls, *k);
        if (!controls->viewport()->rect().contains(at))
            problems << QStringLiteral("knob %1 at y %2..%3 of %4")
                            .arg(k->objectName())
                            .arg(at.top())
                            .arg(at.bottom())
                            .arg(controls->viewport()->height());
    }
    if (knobs < 30) problems << QStringLiteral("only %1 knobs visible").arg(knobs);
    const auto* metrics = knob<QScrollArea>(w, "metrics_scroll");
    for (const char* name : { "metric_time", "metric_gcells", "metric_gbs" })
        if (!metrics->viewport()->rect().contains(in_viewport(*metrics, *knob<QWidget>(w, name))))
            problems << QStringLiteral("figure %1 out of view").arg(QLatin1String(name));
    bool chart = false;
    QStringList charts;
    for (QChartView* view : metrics->widget()->findChildren<QChartView*>()) {
        if (!view->isVisible()) continue;
        const QRect at = in_viewport(*metrics, *view);
        charts << QStringLiteral("%1 at y %2..%3").arg(view->objectName()).arg(at.top()).arg(at.bottom());
        chart = chart
            || (view->height() >= view->minimumHeight() && view->minimumHeight() >= 190
                && metrics->viewport()->rect().contains(at));
    }
    if (!chart)
        problems << QStringLiteral("no whole chart in the metrics' %1 px (%2)")
                        .arg(metrics->viewport()->height())
                        .arg(charts.join(QStringLiteral(", ")));
    return problems.join(QStringLiteral("; "));
}

// The sizes a projector's window has: the whole 1280x720, and the 1264x672 a 1280x720 screen makes available (less
// the window's frame and the desktop's panel), where the window opens. Outside the test class: a slot would run.
void projector_sizes() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x720") << QSize(1280, 720);
    QTest::newRow("1264x672") << QSize(1264, 672);
}

} // namespace

class TestClassroom : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The first minute: the window's default (no --rule) keeps moving. A diffusing Gaussian under the
    // automatic range settles into one still picture within seconds; the wave's picture keeps changing.
    void the_first_picture_keeps_moving() {
        GuiOptions o;
        QVERIFY(parse_gui_options({}, o, false));
        QCOMPARE(o.window.settings.config.problem.rule, UpdateRule::Wave);
        o.window.restore_layout = false;
        o.window.renderer = FieldView::Renderer::Raster;
        MainWindow w(o.window);
        w.show();
        FieldView& view = w.field_view();
        const auto picture = [&view] {
            const FieldFrame& f = view.last_frame();
            return render_field(f.host->data(), f.width, f.height, view.colormap(), view.display_range());
        };
        QTRY_VERIFY_WITH_TIMEOUT(view.last_frame().iteration >= 600, 60000);
        for (int look = 0; look < 3; ++look) { // several looks, each a few hundred steps apart
            const long long at = view.last_frame().iteration;
            const QImage before = picture();
            QTRY_VERIFY_WITH_TIMEOUT(view.last_frame().iteration >= at + 150, 60000);
            const QImage after = picture();
            QCOMPARE(after.size(), before.size());
            int changed = 0;
            for (int y = 0; y < before.height(); ++y)
                for (int x = 0; x < before.width(); ++x)
                    changed += std::abs(qRed(before.pixel(x, y)) - qRed(after.pixel(x, y))) > 24;
            QVERIFY2(changed > before.width() * before.height() / 20,
                qPrintable(QStringLiteral("%1 pixels changed at iteration %2").arg(changed).arg(at)));
        }
    }

    // A projector's window: without counters the field keeps at least half the window; with them (the
    // charts' row) every knob, the figures and a chart are in view without scrolling.
    void a_projector_window_leaves_the_field_half_and_the_knobs_in_view_data() { projector_sizes(); }
    void a_projector_window_leaves_the_field_half_and_the_knobs_in_view() {
        QFETCH(QSize, size);
        const std::unique_ptr<MainWindow> window = projector_window(size);
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY(w.field_view().has_frame());
        const QRect field = w.field_view().geometry();
        QVERIFY2(field.width() * field.height() * 2 >= w.width() * w.height(),
            qPrintable(QStringLiteral("field %1x%2").arg(field.width()).arg(field.height())));
        const QString problems = projector_problems(w);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    // With a lesson open (its dock a column left of the field) the knobs, the figures and a chart stay in view.
    void a_projector_window_with_a_lesson_keeps_the_knobs_and_a_chart_in_view_data() { projector_sizes(); }
    void a_projector_window_with_a_lesson_keeps_the_knobs_and_a_chart_in_view() {
        QFETCH(QSize, size);
        const std::unique_ptr<MainWindow> window = projector_window(size);
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString why;
        QVERIFY2(w.session().open_setup(lesson_paths().constFirst(), &why), qPrintable(why));
        w.session().set_playing(false);
        QTRY_VERIFY(w.findChild<QDockWidget*>(QStringLiteral("lesson_dock"))->isVisible());
        // the lesson's kernel runs: its first charts start now, with the samples the check adds
        QTRY_COMPARE(engine_config(w).problem.size, w.session().requested().config.problem.size);
        QTest::qWait(200);
        const QString problems = projector_problems(w);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }

    // The way into the lessons is on the toolbar, not only in a menu.
    void start_here_opens_the_lessons() {
        MainWindow w(cpu_options());
        w.show();
        QAction* start = knob<QAction>(w, "start_here");
        QVERIFY(start->isVisible() && start->menu());
        // Every lesson, then a separator and "Write the kernel…" (issue 38).
        const QList<QAction*> actions = start->menu()->actions();
        QCOMPARE(actions.size(), qsizetype(lesson_paths().size()) + 2);
        QCOMPARE(actions.constLast()->objectName(), QStringLiteral("write_kernel_action"));
        auto* toolbar = knob<QToolBar>(w, "run_toolbar");
        QWidget* button = toolbar->widgetForAction(start);
        QVERIFY(button && button->isVisible());
        actions.at(lesson_paths().size() - 1)->trigger(); // the last lesson
        QTRY_VERIFY(!w.lesson_text().isEmpty());
        QVERIFY(w.lesson_text().contains(QStringLiteral("Recorded on")));
    }

    // A lesson that needs two GPUs opens on the CPU backend too, on the host's one strip, and says what it
    // needs and what is missing; on one CUDA GPU the dock says that GPU count 2 is not available here. Its
    // compared runs carry their placement (GPU count, halo mode, split axis, overlap) from the lesson file.
    void a_two_gpu_lesson_explains_what_this_window_lacks() {
        MainWindow w(cpu_options());
        w.show();
        QString why;
        const QString path = setup_path_for(QStringLiteral("lesson:remote-or-copies"), &why);
        QVERIFY2(!path.isEmpty(), qPrintable(why));
        QVERIFY2(w.session().open_setup(path, &why), qPrintable(why));
        const Placement& p = w.session().requested().config.placement;
        QCOMPARE(p.gpus, 1);
        QCOMPARE(p.halo, HaloMode::Auto);
        QVERIFY(!knob<QWidget>(w, "gpus")->isEnabled());
        QVERIFY(!knob<QWidget>(w, "halo")->isEnabled());
        const QString text = w.lesson_text();
        for (const char* expected : { "Needs two CUDA GPUs with peer access", "On the CPU backend: ", "Recorded on " })
            QVERIFY2(text.contains(QLatin1String(expected)), expected);
        QVERIFY(!text.contains(QStringLiteral("This window has"))); // the CPU's own text says it

        SetupState lesson;
        QVERIFY2(read_setup_file(path, RunSettings {}, lesson, &why), qPrintable(why));
        const Lesson l { lesson.title, lesson.explanation, lesson.lesson_id, lesson.needs, lesson.on_cpu };
        QVERIFY(lesson_dock_text(l, false, 1).contains(QStringLiteral("This window has 1 CUDA GPU, so GPU count 2")));
        QVERIFY(!lesson_dock_text(l, false, 2).contains(QStringLiteral("This window has")));
        QVERIFY(!lesson_dock_text(l, false, -1).contains(QStringLiteral("This window has")));

        std::vector<LessonRun> runs;
        RunSettings cuda;
        cuda.config.placement.backend = Backend::Cuda;
        QVERIFY2(read_lesson_runs(path, cuda, runs, &why), qPrintable(why));
        QCOMPARE(runs.size(), std::size_t(8));
        for (const LessonRun& run : runs) {
            const Placement& q = run.setup.settings.config.placement;
            QCOMPARE(q.gpus, 2);
            QCOMPARE(q.halo == HaloMode::Remote, run.label.startsWith(QStringLiteral("remote")));
            const bool x = run.label.contains(QStringLiteral("split x"));
            QCOMPARE(q.split, x ? SplitAxis::X : SplitAxis::Slowest);
            QCOMPARE(q.overlap, !x); // strips along x cannot overlap (check_strips)
        }
    }

    // A lesson ships its window as recorded on its device: the dock's button opens the picture.
    void a_lesson_shows_its_recorded_window() {
        MainWindow w(cpu_options());
        w.show();
        QString why;
        QVERIFY2(w.session().open_setup(lesson_paths().constFirst(), &why), qPrintable(why));
        auto* button = knob<QPushButton>(w, "lesson_picture_button");
        QTRY_VERIFY(button->isVisible());
        button->click();
        auto* picture = knob<QWidget>(w, "lesson_picture");
        QVERIFY(picture->isVisible());
        QVERIFY(!picture->window()->findChild<QScrollArea*>()); // scaled to fit its view, never scrolled
        // Every recorded lesson has one; a lesson not recorded yet is shot with its recording on the GPU
        // (bench/shoot_lessons.sh beside bench/record_lessons.sh), and its dock has no picture button till then.
        int recorded = 0;
        for (const QString& path : lesson_paths()) {
            SetupState lesson;
            QVERIFY2(read_setup_file(path, RunSettings {}, lesson, &why), qPrintable(why));
            if (lesson_recording(lesson.lesson_id).placeholder) continue;
            QVERIFY2(!recorded_lesson_picture(lesson.lesson_id).isEmpty(), qPrintable(lesson.lesson_id));
            ++recorded;
        }
        QVERIFY(recorded >= 9);
    }

    // The recorded figures read one way: fixed decimals with their units, never "1.106e+05 B shared".
    void recorded_figures_have_fixed_decimals_and_units() {
        const QString cliff = recorded_lesson_text(QStringLiteral("occupancy-cliff"));
        QVERIFY2(cliff.contains(QStringLiteral("110592 B shared")), qPrintable(cliff));
        QVERIFY2(cliff.contains(QStringLiteral("40.6 GCells/s, 0.341 ms/step, 60 registers")), qPrintable(cliff));
        const QString waits = recorded_lesson_text(QStringLiteral("remote-or-copies"));
        QVERIFY2(waits.contains(QStringLiteral("exchange 0.015 ms/step")), qPrintable(waits));
        for (const QString& path : lesson_paths()) {
            SetupState lesson;
            QString why;
            QVERIFY2(read_setup_file(path, RunSettings {}, lesson, &why), qPrintable(why));
            const QString text = recorded_lesson_text(lesson.lesson_id);
            QVERIFY2(!text.contains(QRegularExpression(QStringLiteral("[0-9]e[+-][0-9]"))), qPrintable(text));
        }
    }

    // A restored layout brings back the docks the user had, but not a Lesson dock without a lesson.
    void a_restart_does_not_bring_back_an_empty_lesson_dock() {
        WindowOptions o = cpu_options();
        o.restore_layout = true;
        {
            MainWindow w(o);
            w.show();
            QString why;
            QVERIFY2(w.session().open_setup(lesson_paths().constLast(), &why), qPrintable(why));
            QVERIFY(!w.lesson_text().isEmpty());
            w.close(); // saves the layout, Lesson dock shown
        }
        MainWindow again(o);
        again.show();
        QTRY_VERIFY(again.session().has_simulation());
        QVERIFY(again.findChild<QDockWidget*>(QStringLiteral("lesson_dock"))->isHidden());
        QVERIFY(again.lesson_text().isEmpty());
    }

    // A pulse clicked into a spread-out wave is as strong as the waves on screen, so the automatic range
    // still shows them (a fixed pulse of 1.0 was ~200x their amplitude).
    void a_wave_pulse_matches_the_waves_on_screen() {
        WindowOptions o = cpu_options(128);
        o.settings.config.problem.rule = UpdateRule::Wave;
        o.settings.config.problem.initial = InitialCondition::Gaussian;
        MainWindow w(o);
        w.resize(900, 700);
        w.show();
        FieldView& view = w.field_view();
        QCOMPARE(view.quantity(), QStringLiteral("displacement u")); // the colour bar says what it shows
        QTRY_VERIFY_WITH_TIMEOUT(view.last_frame().iteration > 40 && view.display_range().hi < 0.5, 30000);
        w.session().set_playing(false);
        QTest::qWait(100);
        const float shown = view.display_range().hi;
        const long long at = view.last_frame().iteration;
        const PointD p = view.transform().cell_to_pixel({ 20.5, 20.5 });
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(int(p.x), int(p.y)));
        const auto cell = [&view](int x, int y) {
            const FieldFrame& f = view.last_frame();
            return (*f.host)[std::size_t(y) * f.width + x];
        };
        QTRY_VERIFY(std::abs(cell(20, 20) - shown) < 1e-3f * shown + 1e-6f);
        QCOMPARE(view.last_frame().iteration, at);
        QVERIFY2(view.display_range().hi <= shown * 1.01f,
            qPrintable(QStringLiteral("range %1 after the pulse, %2 before").arg(view.display_range().hi).arg(shown)));
    }

    // Help: the user guide (the installed copy, else the source tree's), the shortcut list read from the
    // window's own actions, About.
    void help_has_the_guide_the_shortcuts_and_about() {
        MainWindow w(cpu_options());
        w.show();
        QVERIFY(!user_guide_path().isEmpty());
        knob<QAction>(w, "user_guide")->trigger();
        auto* guide = knob<QTextBrowser>(w, "user_guide_text");
        QTRY_VERIFY(guide->isVisible());
        QVERIFY(guide->toPlainText().contains(QStringLiteral("stencilscope-cli")));
        knob<QAction>(w, "keyboard_shortcuts")->trigger();
        auto* table = knob<QTableWidget>(w, "shortcut_table");
        QTRY_VERIFY(table->isVisible());
        QStringList rows;
        for (int i = 0; i < table->rowCount(); ++i)
            rows << table->item(i, 0)->text() + QLatin1Char('=') + table->item(i, 1)->text();
        for (const char* expected :
            { "Space=Play / pause", "Ctrl+R=Reset field", "Ctrl+E=Field image", "F1=User guide" })
            QVERIFY2(rows.contains(QLatin1String(expected)), qPrintable(rows.join(QStringLiteral(", "))));
        const QMenu* help = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->text() == QStringLiteral("&Help")) help = a->menu();
        QVERIFY(help);
        QStringList items;
        for (QAction* a : help->actions()) items << a->text();
        QVERIFY2(items.contains(QStringLiteral("&About StencilScope")), qPrintable(items.join(QStringLiteral(", "))));
    }

    // Every teaching knob explains itself, in words a class can follow (more than a label's worth).
    void every_teaching_knob_has_a_tooltip() {
        MainWindow w(cpu_options());
        for (const char* name : { "variant", "radius", "cf", "heuristic", "bx", "by", "bz", "precision", "rule", "gpus",
                 "depth", "halo" }) {
            const QString tip = knob<QWidget>(w, name)->toolTip();
            QVERIFY2(tip.size() >= 20 && tip.endsWith(QLatin1Char('.')), name);
        }
    }
};

QTEST_MAIN(TestClassroom)
#include "tst_classroom.moc"
