// SPDX-License-Identifier: MIT
// Issue 38, "Try it yourself": the lessons' predict exercises (read from the presets, judged on given results,
// the box's right and wrong messages, off on the CPU backend) and "write the kernel" (the dialog marks an error
// line, and compiles for real where NVRTC is present: it needs no GPU).
#include "session/exercise_jobs.h"
#include "session/lesson_exercises.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/kernel_exercise_dialog.h"
#include "widgets/lesson_exercise_box.h"

#include <QSignalSpy>
#include <QtTest>

using namespace ss;
using namespace ss::gui;

namespace {

QString text(const char* t) {
    return QString::fromLatin1(t);
}

QStringList labels(std::initializer_list<const char*> names) {
    QStringList out;
    for (const char* n : names) out << text(n);
    return out;
}

ComparedRun measured(const char* label, double gcells, int registers, double occupancy) {
    ComparedRun r;
    r.label = label;
    r.gcells_per_s = gcells;
    r.resources.registers = registers;
    r.resources.theoretical_occupancy = occupancy;
    return r;
}

std::vector<ComparedRun> coarsening_results() {
    return { measured("CF 1", 120.0, 16, 1.0), measured("CF 2", 150.0, 20, 1.0), measured("CF 4", 170.0, 26, 1.0),
        measured("CF 8", 160.0, 40, 1.0) };
}

} // namespace

class TestExercises : public QObject {
    Q_OBJECT
private slots:
    void the_lessons_carry_exercises_over_their_compared_runs() {
        RunSettings cuda;
        QStringList with_exercises;
        for (const QString& path : lesson_paths()) {
            std::vector<LessonExercise> exercises;
            QString why;
            QVERIFY2(read_lesson_exercises(path, exercises, &why), qPrintable(why));
            std::vector<LessonRun> runs;
            QVERIFY2(read_lesson_runs(path, cuda, runs, &why), qPrintable(why));
            for (const LessonExercise& e : exercises)
                QCOMPARE(exercise_requests(e, runs).size(), std::size_t(e.choices.size()));
            SetupState lesson;
            QVERIFY2(read_setup_file(path, cuda, lesson, &why), qPrintable(why));
            if (!exercises.empty()) with_exercises << lesson.lesson_id;
        }
        for (const char* id : { "coalescing", "coarsening", "occupancy-cliff" })
            QVERIFY2(with_exercises.contains(QLatin1String(id)), id);
    }

