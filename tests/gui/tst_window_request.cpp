// SPDX-License-Identifier: MIT
// Issue 36, class 5 and the window's smaller ones: the window refuses what stencilscope-cli refuses (a block no
// GPU could launch, on the CPU backend too), and options that cannot apply (a slice in 2D or past the domain,
// steps per frame past the knob, --soak-interval alone, --sweep-show of an absent series, a colour range whose
// span overflows); --setup takes the command line's options over its file's; an unknown lesson id is not echoed
// whole. The real executable: a scripted run leaves the user's settings alone and a missing HOME is not created.
#include "app/gui/gui_options.h"
#include "app/gui/scripted_run.h"
#include "app/gui/window_request.h"
#include "session/setup_file.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

// What main() says before any window opens: "" when the window would open.
std::string refusal(const std::vector<std::string>& args, GuiOptions* kept = nullptr) {
    GuiOptions o;
    if (const Status s = parse_gui_options(args, o, false); !s) return s.reason;
    o.window.devices = DeviceCatalogue {};
    SetupState setup;
    std::string problem = o.setup.empty() ? std::string() : read_start_setup(o, setup);
    if (problem.empty()) problem = check_window_request(o);
    if (problem.empty()) problem = precheck_scripted(o);
    if (kept) *kept = o;
    return problem;
}

QString sweep_csv() {
    return QStringLiteral(STENCILSCOPE_SOURCE_DIR "/bench/results/h100_2026-11-22_cf2d.csv");
}

} // namespace

