// SPDX-License-Identifier: MIT
// The window's controls on the CPU backend, offscreen, where a choice cannot run: an impossible combination,
// a halo mode, the temporal depth and a manual block show the engine's reason and send nothing; the greyed
// block boxes show the heuristic's choice; temporal starts from its default depth and CF.
#include "gpu/plan/temporal_policy.h"
#include "session/session.h"
#include "widgets/control_panel.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>

#include <QStandardPaths>
#include <QTest>
#include <vector>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

class TestControlReasons : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void an_impossible_combination_shows_the_engine_reason() {
        MainWindow w(cpu_options(20));
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        const std::uint64_t generation = w.session().generation();
        knob<QSpinBox>(w, "radius")->setValue(12); // needs 25 cells per axis
        QLabel* reason = knob<QLabel>(w, "reason");
        QVERIFY(!reason->isHidden());
        QVERIFY2(reason->text().contains(QStringLiteral("smaller than")), qPrintable(reason->text()));
        QCOMPARE(w.controls().reason(), reason->text());
        QCOMPARE(w.session().generation(), generation); // nothing was sent
        QCOMPARE(engine_config(w).problem.radius, 1);
        QTRY_VERIFY(w.field_view().frames_presented() > 2); // and the old run goes on

        knob<QSpinBox>(w, "nx")->setValue(40);
        knob<QSpinBox>(w, "ny")->setValue(40);
        QVERIFY(reason->isHidden());
        QTRY_COMPARE(engine_config(w).problem.radius, 12);
    }

    // The halo mode beside the overlap switch: closed on one strip, each impossible mode disabled with the
    // Session's reason, and a remote choice that arrives with a setup on the CPU explained and undoable.
    void the_halo_choice_says_what_it_needs() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        auto* halo = knob<QComboBox>(w, "halo");
        QVERIFY(!halo->isEnabled());
        QVERIFY2(halo->toolTip().contains(QLatin1String("2 or more GPUs")), qPrintable(halo->toolTip()));
        auto* items = qobject_cast<QStandardItemModel*>(halo->model());
        QVERIFY(items);
        const int remote = halo->findData(int(HaloMode::Remote));
        QVERIFY(!items->item(remote)->isEnabled());
        QVERIFY(items->item(remote)->toolTip().contains(QLatin1String("CPU backend")));
        QVERIFY(items->item(halo->findData(int(HaloMode::Auto)))->isEnabled());

        const std::uint64_t generation = w.session().generation();
        RunSettings s = w.controls().settings();
        s.config.placement.halo = HaloMode::Remote;
        w.controls().set_settings(s);
        QVERIFY(halo->isEnabled()); // a choice that does not apply can be undone
        QVERIFY2(w.controls().reason().contains(QLatin1String("CPU backend")), qPrintable(w.controls().reason()));
        QCOMPARE(w.session().generation(), generation); // nothing was sent
        choose(w, "halo", int(HaloMode::Auto));
        QVERIFY(w.controls().reason().isEmpty());
        QVERIFY(!halo->isEnabled());
    }

    void the_temporal_depth_reaches_the_engine_and_other_variants_run_one_step() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QSpinBox* depth = knob<QSpinBox>(w, "depth");
        QVERIFY(!depth->isEnabled());
        choose(w, "variant", int(Variant::Temporal));
        QVERIFY(depth->isEnabled());
        QCOMPARE(depth->value(), default_temporal_depth(engine_config(w).problem)); // starts from the default
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Temporal);
        depth->setValue(9);
        QTRY_COMPARE(engine_config(w).policy.depth, 9);
        choose(w, "rule", int(UpdateRule::Wave)); // refused with the engine's reason, nothing sent
        QVERIFY2(w.controls().reason().contains(QStringLiteral("wave rule")), qPrintable(w.controls().reason()));
        QCOMPARE(engine_config(w).problem.rule, UpdateRule::Jacobi);
        choose(w, "rule", int(UpdateRule::Jacobi));
        choose(w, "variant", int(Variant::Base));
        QVERIFY(!depth->isEnabled());
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Base);
        QCOMPARE(engine_config(w).policy.depth, 1);
    }

    // A temporal run steps in whole fused launches (issue 38: 18 steps per frame at depth 9 ran mostly one-step
    // launches): with 4 steps per frame at depth 3, every frame of the run lies a multiple of 3 steps after the last.
    // Issue 35: a 3D star turning temporal starts from the CF measured best on the star's kernel (4), and keeps it
    // when it goes back to a single-step variant; the CF box stays the user's afterwards.
    void a_3d_star_turning_temporal_starts_from_its_default_cf() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose(w, "dims", 3);
        QTRY_COMPARE(engine_config(w).problem.dims, 3);
        QCOMPARE(engine_config(w).policy.cf, 1);
        choose(w, "variant", int(Variant::Temporal));
        QCOMPARE(knob<QComboBox>(w, "cf")->currentData().toInt(), default_temporal_cf(engine_config(w)));
        QCOMPARE(knob<QComboBox>(w, "cf")->currentData().toInt(), 4);
        QTRY_COMPARE(engine_config(w).policy.cf, 4);
        QTRY_COMPARE(engine_config(w).policy.depth, 4);
        choose(w, "cf", 2); // the user's CF from now on
        QTRY_COMPARE(engine_config(w).policy.cf, 2);
    }

    void a_temporal_run_steps_in_whole_launches() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        choose(w, "variant", int(Variant::Temporal));
        knob<QSpinBox>(w, "depth")->setValue(3);
        QTRY_COMPARE(engine_config(w).policy.depth, 3);
        knob<QSpinBox>(w, "steps_per_frame")->setValue(4);
        QSignalSpy frames(&w.session(), &Session::frame);
        QTRY_VERIFY(frames.size() >= 6);
        std::vector<long long> iterations;
        for (const QList<QVariant>& f : frames) {
            const auto frame = f.at(0).value<FieldFrame>();
            if (frame.generation == w.session().generation()) iterations.push_back(frame.iteration);
        }
        QVERIFY(iterations.size() >= 3);
        for (std::size_t i = 1; i < iterations.size(); ++i)
            QVERIFY2((iterations[i] - iterations[i - 1]) % 3 == 0,
                qPrintable(QStringLiteral("%1 -> %2").arg(iterations[i - 1]).arg(iterations[i])));
    }

    void a_manual_block_is_checked_against_gpu_rules() {
        MainWindow w(cpu_options());
        w.show();
        knob<QCheckBox>(w, "heuristic")->setChecked(false);
        knob<QSpinBox>(w, "bx")->setValue(1024);
        knob<QSpinBox>(w, "by")->setValue(4);
        QVERIFY(knob<QLabel>(w, "heuristic_choice")->text().contains(QStringLiteral("threads")));
    }

    // With the heuristic on, the greyed block boxes show the block it chose (not a stale manual one), and
    // unticking it starts from that block.
    void the_block_boxes_show_the_heuristic_choice() {
        MainWindow w(cpu_options());
        ControlPanel& controls = w.controls();
        QVERIFY(knob<QCheckBox>(w, "heuristic")->isChecked());
        EngineReady ready;
        ready.settings = controls.settings();
        ready.settings.config.placement.backend = Backend::Cuda; // as a GPU run would report it
        ready.resources.block = { 64, 4, 1 };
        controls.show_engine_ready(ready); // not the requested run: nothing changes
        QCOMPARE(knob<QSpinBox>(w, "bx")->value(), controls.settings().config.policy.block.x);
        ready.settings = controls.settings();
        ready.resources.block = { 64, 4, 1 };
        controls.show_engine_ready(ready);
        QCOMPARE(knob<QSpinBox>(w, "bx")->value(), 64);
        QCOMPARE(knob<QSpinBox>(w, "by")->value(), 4);
        knob<QCheckBox>(w, "heuristic")->setChecked(false);
        QCOMPARE(controls.settings().config.policy.block, (BlockDims { 64, 4, 1 }));
    }
};

QTEST_MAIN(TestControlReasons)
#include "tst_control_reasons.moc"