    void a_bad_exercise_is_refused_with_its_reason() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lesson.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"compare": [{"label": "a", "set": {}}, {"label": "b", "set": {}}],
                       "exercises": [{"question": "Which?", "choices": ["a", "c"], "answer-from": "fastest"}]})");
        file.close();
        std::vector<LessonExercise> exercises;
        QString why;
        QVERIFY(!read_lesson_exercises(path, exercises, &why));
        QVERIFY2(why.contains(QLatin1String("\"c\" is not one of the lesson's compared runs")), qPrintable(why));
    }

    void a_prediction_is_judged_by_the_measured_runs() {
        LessonExercise fastest { text("Which is fastest?"), labels({ "CF 1", "CF 2", "CF 4", "CF 8" }),
            text("fastest") };
        PredictionVerdict v = check_prediction(fastest, QStringLiteral("CF 4"), coarsening_results());
        QVERIFY(v.decided && v.right);
        QVERIFY2(v.text.startsWith(QLatin1String("Right: the fastest is CF 4.")), qPrintable(v.text));
        QVERIFY2(v.text.contains(QLatin1String("CF 8: 160.0 GCells/s, 40 registers")), qPrintable(v.text));
        v = check_prediction(fastest, QStringLiteral("CF 8"), coarsening_results());
        QVERIFY(v.decided && !v.right);
        QVERIFY2(v.text.startsWith(QLatin1String("Not this time: you chose CF 8; the fastest is CF 4.")),
            qPrintable(v.text));
        LessonExercise registers = fastest;
        registers.answer_from = QStringLiteral("most-registers");
        QVERIFY(check_prediction(registers, QStringLiteral("CF 8"), coarsening_results()).right);
        // Ties: each tied choice is right. A refused run is listed, not ranked.
        LessonExercise occupancy { text("Highest occupancy?"), labels({ "a", "b", "c" }), text("highest-occupancy") };
        std::vector<ComparedRun> runs { measured("a", 1, 32, 0.5), measured("b", 1, 32, 0.5), measured("c", 0, 0, 0) };
        runs[2].error = "refused: block too small";
        v = check_prediction(occupancy, QStringLiteral("b"), runs);
        QVERIFY(v.right);
        QCOMPARE(v.answers, labels({ "a", "b" }));
        QVERIFY(v.text.contains(QLatin1String("c: not measured: refused: block too small")));
        runs.resize(1);
        QVERIFY(!check_prediction(occupancy, QStringLiteral("a"), runs).decided);
    }

    void the_box_says_right_or_wrong_and_is_off_on_the_cpu() {
        Session engine { DeviceCatalogue {} };
        LessonExerciseBox box(engine);
        box.show_lesson(QStringLiteral("coarsening"));
        QCOMPARE(box.exercise_count(), 2);
        QVERIFY(box.unavailable_text().isEmpty()); // the window asks for CUDA
        QVERIFY(!box.run_enabled(0)); // nothing chosen yet
        box.choose(0, QStringLiteral("CF 1"));
        QVERIFY(box.run_enabled(0));
        box.show_results(0, coarsening_results());
        QVERIFY2(box.result_text(0).startsWith(QLatin1String("Not this time: you chose CF 1")),
            qPrintable(box.result_text(0)));
        box.choose(0, QStringLiteral("CF 4"));
        box.show_results(0, coarsening_results());
        QVERIFY2(box.result_text(0).startsWith(QLatin1String("Right: the fastest is CF 4.")),
            qPrintable(box.result_text(0)));
        // On the CPU backend one loop runs every CF: nothing to check, and the box says why.
        RunSettings cpu;
        cpu.config.placement.backend = Backend::Cpu;
        cpu.config.problem.size = { 64, 48, 1 };
        QVERIFY(engine.request(cpu));
        box.show_lesson(QStringLiteral("coarsening"));
        box.choose(0, QStringLiteral("CF 2"));
        QVERIFY(!box.run_enabled(0));
        QVERIFY(box.unavailable_text().contains(QLatin1String("one host loop")));
        QVERIFY(!box.run(0));
        QVERIFY(box.result_text(0).contains(QLatin1String("can only be checked on a CUDA GPU")));
    }

    // Through the engine thread: without a device every choice is refused, and the box says it cannot decide.
    void run_and_check_goes_through_the_engine_thread() {
        Session engine { DeviceCatalogue {} };
        QSignalSpy finished(&engine, &Session::job_finished);
        LessonExerciseBox box(engine);
        box.show_lesson(QStringLiteral("coalescing"));
        box.choose(0, QStringLiteral("base"));
        QVERIFY(box.run(0));
        QVERIFY(box.result_text(0).startsWith(QLatin1String("Measuring 2 configurations")));
        QVERIFY(finished.wait(30000));
        QVERIFY2(box.result_text(0).startsWith(QLatin1String("Not decided")), qPrintable(box.result_text(0)));
        QVERIFY(box.result_text(0).contains(QLatin1String("base: not measured")));
    }

    void the_kernel_dialog_marks_an_error_line() {
        Session engine { DeviceCatalogue {} };
        KernelExerciseDialog dialog(engine);
        QVERIFY(dialog.text().contains(QLatin1String("ss_exercise_2d")));
        QVERIFY(dialog.text().contains(QLatin1String(kExerciseBodyBegin)));
        KernelExerciseResult broken;
        broken.log = "stencilscope_kernel.cu(21): error: identifier \"acx\" is undefined\n";
        broken.error_lines = { 21 };
        dialog.show_result(broken);
        QCOMPARE(dialog.marked_lines(), std::vector<int> { 21 });
        QVERIFY2(dialog.result_text().contains(QLatin1String("error on line 21")), qPrintable(dialog.result_text()));
        QVERIFY(dialog.log_text().contains(QLatin1String("identifier \"acx\" is undefined")));
        KernelExerciseResult passed;
        passed.compiled = passed.ran = passed.passed = true;
        passed.verdict = "matches the CPU reference";
        passed.ours_gcells_per_s = 80.0, passed.builtin_gcells_per_s = 95.5;
        passed.config = exercise_config(StencilConfig {});
        dialog.show_result(passed);
        QVERIFY(dialog.marked_lines().empty());
        QVERIFY2(dialog.result_text().startsWith(QLatin1String("Pass: matches")), qPrintable(dialog.result_text()));
        QVERIFY(dialog.result_text().contains(QLatin1String("80.0 GCells/s; the built-in base kernel: 95.5 GCells/s")));
    }

    // NVRTC needs no GPU: where it is present the dialog compiles for real and marks the planted error's line.
    void the_kernel_dialog_compiles_without_a_gpu() {
        Session engine { DeviceCatalogue {} };
        KernelExerciseDialog dialog(engine);
        if (!kernel_exercise_unavailable().empty()) {
            QVERIFY(!dialog.check_enabled());
            QSKIP("no NVRTC here: the button is off, as checked");
        }
        QSignalSpy finished(&engine, &Session::job_finished);
        const int line = exercise_body_line(dialog.text().toStdString());
        dialog.set_text(dialog.text().replace(QLatin1String("const int i = "), QLatin1String("const int i = nope + ")));
        QVERIFY(dialog.check());
        QVERIFY(finished.wait(60000));
        QCOMPARE(dialog.marked_lines(), std::vector<int> { line });
        QVERIFY(dialog.log_text().contains(QLatin1String("nope")));
        dialog.set_text(QString::fromStdString(exercise_template(exercise_config(StencilConfig {}))));
        QVERIFY(dialog.check());
        QVERIFY(finished.wait(60000));
        QVERIFY2(dialog.result_text().contains(QLatin1String("It compiles, but the run needs a CUDA GPU")),
            qPrintable(dialog.result_text()));
    }
};

QTEST_MAIN(TestExercises)
#include "tst_exercises.moc"
