// SPDX-License-Identifier: MIT
// Issue 35: the variant auto in the window. On the CPU backend it resolves at once to base with the CPU's reason and
// the engine runs base; the combo offers it for the star and a box; a setup keeps it; `--variant auto` opens the
// window. On described GPUs (no CUDA here) the Session resolves it on the engine thread with a fake timer: the
// fastest candidate is chosen and requested, a second tune answers from the cache, a newer request supersedes one.
#include "app/gui/gui_options.h"
#include "app/gui/window_request.h"
#include "gpu/plan/validation.h"
#include "gpu/studies/auto_choice.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/control_panel.h"
#include "widgets/main_window.h"
#include "widgets/stencil_picker.h"
#include "window_test_support.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;
using namespace ss::gui::test;

namespace {

bool auto_item_enabled(MainWindow& w) {
    auto* variant = knob<QComboBox>(w, "variant");
    auto* items = qobject_cast<QStandardItemModel*>(variant->model());
    const int index = variant->findData(int(Variant::Auto));
    return items && index >= 0 && items->item(index)->isEnabled();
}

RunSettings auto_on_the_gpu(int n) {
    RunSettings s;
    s.config.placement.backend = Backend::Cuda;
    s.config.problem.size = { n, n, 1 };
    s.config.policy.variant = Variant::Auto;
    return s;
}

// The fake timer: temporal gets faster with depth, the single-step kernels with CF; every candidate differs.
double fake_ms_per_step(const StencilConfig& c) {
    const double ms = c.policy.variant == Variant::Temporal ? 1.0 / c.policy.depth : 2.0 / c.policy.cf;
    return ms + 0.001 * int(c.policy.variant);
}

StencilConfig fastest_candidate(const StencilConfig& request, const DeviceCatalogue& devices) {
    StencilConfig best;
    double best_rate = 0.0;
    for (const AutoCandidate& candidate : auto_candidates(request, devices))
        if (const double rate = gcells_per_s(candidate.config, fake_ms_per_step(candidate.config)); rate > best_rate)
            best = candidate.config, best_rate = rate;
    return best;
}

} // namespace

