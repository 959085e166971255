// SPDX-License-Identifier: MIT
// The window's stencil picker on the CPU backend, offscreen (issue 34): a named point stencil reaches the engine,
// the variants that cannot run it are disabled with the plan's reason, setup files keep a named stencil and a
// file's, and a bad stencil file is refused with its reason while the stencil stays.
#include "gpu/plan/temporal_policy.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/control_panel.h"
#include "widgets/main_window.h"
#include "widgets/stencil_picker.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

namespace {

void choose_stencil(MainWindow& w, const char* name) {
    QComboBox* box = knob<QComboBox>(w, "stencil");
    const int index = box->findData(QLatin1String(name), kStencilNameRole);
    QVERIFY2(index >= 0, name);
    box->setCurrentIndex(index);
}

QString write_file(const QTemporaryDir& dir, const char* name, const QByteArray& text) {
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) qFatal("cannot write %s", name);
    return path;
}

// A setup's JSON read back into the window's current settings.
SetupState round_trip(MainWindow& w, const QByteArray& json) {
    SetupState back;
    QString why;
    if (!setup_from_json(json, w.session().requested(), back, &why)) qFatal("refused: %s", qPrintable(why));
    return back;
}

// Equal but for the block a heuristic run shows (a setup says "heuristic", not the block it found).
bool same_but_heuristic_block(StencilConfig a, StencilConfig b) {
    if (a.policy.heuristic_block && b.policy.heuristic_block) a.policy.block = b.policy.block;
    return a == b;
}

} // namespace