class TestWindowRequest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void options_that_cannot_apply_are_refused_data() {
        QTest::addColumn<QByteArrayList>("args");
        QTest::addColumn<QByteArray>("reason");
        const QByteArray sweep = sweep_csv().toUtf8();
        auto row = [](const char* name, const QByteArrayList& args, const char* reason) {
            QTest::newRow(name) << args << QByteArray(reason);
        };
        row("block of 2048 threads on the CPU", { "--block", "2048x1" },
            "no GPU could launch this block: block 2048x1x1 has 2048 threads");
        row("slice index in 2D", { "--slice-index", "99999" }, "--slice-index applies to 3D domains; this one is 2D");
        row("slice axis in 2D", { "--slice", "xz" }, "--slice applies to 3D domains");
        row("max projection in 2D", { "--max-projection" }, "--max-projection applies to 3D");
        row("slice index past the domain", { "--dims", "3", "--slice", "yz", "--slice-index", "64" },
            "invalid --slice-index 64: the yz slices of 64x64x64 are 0..63");
        row("steps per frame past the knob", { "--steps-per-frame", "2000000000" }, "expected an integer 0..1000000");
        row("soak interval alone", { "--soak-interval", "1" }, "--soak-interval needs --soak-seconds S");
        row("range whose span overflows", { "--range", "-3.4e38:3.4e38" }, "invalid --range");
        row("range past the range boxes", { "--range", "0:1e12" }, "within +-1e9");
        row("absent sweep series", { "--open-sweep", sweep, "--sweep-show", "temporal" },
            "--sweep-show temporal: the sweep has no temporal series (it has base, smem");
        row("setup made impossible by an option",
            { "--setup", "lesson:travelling-waves", "--size", "8x8", "--radius", "6" },
            "domain 8x8 is smaller than the R6 stencil needs");
        row("an option's bad value over a setup", { "--setup", "lesson:travelling-waves", "--radius", "99" },
            "invalid --radius '99'");
    }
    void options_that_cannot_apply_are_refused() {
        QFETCH(QByteArrayList, args);
        QFETCH(QByteArray, reason);
        std::vector<std::string> list { "--backend", "cpu" };
        for (const QByteArray& a : args) list.push_back(a.toStdString());
        const std::string got = refusal(list);
        QVERIFY2(got.find(reason.toStdString()) != std::string::npos, got.c_str());
    }

    void what_the_window_can_show_is_accepted() {
        for (const std::vector<std::string>& args : std::vector<std::vector<std::string>> {
                 { "--backend", "cpu", "--dims", "3", "--slice", "xz", "--slice-index", "63", "--max-projection" },
                 { "--backend", "cpu", "--block", "32x8", "--range", "-1e9:1e9", "--steps-per-frame", "1000000" },
                 { "--backend", "cpu", "--soak-seconds", "1", "--soak-interval", "0.5" },
                 { "--open-sweep", sweep_csv().toStdString(), "--sweep-show", "smem_padded" } })
            QCOMPARE(QString::fromStdString(refusal(args)), QString());
    }

    // A setup's size and temporal depth stay the file's when the command line gives other options only (the
    // temporal lesson opened at the window's 1024x1024 and depth 6 instead of 8352x8352 at depth 9).
    void a_setups_size_and_depth_stay_without_those_options() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"rule": "jacobi", "dims": 2, "size": "333x222", "variant": "temporal", "depth": 3})");
        file.close();
        GuiOptions o;
        QCOMPARE(QString::fromStdString(
                     refusal({ "--backend", "cpu", "--setup", path.toStdString(), "--precision", "fp64" }, &o)),
            QString());
        QCOMPARE(o.window.settings.config.problem.size, (Extent { 333, 222, 1 }));
        QCOMPARE(o.window.settings.config.policy.depth, 3);
        QCOMPARE(o.window.settings.config.problem.precision, Precision::FP64);
        GuiOptions sized;
        QCOMPARE(
            QString::fromStdString(refusal(
                { "--backend", "cpu", "--setup", path.toStdString(), "--size", "100x90", "--depth", "2" }, &sized)),
            QString());
        QCOMPARE(sized.window.settings.config.problem.size, (Extent { 100, 90, 1 }));
        QCOMPARE(sized.window.settings.config.policy.depth, 2);
    }

    // The command line overrides the setup's configuration and display; what it does not give is the setup's.
    void setup_options_given_on_the_command_line_override_the_file() {
        GuiOptions o;
        QCOMPARE(QString::fromStdString(
                     refusal({ "--backend", "cpu", "--setup", "lesson:travelling-waves", "--radius", "3", "--dims", "3",
                                 "--slice", "yz", "--colormap", "viridis", "--steps-per-frame", "7" },
                         &o)),
            QString());
        GuiOptions lesson;
        QCOMPARE(QString::fromStdString(refusal({ "--backend", "cpu", "--setup", "lesson:travelling-waves" }, &lesson)),
            QString());
        const StencilConfig& c = o.window.settings.config;
        QCOMPARE(c.problem.radius, 3);
        QCOMPARE(c.problem.dims, 3);
        QCOMPARE(c.problem.size, (Extent { 64, 64, 64 })); // the window's CPU default for 3D
        QCOMPARE(c.problem.rule, lesson.window.settings.config.problem.rule); // the lesson's
        QCOMPARE(c.problem.initial, lesson.window.settings.config.problem.initial);
        QCOMPARE(o.window.slice.axis, SliceAxis::YZ);
        QCOMPARE(o.window.slice.index, 32);
        QCOMPARE(o.window.colormap, ColormapKind::Viridis);
        QCOMPARE(o.window.pacing.steps_per_frame, 7);
        QVERIFY(lesson.window.settings.config.problem.radius != 3 || lesson.window.settings.config.problem.dims != 3);
    }

    // A setup file's block no GPU could launch is refused on every backend, as the command line's is.
    void a_setup_block_no_gpu_could_launch_is_refused() {
        SetupState s;
        RunSettings current;
        current.config.placement.backend = Backend::Cpu;
        QString why;
        QVERIFY(!setup_from_json(R"({"block": "2048x1"})", current, s, &why));
        QVERIFY2(why.startsWith(QLatin1String("no GPU could launch this block: block 2048x1x1 has 2048 threads")),
            qPrintable(why));
        QVERIFY(!setup_from_json(R"({"dims": 3, "size": "64x64x64", "block": "4x2x128"})", current, s, &why));
        QVERIFY2(why.contains(QLatin1String("Bz <= 64")), qPrintable(why));
        QVERIFY2(
            setup_from_json(R"({"block": "32x8", "steps-per-frame": 1000000})", current, s, &why), qPrintable(why));
        QCOMPARE(s.steps_per_frame, kMaxStepsPerFrame); // the knob's limit, so that what the window saves loads
    }

    void an_unknown_lesson_id_is_quoted_not_echoed_whole() {
        const std::string id(100000, 'a');
        const std::string got = refusal({ "--backend", "cpu", "--setup", "lesson:" + id });
        QVERIFY2(got.starts_with("no lesson 'aaaa"), got.substr(0, 100).c_str());
        QVERIFY(got.size() < 400);
    }

    // The real program: a scripted run reads and writes a settings store of its own, and without a home
    // directory nothing creates one.
    void scripted_runs_leave_the_users_settings_and_home_alone() {
        QTemporaryDir dir;
        const QString home = dir.filePath(QStringLiteral("home")), missing = dir.filePath(QStringLiteral("missing"));
        const QString conf = home + QStringLiteral("/.config/StencilScope/stencilscope.conf");
        QVERIFY(QDir().mkpath(QFileInfo(conf).path()));
        const QByteArray users = "[metrics]\ncounters=false\n";
        {
            QFile f(conf);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(users);
        }
        for (const QString& h : { home, missing }) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), h);
            env.remove(QStringLiteral("XDG_CONFIG_HOME"));
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(STENCILSCOPE_GUI_BINARY),
                { QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--size"), QStringLiteral("32x32"),
                    QStringLiteral("--frames"), QStringLiteral("2"), QStringLiteral("--metrics"),
                    QStringLiteral("on") });
            QVERIFY(p.waitForFinished(120000));
            QCOMPARE(p.exitCode(), 0);
        }
        QFile f(conf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), users);
        QVERIFY(!QFileInfo::exists(missing));
    }
};

QTEST_MAIN(TestWindowRequest)
#include "tst_window_request.moc"