class TestAutoVariant : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_cache.isValid());
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8()); // auto's tunes are stored here, not in the user's cache
    }

    void on_the_cpu_auto_runs_base_and_says_why() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QVERIFY(auto_item_enabled(w));
        auto* reason_line = knob<QLabel>(w, "res_auto");
        QVERIFY(!reason_line->isVisible()); // no auto, no line
        choose(w, "variant", int(Variant::Auto));
        const AutoVariantState& a = w.session().auto_variant();
        QVERIFY(a.selected && a.chosen && !a.tuning); // nothing to time: resolved at once
        QCOMPARE(a.chosen->config.policy.variant, Variant::Base);
        QVERIFY2(a.reason.contains(QStringLiteral("CPU backend")), qPrintable(a.reason));
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Base);
        QCOMPARE(w.session().requested().config.policy.variant, Variant::Base);
        QCOMPARE(knob<QComboBox>(w, "variant")->currentData().toInt(), int(Variant::Auto)); // auto stays chosen
        QVERIFY(reason_line->isVisible());
        QCOMPARE(reason_line->text(), a.reason);
        QVERIFY(w.controls().reason().isEmpty());
        // What auto decides is shown, not editable, and says so.
        for (const char* name : { "cf", "heuristic", "bx", "depth" }) {
            QVERIFY2(!knob<QWidget>(w, name)->isEnabled(), name);
            QVERIFY2(knob<QWidget>(w, name)->toolTip().contains(QStringLiteral("variant auto")), name);
        }
        QCOMPARE(w.session().current_setup().settings.config.policy.variant, Variant::Auto);

        // Another variant leaves auto: the line goes, the knobs open, that variant runs.
        choose(w, "variant", int(Variant::Smem));
        QVERIFY(!w.session().auto_variant().selected);
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Smem);
        QVERIFY(!reason_line->isVisible());
        QVERIFY(knob<QWidget>(w, "cf")->isEnabled());
        QVERIFY(!knob<QWidget>(w, "cf")->toolTip().contains(QStringLiteral("variant auto")));
    }

    void the_combo_offers_auto_for_a_box() {
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QComboBox* stencil = knob<QComboBox>(w, "stencil");
        stencil->setCurrentIndex(stencil->findData(QStringLiteral("box"), kStencilNameRole));
        QTRY_COMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        QVERIFY(auto_item_enabled(w));
        choose(w, "variant", int(Variant::Auto));
        QVERIFY(w.session().auto_variant().chosen);
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Base);
        QCOMPARE(engine_config(w).problem.stencil, StencilKind::Points);
        QVERIFY(w.controls().reason().isEmpty());
    }

    void a_setup_keeps_auto() {
        RunSettings chosen;
        QByteArray json;
        {
            MainWindow w(cpu_options());
            w.show();
            QTRY_VERIFY(w.session().has_simulation());
            choose(w, "variant", int(Variant::Auto));
            json = setup_to_json(w.session().current_setup());
        }
        QVERIFY2(json.contains("\"variant\": \"auto\""), json.constData());
        QVERIFY2(!json.contains("\"cf\"") && !json.contains("\"block\""), json.constData()); // auto chooses them
        SetupState back;
        QString why;
        QVERIFY2(setup_from_json(json, cpu_options().settings, back, &why), qPrintable(why));
        QCOMPARE(back.settings.config.policy.variant, Variant::Auto);
        MainWindow w(cpu_options());
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QVERIFY2(w.session().apply_setup(back, &why), qPrintable(why));
        QVERIFY(w.session().auto_variant().selected);
        QCOMPARE(knob<QComboBox>(w, "variant")->currentData().toInt(), int(Variant::Auto));
        QTRY_COMPARE(engine_config(w).policy.variant, Variant::Base);
        QCOMPARE(setup_to_json(w.session().current_setup()), json);
    }

    void the_command_line_opens_the_window_on_auto() {
        GuiOptions o;
        const Status parsed
            = parse_gui_options({ "--backend", "cpu", "--variant", "auto", "--size", "64x48" }, o, false);
        QVERIFY2(parsed.ok, parsed.reason.c_str());
        o.window.devices = DeviceCatalogue {};
        QCOMPARE(check_window_request(o), std::string());
        o.window.restore_layout = false;
        o.window.renderer = FieldView::Renderer::Raster;
        MainWindow w(o.window);
        w.show();
        QTRY_VERIFY(w.session().has_simulation());
        QCOMPARE(engine_config(w).policy.variant, Variant::Base);
        QCOMPARE(knob<QComboBox>(w, "variant")->currentData().toInt(), int(Variant::Auto));
        QVERIFY(!parse_gui_options({ "--backend", "cpu", "--variant", "auto", "--cf", "2" }, o, false).ok);
        QVERIFY(!parse_gui_options({ "--variant", "auto", "--autotune" }, o, false).ok);
    }

    // No CUDA here: described GPUs plan it, a fake timer times it on the engine thread (which then cannot create the
    // chosen simulation: that failure is the engine's, after auto has chosen).
    void on_a_gpu_auto_times_its_candidates_off_the_gui_thread() {
        const DeviceCatalogue devices = test::described_h100s(1);
        Session session(devices);
        session.set_auto_timer(fake_ms_per_step);
        QSignalSpy changed(&session, &Session::settings_changed);
        const RunSettings asked = auto_on_the_gpu(1024);
        const StencilConfig expected = fastest_candidate(auto_request(asked.config), devices);
        QCOMPARE_NE(expected.policy.variant, Variant::Auto);
        QString why;
        QVERIFY2(session.request(asked, &why), qPrintable(why));
        QVERIFY(session.auto_variant().tuning); // the request returns before anything is timed
        QVERIFY(session.auto_variant().candidates > 1);
        QCOMPARE(changed.count(), 0); // nothing runs until auto has chosen
        QTRY_VERIFY(session.auto_variant().chosen.has_value());
        QCOMPARE(session.auto_variant().chosen->config, expected);
        QCOMPARE(session.requested().config, expected);
        QCOMPARE(changed.count(), 1);
        QVERIFY2(session.auto_variant().reason.contains(QStringLiteral("fastest of")),
            qPrintable(session.auto_variant().reason));
        QVERIFY(!session.auto_variant().reason.contains(QStringLiteral("(cached)")));

        // The same question again (another window): the cache answers.
        Session again(devices);
        again.set_auto_timer([](const StencilConfig&) -> double { throw std::runtime_error("not timed again"); });
        QVERIFY(again.request(asked));
        QTRY_VERIFY(again.auto_variant().chosen.has_value());
        QCOMPARE(again.auto_variant().chosen->config, expected);
        QVERIFY2(
            again.auto_variant().reason.contains(QStringLiteral("(cached)")), qPrintable(again.auto_variant().reason));
    }

    // The window on a described GPU: the kernel box says what is timed, then why auto chose what runs.
    void the_kernel_box_says_what_is_timed_then_why() {
        WindowOptions o = cpu_options();
        o.devices = test::described_h100s(1);
        o.settings = auto_on_the_gpu(512);
        o.settings.config.policy.variant = Variant::Base;
        MainWindow w(o);
        w.session().set_auto_timer(fake_ms_per_step);
        w.show();
        choose(w, "variant", int(Variant::Auto));
        QVERIFY(w.session().auto_variant().tuning);
        auto* line = knob<QLabel>(w, "res_auto");
        QVERIFY2(line->text().startsWith(
                     QStringLiteral("auto: timing %1 candidates").arg(w.session().auto_variant().candidates)),
            qPrintable(line->text()));
        QCOMPARE(w.session().requested().config.policy.variant, Variant::Base); // the previous configuration stays
        QTRY_VERIFY(w.session().auto_variant().chosen.has_value());
        QCOMPARE(line->text(), w.session().auto_variant().reason);
        QVERIFY(line->text().contains(QStringLiteral("fastest of")));
        const StencilConfig& chosen = w.session().auto_variant().chosen->config;
        QCOMPARE(knob<QComboBox>(w, "variant")->currentData().toInt(), int(Variant::Auto));
        QCOMPARE(knob<QComboBox>(w, "cf")->currentData().toInt(), chosen.policy.cf); // shown as chosen
        QCOMPARE(knob<QSpinBox>(w, "depth")->value(), chosen.policy.depth);
    }

    void a_newer_request_supersedes_a_tune() {
        const DeviceCatalogue devices = test::described_h100s(1);
        Session session(devices);
        session.set_auto_timer(fake_ms_per_step);
        QSignalSpy changed(&session, &Session::settings_changed);
        QVERIFY(session.request(auto_on_the_gpu(640)));
        QVERIFY(session.request(auto_on_the_gpu(768))); // before the first tune has answered
        QTRY_VERIFY(session.auto_variant().chosen.has_value());
        QCOMPARE(session.auto_variant().chosen->config.problem.size.nx, 768);
        QCOMPARE(session.requested().config.problem.size.nx, 768);
        QTest::qWait(200);
        QCOMPARE(changed.count(), 1); // the superseded tune's answer never ran

        // Another variant while auto tunes: auto is left, its answer never runs.
        QVERIFY(session.request(auto_on_the_gpu(896)));
        RunSettings base = auto_on_the_gpu(896);
        base.config.policy.variant = Variant::Base;
        QVERIFY(session.request(base));
        QVERIFY(!session.auto_variant().selected);
        QTest::qWait(300);
        QCOMPARE(session.requested().config, base.config);
        QVERIFY(!session.auto_variant().selected);
    }

private:
    QTemporaryDir m_cache;
};

QTEST_MAIN(TestAutoVariant)
#include "tst_auto_variant.moc"