class TestStencilPicker : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void choosing_box_reaches_the_engine() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose_stencil(w, "box");
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        const StencilProblem& p = engine_config(w).problem;
        QCOMPARE(p.dims, 2);
        QCOMPARE(p.radius, 1);
        QVERIFY(p.shape);
        QCOMPARE(int(p.shape->points.size()), 9);
        QCOMPARE(p.rule, UpdateRule::Jacobi);
        QVERIFY(w.controls().reason().isEmpty());

        // A box follows the radius knob; the variants a point stencil cannot run are disabled with the plan's reason.
        QVERIFY(knob<QSpinBox>(w, "radius")->isEnabled());
        knob<QSpinBox>(w, "radius")->setValue(2);
        QTRY_COMPARE(int(engine_config(w).problem.shape->points.size()), 25);
        auto* variant = knob<QComboBox>(w, "variant");
        auto* items = qobject_cast<QStandardItemModel*>(variant->model());
        QVERIFY(items);
        const int padded = variant->findData(int(Variant::SmemPadded));
        QVERIFY(padded >= 0);
        const Status verdict = w.session().plan_for(engine_config(w)).variant_verdict(Variant::SmemPadded);
        QVERIFY(!verdict.ok);
        QVERIFY(!items->item(padded)->isEnabled());
        QVERIFY2(items->item(padded)->toolTip().contains(QString::fromStdString(verdict.reason).left(20)),
            qPrintable(items->item(padded)->toolTip()));
        QVERIFY(items->item(variant->findData(int(Variant::Base)))->isEnabled());
        QVERIFY(items->item(variant->findData(int(Variant::Smem)))->isEnabled()); // the tile fits: smem runs it
        QVERIFY(items->item(variant->findData(int(Variant::Stream)))->isEnabled()); // and the ring of 2R+1 planes
        QVERIFY(items->item(variant->findData(int(Variant::Temporal)))->isEnabled()); // a ring per fused step
        choose(w, "variant", int(Variant::Smem));
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Smem);
        QVERIFY(w.controls().reason().isEmpty());
    }

    // An EBISU benchmark fixes the dims and the radius: the knobs follow it and close.
    void an_ebisu_stencil_fixes_dims_and_radius() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose_stencil(w, "3d27pt");
        QTRY_COMPARE(engine_config(w).problem.dims, 3);
        QCOMPARE(int(engine_config(w).problem.shape->points.size()), 27);
        QVERIFY(!knob<QComboBox>(w, "dims")->isEnabled());
        QVERIFY(!knob<QSpinBox>(w, "radius")->isEnabled());
        QCOMPARE(knob<QComboBox>(w, "dims")->currentData().toInt(), 3);
        choose_stencil(w, "star");
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Star);
        QVERIFY(knob<QComboBox>(w, "dims")->isEnabled());
    }

    // Point kernels coarsen too (issue 35): the CF box is open for a point stencil, and one turning temporal starts
    // from the CF and depth measured best on the point kernel (3d27pt fp32: CF 4, depth 2).
    void a_point_stencil_turning_temporal_starts_from_its_default_cf() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose_stencil(w, "3d27pt");
        QTRY_COMPARE(engine_config(w).problem.dims, 3);
        QVERIFY(knob<QComboBox>(w, "cf")->isEnabled());
        choose(w, "variant", int(Variant::Temporal));
        QCOMPARE(knob<QComboBox>(w, "cf")->currentData().toInt(), default_temporal_cf(engine_config(w)));
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Temporal);
        QTRY_COMPARE(engine_config(w).policy.cf, 4);
        QCOMPARE(engine_config(w).policy.depth, 2);
        QVERIFY2(w.controls().reason().isEmpty(), qPrintable(w.controls().reason()));
        // The CF and depth boxes say which defaults temporal started from, and whose they are (as run's line).
        const QString says = QStringLiteral("Temporal starts here from CF 4 and depth 2: the point temporal kernel's "
                                            "for 3D R1 fp32, the defaults measured on H100 and H200 GPUs");
        QVERIFY2(knob<QComboBox>(w, "cf")->toolTip().contains(says), qPrintable(knob<QComboBox>(w, "cf")->toolTip()));
        QVERIFY2(
            knob<QSpinBox>(w, "depth")->toolTip().contains(says), qPrintable(knob<QSpinBox>(w, "depth")->toolTip()));
        choose(w, "variant", int(Variant::Stream)); // other variants: the boxes teach only
        QTRY_VERIFY(!knob<QComboBox>(w, "cf")->toolTip().contains(QStringLiteral("Temporal starts here")));
    }

    void a_setup_keeps_a_named_point_stencil() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose_stencil(w, "2d25pt");
        QTRY_COMPARE(engine_config(w).problem.radius, 2);
        const SetupState saved = w.session().current_setup();
        const QByteArray json = setup_to_json(saved);
        QVERIFY2(json.contains("\"stencil\": \"2d25pt\""), json.constData());
        const SetupState back = round_trip(w, json);
        QVERIFY(same_but_heuristic_block(back.settings.config, saved.settings.config));
        QCOMPARE(back.settings.config.problem.shape->name, std::string("2d25pt"));

        // Loading the setup into a window on another stencil shows the stencil in the picker.
        choose_stencil(w, "star");
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Star);
        QString why;
        QVERIFY2(w.session().apply_setup(back, &why), qPrintable(why));
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        QCOMPARE(knob<QComboBox>(w, "stencil")->currentData(kStencilNameRole).toString(), QStringLiteral("2d25pt"));
    }

    void a_setup_keeps_a_stencil_file_by_its_path() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = write_file(dir, "cross5.json",
            R"({"name": "cross5", "dims": 2, "points": [[[0, 0], 0.5], [[-1, 0], 0.125], [[1, 0], 0.125],
                [[0, -2], 0.125], [[0, 2], 0.125]]})");
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        const Status loaded = w.controls().load_stencil_file(path);
        QVERIFY2(loaded.ok, loaded.reason.c_str());
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        QCOMPARE(engine_config(w).problem.radius, 2);
        QCOMPARE(engine_config(w).problem.shape->name, std::string("cross5"));
        QVERIFY(knob<QComboBox>(w, "stencil")->currentText().contains(QLatin1String("cross5")));

        const SetupState saved = w.session().current_setup();
        const QByteArray json = setup_to_json(saved);
        QVERIFY2(json.contains("\"stencil-file\"") && !json.contains("\"stencil\":"), json.constData());
        const SetupState back = round_trip(w, json);
        QVERIFY(same_but_heuristic_block(back.settings.config, saved.settings.config));
        QCOMPARE(
            QString::fromStdString(back.settings.config.problem.shape->source), QFileInfo(path).absoluteFilePath());
    }

    void a_stencil_file_with_a_point_twice_is_refused_and_the_stencil_stays() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = write_file(
            dir, "twice.json", R"({"dims": 2, "points": [[[0, 0], 0.5], [[1, 0], 0.25], [[1, 0], 0.25]]})");
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose_stencil(w, "box");
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        const std::uint64_t generation = w.session().generation();
        const QString box_text = knob<QComboBox>(w, "stencil")->currentText();

        const Status loaded = w.controls().load_stencil_file(path);
        QVERIFY(!loaded.ok);
        QVERIFY2(QString::fromStdString(loaded.reason).contains(QLatin1String("twice")), loaded.reason.c_str());
        const QString reason = w.controls().reason();
        QVERIFY2(reason.contains(QLatin1String("Stencil file refused")) && reason.contains(QLatin1String("twice")),
            qPrintable(reason));
        QCOMPARE(knob<QComboBox>(w, "stencil")->currentText(), box_text);
        QCOMPARE(w.session().generation(), generation); // nothing was sent
        QCOMPARE(engine_config(w).problem.shape->name, std::string("box"));
        QCOMPARE(int(engine_config(w).problem.shape->points.size()), 9);
    }
};

QTEST_MAIN(TestStencilPicker)
#include "tst_stencil_picker.moc"
