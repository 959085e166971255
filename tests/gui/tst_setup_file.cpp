// SPDX-License-Identifier: MIT
// Setup files and lessons: a save/load round trip keeps every setting, every embedded lesson parses and
// runs on the CPU backend, and bad files are refused with a reason while the settings stay as they were.
#include "gpu/backends/simulation.h"
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/validation.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "tests/host/test_devices.h"
#include "widgets/main_window.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

SetupState unusual() {
    SetupState s;
    StencilConfig& c = s.settings.config;
    c.problem.stencil = StencilKind::Star;
    c.problem.rule = UpdateRule::Wave;
    c.problem.dims = 3;
    c.problem.size = { 40, 30, 20 };
    c.problem.radius = 3;
    c.policy.variant = Variant::SmemPadded;
    c.policy.cf = 2;
    c.policy.heuristic_block = false;
    c.policy.block = { 16, 8, 2 };
    c.problem.precision = Precision::FP64;
    c.placement.backend = Backend::Cpu;
    c.placement.device = 0;
    c.placement.gpus = 1;
    s.settings.config.problem.initial = InitialCondition::HotEdges;
    s.settings.config.problem.seed = 12345;
    s.steps_per_frame = 7;
    s.colormap = ColormapKind::Grayscale;
    s.slice = SliceSelection { SliceAxis::XZ, 5, true };
    return s;
}

bool same(const SetupState& a, const SetupState& b) {
    return a.settings == b.settings && a.steps_per_frame == b.steps_per_frame && a.colormap == b.colormap
        && a.slice == b.slice && a.title == b.title && a.explanation == b.explanation;
}

RunSettings cpu_current() {
    RunSettings r;
    r.config.placement.backend = Backend::Cpu;
    return r;
}

WindowOptions cpu_window() {
    WindowOptions o;
    o.settings.config.placement.backend = Backend::Cpu;
    o.settings.config.problem.size = { 64, 64, 1 };
    o.restore_layout = false;
    o.renderer = FieldView::Renderer::Raster;
    return o;
}

RunSettings cuda_current() {
    RunSettings r;
    r.config.placement.backend = Backend::Cuda;
    return r;
}

} // namespace

