// SPDX-License-Identifier: MIT
// One knob change, one plan: the control panel shows the reason, the halo and split choices and the heuristic's
// block from the Session's plan of the knobs, and the request reuses it. No GPU: the devices are described.
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/validation.h"
#include "session/session.h"
#include "widgets/control_panel.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

// 512 x 40 cells on two GPUs cut along x: R4 leaves 16 rows per strip along y, R12 only 8, thinner than its ghost
// rows, so a radius change turns the y (slowest) choices off.
RunSettings split_along_x() {
    RunSettings s;
    StencilConfig& c = s.config;
    c.problem.size = { 512, 40, 1 };
    c.problem.radius = 4;
    c.placement.gpus = 2;
    c.placement.split = SplitAxis::X;
    c.placement.overlap = false;
    return s;
}

template <typename W> W* child(QWidget& w, const char* name) {
    W* found = w.findChild<W*>(QLatin1String(name));
    if (!found) qFatal("no control named %s", name);
    return found;
}

// Each item of a halo or split box is enabled where can_implement accepts the knobs with it chosen (the current
// choice stays open so that it can be undone), with the refusal as its tooltip.
template <typename Choice, typename Switch>
void expect_items_follow_can_implement(
    QComboBox& box, const StencilConfig& knobs, const DeviceCatalogue& devices, Choice current, Switch switched) {
    auto* items = qobject_cast<QStandardItemModel*>(box.model());
    QVERIFY(items);
    for (int i = 0; i < box.count(); ++i) {
        const Choice choice = Choice(box.itemData(i).toInt());
        const Status verdict = can_implement(switched(knobs, choice), devices);
        QCOMPARE(items->item(i)->isEnabled(), verdict.ok || choice == current);
        QCOMPARE(items->item(i)->toolTip(), verdict.ok ? QString() : QString::fromStdString(verdict.reason));
    }
}

void expect_choices_follow_can_implement(ControlPanel& panel, const DeviceCatalogue& devices) {
    const StencilConfig knobs = panel.settings().config;
    expect_items_follow_can_implement(
        *child<QComboBox>(panel, "halo"), knobs, devices, knobs.placement.halo, [](StencilConfig c, HaloMode mode) {
            c.placement.halo = mode;
            return c;
        });
    expect_items_follow_can_implement(
        *child<QComboBox>(panel, "split"), knobs, devices, knobs.placement.split, [](StencilConfig c, SplitAxis axis) {
            c.placement.split = axis;
            if (!splits_slowest(c)) c.placement.overlap = false;
            return c;
        });
}

bool item_enabled(QComboBox& box, int data) {
    return qobject_cast<QStandardItemModel*>(box.model())->item(box.findData(data))->isEnabled();
}

} // namespace

class TestLaunchPlan : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void a_radius_change_evaluates_one_plan_and_the_choices_follow_it() {
        const DeviceCatalogue devices = test::described_h100s(2);
        Session session(devices);
        ControlPanel panel(session);
        panel.set_settings(split_along_x());
        QVERIFY2(panel.reason().isEmpty(), qPrintable(panel.reason()));
        expect_choices_follow_can_implement(panel, devices);
        auto& split = *child<QComboBox>(panel, "split");
        QVERIFY(item_enabled(split, int(SplitAxis::Slowest)));
        QVERIFY(!item_enabled(split, int(SplitAxis::Z))); // a 2D domain has no z
        QVERIFY(!item_enabled(*child<QComboBox>(panel, "halo"), int(HaloMode::Remote))); // no peer access

        const std::uint64_t before = launch_plan_evaluations();
        child<QSpinBox>(panel, "radius")->setValue(12);
        QCOMPARE(launch_plan_evaluations() - before, std::uint64_t(1));
        QCOMPARE(session.requested().config.problem.radius, 12); // requested with that plan, not judged again
        expect_choices_follow_can_implement(panel, devices);
        QVERIFY(!item_enabled(split, int(SplitAxis::Slowest))); // 8 rows per strip, R12 ghost rows
        QVERIFY(!item_enabled(split, int(SplitAxis::Y)));
        QVERIFY(item_enabled(split, int(SplitAxis::X)));

        // The heuristic's preview is the plan's, on the selected GPU: what heuristic_block says there.
        const StencilConfig knobs = panel.settings().config;
        const DeviceInfo& gpu = devices.devices.front();
        const auto block = heuristic_block(knobs, gpu.max_threads_per_block, &gpu);
        QVERIFY(block);
        QCOMPARE(child<QLabel>(panel, "heuristic_choice")->text(),
            QStringLiteral("heuristic: %1 on %2")
                .arg(QString::fromStdString(format_block(*block)), QString::fromStdString(gpu.name)));
    }

    // A refused change also costs one plan: the reason line and the choices come from it, nothing is requested.
    void a_refused_change_evaluates_one_plan_and_says_why() {
        const DeviceCatalogue devices = test::described_h100s(2);
        Session session(devices);
        ControlPanel panel(session);
        RunSettings s = split_along_x();
        s.config.placement.split = SplitAxis::Slowest;
        panel.set_settings(s);
        QVERIFY2(panel.reason().isEmpty(), qPrintable(panel.reason()));
        const std::uint64_t generation = session.generation();
        const std::uint64_t before = launch_plan_evaluations();
        child<QSpinBox>(panel, "radius")->setValue(12);
        QCOMPARE(launch_plan_evaluations() - before, std::uint64_t(1));
        const Status verdict = can_implement(panel.settings().config, devices);
        QVERIFY(!verdict.ok);
        QVERIFY2(panel.reason().contains(QString::fromStdString(verdict.reason)), qPrintable(panel.reason()));
        QCOMPARE(session.generation(), generation);
        expect_choices_follow_can_implement(panel, devices);
    }

    // On the CPU backend the run starts, and its ready (the heuristic's preview again) costs no further plan.
    void the_engines_answer_reuses_the_plan() {
        Session session { DeviceCatalogue {} };
        ControlPanel panel(session);
        RunSettings s;
        s.config.placement.backend = Backend::Cpu;
        s.config.problem.size = { 64, 64, 1 };
        QVERIFY(session.request(s)); // the panel follows the session
        QCOMPARE(panel.settings(), s);
        QTRY_VERIFY(session.has_simulation());
        const std::uint64_t before = launch_plan_evaluations();
        child<QSpinBox>(panel, "radius")->setValue(3);
        QTRY_COMPARE(session.active().settings.config.problem.radius, 3);
        QCOMPARE(launch_plan_evaluations() - before, std::uint64_t(1));
        const auto* choice = child<QLabel>(panel, "heuristic_choice");
        QVERIFY2(choice->text().endsWith(QLatin1String("(CPU: no blocks)")), qPrintable(choice->text()));
        QVERIFY2(choice->toolTip().endsWith(QLatin1String("(the CPU backend has no blocks)")),
            qPrintable(choice->toolTip())); // the GPU the preview is for, in the tooltip
    }
};

QTEST_MAIN(TestLaunchPlan)
#include "tst_launch_plan.moc"
