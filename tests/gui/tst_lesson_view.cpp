// SPDX-License-Identifier: MIT
// Issue 38, lessons a class can read (on an offscreen 1280x720 screen): the lesson opens in a full-height
// column with room for its text, the recorded runs drawn as bars, the recorded window scaled to fit its
// dialog, and every recorded case with its value or its refusal's reason.
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/lesson_dock.h"
#include "widgets/lesson_runs_chart.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QTest>

using namespace ss;
using namespace ss::gui;

class TestLessonView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The occupancy cliff's refused blocks read as the recording's reason, not "(placeholder)".
    void every_recorded_case_has_its_value_or_its_reason() {
        const QString cliff = recorded_lesson_text(QStringLiteral("occupancy-cliff"));
        QVERIFY2(cliff.contains(QStringLiteral("fp64 16x8x4: refused: smem_padded needs every block dim >= R (8), "
                                               "got 16x8x4")),
            qPrintable(cliff));
        QVERIFY(!cliff.contains(QStringLiteral("placeholder")));
        QVERIFY(!cliff.contains(QStringLiteral("stencilscope-cli:")));
        for (const QString& path : lesson_paths()) {
            SetupState lesson;
            QString why;
            QVERIFY2(read_setup_file(path, RunSettings {}, lesson, &why), qPrintable(why));
            const QString text = recorded_lesson_text(lesson.lesson_id);
            if (lesson_recording(lesson.lesson_id).placeholder) { // a new lesson before its GPU recording says so
                QVERIFY2(text.startsWith(QStringLiteral("Recorded on H100: not yet")), qPrintable(text));
                continue;
            }
            QVERIFY2(!text.contains(QStringLiteral("(not recorded yet)")), qPrintable(lesson.lesson_id));
            for (const RecordedCase& c : recorded_cases(lesson.lesson_id))
                QVERIFY2(c.gcells_per_s > 0 || !c.refused.isEmpty(), qPrintable(lesson.lesson_id + c.label));
        }
    }

    // The recorded runs as bars, in the recording's order, refused cases named.
    void the_recorded_runs_are_a_bar_chart() {
        LessonRunsChart chart;
        chart.show_cases(recorded_cases(QStringLiteral("coarsening")), QStringLiteral("H100"));
        QCOMPARE(chart.bar_labels(),
            (QStringList { QStringLiteral("CF 1: 214.5"), QStringLiteral("CF 2: 299.9"), QStringLiteral("CF 4: 329.8"),
                QStringLiteral("CF 8: 332.8") }));
        QVERIFY(!chart.isHidden());
        chart.show_cases(recorded_cases(QStringLiteral("occupancy-cliff")), QStringLiteral("H100"));
        QVERIFY(chart.bar_labels().contains(QStringLiteral("fp64 16x8x4: refused")));
        chart.show_cases({ { QStringLiteral("x"), -1.0, {} } }, QStringLiteral("H100"));
        QVERIFY(chart.isHidden()); // nothing recorded: no empty chart
    }

    // At 1280x720 the lesson has a full-height column: its text gets more than a five-line strip and the
    // chart of its recorded runs is in view beside it.
    void the_lesson_has_room_at_1280x720() {
        MainWindow w(test::cpu_options());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString why;
        QVERIFY2(
            w.session().open_setup(setup_path_for(QStringLiteral("lesson:coarsening"), &why), &why), qPrintable(why));
        auto* dock = test::knob<QDockWidget>(w, "lesson_dock");
        QTRY_VERIFY(dock->isVisible());
        QCOMPARE(w.dockWidgetArea(dock), Qt::LeftDockWidgetArea);
        QTRY_VERIFY(dock->width() >= 300);
        auto* text = test::knob<QWidget>(w, "lesson_text");
        auto* scroll = qobject_cast<QScrollArea*>(text->parentWidget()->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QVERIFY2(scroll->viewport()->height() >= 15 * text->fontMetrics().lineSpacing(),
            qPrintable(QString::number(scroll->viewport()->height())));
        auto* chart = test::knob<LessonRunsChart>(w, "lesson_runs_chart");
        QVERIFY(chart->isVisible());
        const QRect at(chart->mapTo(&w, QPoint(0, 0)), chart->size());
        QVERIFY(w.rect().contains(at));
    }

    // A lesson with its recorded chart, on a GPU with a long name (the H100's "NVIDIA H100 80GB HBM3"): the
    // Controls dock still fits beside the lesson and the field at 1280x720, no knob cut by the window's edge (the
    // H100 picture of "Beating the roofline" showed the Edit button and the block boxes cut off).
    void every_knob_fits_beside_a_lesson_on_a_long_named_gpu() {
        WindowOptions o = test::cpu_options();
        o.devices = test::described_h100s(1);
        o.devices.devices.front().name = "NVIDIA H100 80GB HBM3 (a long name, described)";
        o.playing = false;
        MainWindow w(o);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString why;
        QVERIFY2(w.session().open_setup(setup_path_for(QStringLiteral("lesson:beating-the-roofline"), &why), &why),
            qPrintable(why));
        QTRY_VERIFY(test::knob<QDockWidget>(w, "lesson_dock")->isVisible());
        QTRY_VERIFY(test::knob<LessonRunsChart>(w, "lesson_runs_chart")->isVisible());
        QVERIFY2(w.width() <= 1280, qPrintable(QString::number(w.width())));
        auto* controls = test::knob<QScrollArea>(w, "controls_scroll");
        QVERIFY2(controls->horizontalScrollBar()->maximum() == 0 || !controls->horizontalScrollBar()->isVisible(),
            "the controls scroll sideways");
        // The kernel box as a temporal run on the GPU fills it (the engine cannot run the described GPU here).
        for (const char* name : { "res_kernel", "res_compile" })
            test::knob<QLabel>(w, name)->setText(QStringLiteral("ss_temporal_2d (temporal, depth 9 steps fused per "
                                                                "launch, compiled for its block 256x1x1)"));
        QTest::qWait(50);
        // Nothing in the Controls dock reaches past its viewport's right edge (the scroll area cuts it there).
        QWidget* viewport = controls->viewport();
        for (QWidget* knob : controls->widget()->findChildren<QWidget*>()) {
            if (!knob->isVisible()) continue;
            const QRect at(knob->mapTo(viewport, QPoint(0, 0)), knob->size());
            QVERIFY2(at.right() < viewport->width(),
                qPrintable(knob->objectName() + QLatin1Char(' ') + QString::fromLatin1(knob->metaObject()->className())
                    + QStringLiteral(" ends at x %1 of %2").arg(at.right()).arg(viewport->width())));
        }
    }

    // A recording made on the device can be shot before it is built in (STENCILSCOPE_LESSON_RECORDING).
    void a_recording_file_given_by_the_test_hook_is_shown() {
        QTemporaryFile file;
        QVERIFY(file.open());
        file.write(R"({"lessons": {"coarsening": [{"label": "CF 1", "gcells_per_s": 1.5}]},
                       "recordings": {"coarsening": {"device": "Test GPU", "date": "2026-01-02", "placeholder": false}}})");
        file.close();
        qputenv("STENCILSCOPE_LESSON_RECORDING", file.fileName().toUtf8());
        const std::vector<RecordedCase> cases = recorded_cases(QStringLiteral("coarsening"));
        const LessonRecording recording = lesson_recording(QStringLiteral("coarsening"));
        qunsetenv("STENCILSCOPE_LESSON_RECORDING");
        QCOMPARE(cases.size(), std::size_t(1));
        QCOMPARE(cases.front().gcells_per_s, 1.5);
        QCOMPARE(recording.device, QStringLiteral("Test GPU"));
        QCOMPARE(recorded_cases(QStringLiteral("coarsening")).size(), std::size_t(4)); // the built-in one again
    }

    // The recorded window fits its dialog whole, its aspect kept; the dialog fits the screen.
    void the_recorded_picture_is_scaled_to_fit() {
        QCOMPARE(scaled_picture_rect({ 1920, 1080 }, { 960, 720 }), QRect(0, 90, 960, 540));
        QCOMPARE(scaled_picture_rect({ 1280, 720 }, { 1280, 720 }), QRect(0, 0, 1280, 720));
        MainWindow w(test::cpu_options());
        w.show();
        QString why;
        QVERIFY2(w.session().open_setup(lesson_paths().constFirst(), &why), qPrintable(why));
        auto* button = test::knob<QPushButton>(w, "lesson_picture_button");
        QTRY_VERIFY(button->isVisible());
        button->click();
        auto* picture = test::knob<QWidget>(w, "lesson_picture");
        QWidget* dialog = picture->window();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY2(dialog->height() <= 720 - 40 && dialog->width() <= 1280,
            qPrintable(QStringLiteral("%1x%2").arg(dialog->width()).arg(dialog->height())));
        QVERIFY(!dialog->findChild<QScrollArea*>());
        QVERIFY(picture->width() < 1280); // smaller than the recorded 1280 px or more: scaled, not cut
    }
};

QTEST_MAIN(TestLessonView)
#include "tst_lesson_view.moc"