class TestSetupFile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Issue 15, class 11: seeds above 2^53 do not survive a JSON number; the temporal depth is a setting.
    void large_seeds_and_the_temporal_depth_round_trip() {
        for (const std::uint64_t seed : { std::uint64_t(0), (std::uint64_t(1) << 53) + 1, ~std::uint64_t(0) }) {
            SetupState before = unusual();
            before.settings.config.problem.seed = seed;
            before.settings.config.policy.variant = Variant::Temporal;
            before.settings.config.policy.depth = 5;
            before.settings.config.policy.cf = 1;
            SetupState after;
            QString why;
            QVERIFY2(setup_from_json(setup_to_json(before), cpu_current(), after, &why), qPrintable(why));
            QCOMPARE(after.settings.config.problem.seed, seed);
            QCOMPARE(after.settings.config.policy.depth, 5);
        }
    }

    void round_trip_keeps_every_setting() {
        const SetupState before = unusual();
        SetupState after;
        QString why;
        QVERIFY2(setup_from_json(setup_to_json(before), cpu_current(), after, &why), qPrintable(why));
        QVERIFY(same(before, after));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("setup.json"));
        QVERIFY2(write_setup_file(path, before, &why), qPrintable(why));
        SetupState from_file;
        QVERIFY2(read_setup_file(path, cpu_current(), from_file, &why), qPrintable(why));
        QVERIFY(same(before, from_file));

        // The defaults round-trip too (heuristic block, 2D, no slice or colour map given).
        SetupState plain;
        plain.settings.config.placement.backend = Backend::Cpu;
        SetupState plain_after;
        QVERIFY2(setup_from_json(setup_to_json(plain), cpu_current(), plain_after, &why), qPrintable(why));
        QVERIFY(same(plain, plain_after));
    }

    void uses_the_cli_option_names() {
        const QByteArray json = setup_to_json(unusual());
        for (const char* key : { "\"stencil\": \"star\"", "\"size\": \"40x30x20\"", "\"block\": \"16x8x2\"",
                 "\"variant\": \"smem_padded\"", "\"init\": \"hot-edges\"", "\"backend\": \"cpu\"" })
            QVERIFY2(json.contains(key), key);
    }

    void every_lesson_parses_and_runs_on_the_cpu_backend() {
        const QStringList paths = lesson_paths();
        QVERIFY(paths.size() >= 6);
        for (const QString& path : paths) {
            SetupState s;
            QString why;
            QVERIFY2(read_setup_file(path, cpu_current(), s, &why), qPrintable(path + QStringLiteral(": ") + why));
            QVERIFY2(!s.title.isEmpty(), qPrintable(path));
            QVERIFY2(!s.explanation.isEmpty(), qPrintable(path));
            // on the host a lesson runs at its "cpu-size": a class without GPUs still sees it move
            const Extent e = s.settings.config.problem.size;
            QVERIFY2(std::int64_t(e.nx) * e.ny * e.nz <= (1 << 20), qPrintable(path));
            s.settings.config.placement.backend = Backend::Cpu;
            const Status st = can_implement(s.settings.config, DeviceCatalogue {});
            QVERIFY2(st.ok, qPrintable(path + QStringLiteral(": ") + QString::fromStdString(st.reason)));
        }
    }

    // Issue 34: a compared run may change the stencil itself. Star or box's four runs resolve as labelled (a
    // star, or the box of all (2R+1)^2 points) and each runs on the CPU backend and on a described H100.
    void star_or_box_compares_star_and_box_stencils() {
        QString why;
        const QString path = setup_path_for(QStringLiteral("lesson:star-or-box"), &why);
        QVERIFY2(!path.isEmpty(), qPrintable(why));
        std::vector<LessonRun> runs;
        QVERIFY2(read_lesson_runs(path, cpu_current(), runs, &why), qPrintable(why));
        QCOMPARE(runs.size(), std::size_t(4));
        const DeviceInfo h100 = test::h100();
        for (const LessonRun& run : runs) {
            const StencilConfig& c = run.setup.settings.config;
            const int radius = run.label.endsWith(QStringLiteral("R3")) ? 3 : 1;
            QCOMPARE(c.problem.radius, radius);
            if (run.label.startsWith(QStringLiteral("box"))) {
                QCOMPARE(c.problem.stencil, StencilKind::Points);
                QVERIFY(c.problem.shape);
                QCOMPARE(int(c.problem.shape->points.size()), (2 * radius + 1) * (2 * radius + 1));
            } else {
                QCOMPARE(c.problem.stencil, StencilKind::Star);
            }
            const Status on_cpu = can_implement(c, DeviceCatalogue {});
            QVERIFY2(on_cpu.ok, qPrintable(run.label + QStringLiteral(": ") + QString::fromStdString(on_cpu.reason)));
            const Status on_h100 = check_policy(c, &h100);
            QVERIFY2(on_h100.ok, qPrintable(run.label + QStringLiteral(": ") + QString::fromStdString(on_h100.reason)));
        }
    }

    // Each lesson says what it needs and what the CPU backend shows, and has an entry in the recorded
    // results with one run per compared configuration.
    void every_lesson_states_its_needs_and_has_a_recording() {
        QFile file(QStringLiteral(":/lessons/recorded_h100.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject recorded
            = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("lessons")).toObject();
        for (const QString& path : lesson_paths()) {
            SetupState s;
            QString why;
            QVERIFY2(read_setup_file(path, cpu_current(), s, &why), qPrintable(why));
            QVERIFY2(!s.lesson_id.isEmpty() && !s.on_cpu.isEmpty(), qPrintable(path));
            std::vector<LessonRun> runs;
            QVERIFY2(read_lesson_runs(path, cuda_current(), runs, &why), qPrintable(why));
            QVERIFY2(!runs.empty(), qPrintable(path));
            const QJsonArray rows = recorded.value(s.lesson_id).toArray();
            QCOMPARE(rows.size(), qsizetype(runs.size()));
            for (std::size_t i = 0; i < runs.size(); ++i)
                QCOMPARE(rows[qsizetype(i)].toObject().value(QStringLiteral("label")).toString(), runs[i].label);
            const QString dock = lesson_dock_text({ s.title, s.explanation, s.lesson_id, s.needs, s.on_cpu }, true);
            QVERIFY2(dock.contains(QStringLiteral("On the CPU backend: ")), qPrintable(path));
            QVERIFY2(dock.contains(QStringLiteral("Recorded on ")), qPrintable(path));
            if (!s.needs.isEmpty()) QVERIFY2(dock.contains(QStringLiteral("Needs ")), qPrintable(path));
        }
    }

    // Measured figures drift as the kernels change: a lesson's text names none, the recording has them.
    void lesson_texts_carry_no_typed_measurements() {
        const QRegularExpression measured(QStringLiteral(
            "\\b\\d[\\d.]*\\s*(GCells/s|GB/s|ms|µs|bytes per thread|spill|registers)|\\d+\\s*vs\\s*\\d+|-\\d+ %"));
        for (const QString& path : lesson_paths()) {
            SetupState s;
            QString why;
            QVERIFY2(read_setup_file(path, cpu_current(), s, &why), qPrintable(why));
            const QRegularExpressionMatch m = measured.match(s.explanation);
            QVERIFY2(!m.hasMatch(), qPrintable(path + QStringLiteral(": \"") + m.captured() + QLatin1Char('"')));
        }
    }

    // The lessons' deterministic claims that need no GPU, on a described H100: shared memory per block,
    // blocks per SM as threads and shared memory allow them, and the blocks that are refused. The device
    // checks them all (registers, spills, limiter) in gpu_lesson_claims.
    void lesson_claims_hold_on_a_described_h100() {
        const DeviceInfo h100 = test::h100();
        int checked = 0;
        for (const QString& path : lesson_paths()) {
            std::vector<LessonRun> runs;
            QString why;
            QVERIFY2(read_lesson_runs(path, cuda_current(), runs, &why), qPrintable(why));
            for (const LessonRun& run : runs) {
                const StencilConfig& c = run.setup.settings.config;
                const QString where = path + QStringLiteral(", ") + run.label;
                const bool refused = !check_block(c, c.policy.block, &h100).ok && !c.policy.heuristic_block;
                QCOMPARE(refused, run.expect.value(QStringLiteral("refused")).toBool());
                if (refused || c.policy.heuristic_block) continue;
                if (run.expect.contains(QStringLiteral("dynamic-smem"))) {
                    QVERIFY2(dynamic_smem_bytes(c, c.policy.block)
                            == run.expect.value(QStringLiteral("dynamic-smem")).toInteger(),
                        qPrintable(where));
                    ++checked;
                }
                if (run.expect.contains(QStringLiteral("blocks-per-sm"))) {
                    QVERIFY2(blocks_per_sm_without_registers(c, c.policy.block, h100)
                            == run.expect.value(QStringLiteral("blocks-per-sm")).toInteger(),
                        qPrintable(where));
                    ++checked;
                }
            }
        }
        QVERIFY(checked >= 4); // the occupancy cliff's
    }

    void bad_setups_are_refused_with_a_reason_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("malformed") << QByteArray("{\"stencil\": \"star\",");
        QTest::newRow("not json") << QByteArray("radius = 3");
        QTest::newRow("not an object") << QByteArray("[1, 2]");
        QTest::newRow("wrong type") << QByteArray("{\"radius\": \"three\"}");
        QTest::newRow("fractional") << QByteArray("{\"radius\": 2.5}");
        QTest::newRow("wrong gui type") << QByteArray("{\"steps-per-frame\": \"many\"}");
        QTest::newRow("unknown variant") << QByteArray("{\"variant\": \"turbo\"}");
        QTest::newRow("variant of another stencil")
            << QByteArray("{\"stencil\": \"diffusion4\", \"variant\": \"base\"}");
        QTest::newRow("unknown key") << QByteArray("{\"radious\": 3}");
        QTest::newRow("size for other dims") << QByteArray("{\"dims\": 3, \"size\": \"64x64\"}");
        QTest::newRow("radius out of range") << QByteArray("{\"radius\": 99}");
        QTest::newRow("negative seed") << QByteArray("{\"seed\": -1}");
        QTest::newRow("unknown colormap") << QByteArray("{\"colormap\": \"rainbow\"}");
        QTest::newRow("slice outside") << QByteArray("{\"dims\": 3, \"size\": \"8x8x8\", \"slice-index\": 8}");
        QTest::newRow("wrong slice type") << QByteArray("{\"slice\": 3}");
        QTest::newRow("wrong max-projection type") << QByteArray("{\"max-projection\": \"yes\"}");
        QTest::newRow("wrong title type") << QByteArray("{\"title\": [\"a\"]}");
        QTest::newRow("null value") << QByteArray("{\"radius\": null}");
        QTest::newRow("other version") << QByteArray("{\"version\": 2}");
        QTest::newRow("NaN") << QByteArray("{\"radius\": NaN}");
        QTest::newRow("infinite number") << QByteArray("{\"radius\": 1e999}");
        QTest::newRow("integer beyond a double") << QByteArray("{\"seed\": 1e300}");
        QTest::newRow("integer beyond int") << QByteArray("{\"steps-per-frame\": 4294967297}");
        QTest::newRow("deep nesting") << QByteArray(5000, '[') + QByteArray(5000, ']');
        QTest::newRow("deep nesting in a value")
            << "{\"title\": " + QByteArray(5000, '[') + QByteArray(5000, ']') + "}";
        // Found by the fuzzer (tests/fuzz/regressions): the reason quoted a key holding a newline.
        QTest::newRow("newline in a key") << QByteArray("{\"in\nit\": 1}");
        QTest::newRow("escaped newline in a value") << QByteArray("{\"colormap\": \"gray\\nscale\"}");
        QTest::newRow("a pasted key") << "{\"" + QByteArray(100000, 'k') + "\": 1}";
    }

    void bad_setups_are_refused_with_a_reason() {
        QFETCH(QByteArray, json);
        const SetupState before = unusual();
        SetupState out = before;
        QString why;
        QVERIFY(!setup_from_json(json, cpu_current(), out, &why));
        QVERIFY(!why.isEmpty());
        QVERIFY2(!why.contains(QLatin1Char('\n')) && !why.contains(QLatin1Char('\r')), qPrintable(why));
        QVERIFY2(why.size() < 300, qPrintable(why.left(300)));
        QVERIFY(same(out, before));
    }

    void an_oversized_file_is_refused_unread() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray big = "{\"explanation\": \"" + QByteArray(kMaxSetupBytes, 'x') + "\"}";
        QVERIFY(f.write(big) == big.size());
        f.close();
        const SetupState before = unusual();
        SetupState out = before;
        QString why;
        QVERIFY(!read_setup_file(path, cpu_current(), out, &why));
        QVERIFY(why.contains(QStringLiteral("larger")));
        QVERIFY(same(out, before));
        QVERIFY(!read_setup_file(dir.filePath(QStringLiteral("missing.json")), cpu_current(), out, &why));
        QVERIFY(!why.isEmpty());
        QVERIFY(same(out, before));

        // 50 MB (sparse, so the test writes nothing): refused by its size before anything is read.
        QFile huge(dir.filePath(QStringLiteral("huge.json")));
        QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(50 << 20));
        huge.close();
        why.clear();
        QVERIFY(!read_setup_file(huge.fileName(), cpu_current(), out, &why));
        QVERIFY2(why.contains(QStringLiteral("larger")), qPrintable(why));
        QVERIFY(same(out, before));
        // A device without a size (and without an end) is refused for what it is, before a byte is read.
        if (QFile::exists(QStringLiteral("/dev/zero"))) {
            why.clear();
            QVERIFY(!read_setup_file(QStringLiteral("/dev/zero"), cpu_current(), out, &why));
            QVERIFY2(why.contains(QStringLiteral("device")), qPrintable(why));
            QVERIFY(same(out, before));
        }
        // A directory is not a setup.
        why.clear();
        QVERIFY(!read_setup_file(dir.path(), cpu_current(), out, &why));
        QVERIFY(!why.isEmpty());
        QVERIFY(same(out, before));
    }

    void an_unwritable_path_is_refused_with_a_reason() {
        QTemporaryDir dir;
        QString why;
        QVERIFY(!write_setup_file(QStringLiteral("/nonexistent-dir-stencilscope/setup.json"), unusual(), &why));
        QVERIFY(why.contains(QStringLiteral("cannot write")));
        why.clear();
        QVERIFY(!write_setup_file(dir.path(), unusual(), &why)); // a directory
        QVERIFY(!why.isEmpty());
    }

    void the_window_keeps_running_when_a_setup_is_refused() {
        MainWindow w(cpu_window());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        const RunSettings running = w.session().requested();
        QTemporaryDir dir;
        auto write = [&](const char* name, const QByteArray& text) {
            QFile f(dir.filePath(QLatin1String(name)));
            if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", name);
            f.write(text);
            return f.fileName();
        };
        QString why;
        QVERIFY(!w.session().open_setup(write("broken.json", "{\"radius\": "), &why));
        QVERIFY(!why.isEmpty());
        // Parses, but the engine cannot run it: the border of a radius-6 star leaves nothing of 8x8.
        why.clear();
        QVERIFY(!w.session().open_setup(write("impossible.json", "{\"size\": \"8x8\", \"radius\": 6}"), &why));
        QVERIFY(!why.isEmpty());
        QCOMPARE(w.session().requested(), running);
        QCOMPARE(w.session().current_setup().settings, running);

        // A good one applies; saving it back gives the same setup.
        QVERIFY2(w.session().open_setup(write("good.json",
                                            "{\"size\": \"48x32\", \"radius\": 2, \"init\": \"square\", "
                                            "\"steps-per-frame\": 3, \"colormap\": \"grayscale\"}"),
                     &why),
            qPrintable(why));
        QTRY_COMPARE(w.session().active().settings.config.problem.size.nx, 48);
        QCOMPARE(w.session().active().settings.config.problem.radius, 2);
        QCOMPARE(w.session().active().settings.config.placement.backend, Backend::Cpu);
        QCOMPARE(w.session().pacing().steps_per_frame, 3);
        const QString saved = dir.filePath(QStringLiteral("saved.json"));
        QVERIFY2(w.session().save_setup(saved, &why), qPrintable(why));
        SetupState reread;
        QVERIFY2(read_setup_file(saved, cpu_current(), reread, &why), qPrintable(why));
        QVERIFY(same(reread, w.session().current_setup()));
        QCOMPARE(reread.colormap, std::optional(ColormapKind::Grayscale));
    }

    // Issue 15, class 2: an explanation from a file is shown as the text it is; an <img> pointing at an
    // endless file is never loaded.
    void an_explanation_is_plain_text_and_loads_nothing() {
        MainWindow w(cpu_window());
        w.show();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("img.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"title\": \"t\", \"explanation\": \"<b>bold</b><img src=\\\"/dev/zero\\\">\"}");
        f.close();
        QString why;
        QVERIFY2(w.session().open_setup(path, &why), qPrintable(why));
        const auto* label = w.findChild<QLabel*>(QStringLiteral("lesson_text"));
        QVERIFY(label);
        QCOMPARE(label->textFormat(), Qt::PlainText);
        QVERIFY(w.lesson_text().contains(QStringLiteral("<img src=\"/dev/zero\">")));
    }

    // Issue 15, class 8: a setup that passes every check but cannot be allocated (injected here) hands the
    // window its previous run back, still playing, with the reason shown.
    void a_setup_that_cannot_be_allocated_keeps_the_previous_run() {
        qputenv("STENCILSCOPE_INJECT_ALLOCATION_FAILURE_CELLS", "5000"); // 64x64 fits, 96x96 does not
        MainWindow w(cpu_window());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QSignalSpy failures(&w.session(), &Session::failed);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"size\": \"96x96\", \"init\": \"square\"}");
        f.close();
        QString why;
        QVERIFY2(w.session().open_setup(path, &why), qPrintable(why)); // valid: the failure comes from the engine
        QTRY_COMPARE(failures.size(), 1);
        qunsetenv("STENCILSCOPE_INJECT_ALLOCATION_FAILURE_CELLS");
        const auto failure = failures.front().front().value<EngineFailure>();
        QVERIFY2(
            QString::fromStdString(failure.reason).contains(QStringLiteral("out of memory")), failure.reason.c_str());
        QVERIFY(w.session().has_simulation());
        QCOMPARE(w.session().active().settings.config.problem.size.nx, 64);
        QVERIFY(w.session().playing());
        const auto presented = w.field_view().frames_presented();
        QTRY_VERIFY(w.field_view().frames_presented() > presented + 2); // the old run goes on
    }

    void a_lesson_applies_and_explains_itself() {
        MainWindow w(cpu_window());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QVERIFY(w.lesson_text().isEmpty());
        QString wave_lesson;
        for (const QString& path : lesson_paths())
            if (path.contains(QStringLiteral("wave"))) wave_lesson = path;
        QVERIFY(!wave_lesson.isEmpty());
        QString why;
        QVERIFY2(w.session().open_setup(wave_lesson, &why), qPrintable(why));
        QVERIFY(!w.lesson_text().isEmpty());
        QTRY_COMPARE(w.session().active().settings.config.problem.rule, UpdateRule::Wave);
        QCOMPARE(w.session().active().settings.config.problem.radius, 4);
        QCOMPARE(w.session().active().settings.config.placement.backend, Backend::Cpu);
        QCOMPARE(w.session().current_setup().colormap, std::optional(ColormapKind::Coolwarm));
    }
};

QTEST_MAIN(TestSetupFile)
#include "tst_setup_file.moc"
