// SPDX-License-Identifier: MIT
// View > Kernel source on a machine without a GPU (the CPU backend): the window's menu opens it on the configuration
// it runs; the source tabs show the generated CUDA text, the PTX tab NVRTC's PTX (or why there is none), the SASS tab
// the disassembly or why there is none; the comparison of base with smem shows the tile's lines as added.
#include "session/session.h"
#include "widgets/kernel_source_view.h"
#include "widgets/main_window.h"
#include "window_test_support.h"

#include <QAction>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

QAction* menu_action(QWidget& w, const QString& text) {
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

} // namespace

class TestKernelSource : public QObject {
    Q_OBJECT
private slots:
    void the_menu_opens_the_running_configurations_kernel() {
        MainWindow w(test::cpu_options());
        w.show();
        QAction* open = menu_action(w, QStringLiteral("&Kernel source..."));
        QVERIFY(open);
        open->trigger();
        auto* view = w.findChild<KernelSourceView*>();
        QVERIFY(view);
        QVERIFY(view->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!view->waiting(), 60000);
        const QString source = view->source_text(false);
        QVERIFY2(source.contains(QStringLiteral("#define VARIANT ")), qPrintable(source.left(400)));
        QVERIFY(source.contains(QStringLiteral("__global__")));
        const QString about = view->findChild<QLabel*>(QStringLiteral("kernel_about"))->text();
        QVERIFY2(about.contains(QStringLiteral("CPU backend")), qPrintable(about));
        // NVRTC is loaded at run time: its PTX, or the reason it is missing.
        const QString ptx = view->ptx_text();
        QVERIFY2(ptx.contains(QStringLiteral(".entry ss_")) || ptx.contains(QStringLiteral("no PTX")),
            qPrintable(ptx.left(400)));
        QVERIFY(!view->sass_text().isEmpty()); // the SASS, or why there is none
    }

    void base_against_smem_shows_the_tile() {
        const DeviceCatalogue none;
        Session session(none);
        KernelSourceView view(&session);
        StencilConfig base;
        base.placement.backend = Backend::Cpu;
        base.problem.size = { 256, 256, 1 };
        base.policy.variant = Variant::Base;
        view.show_configuration(base);
        view.set_comparison(Variant::Smem, 1);
        QTRY_VERIFY_WITH_TIMEOUT(!view.waiting(), 60000);
        QVERIFY(view.differing_rows() > 0);
        const QString left = view.findChild<QPlainTextEdit*>(QStringLiteral("diff_left"))->toPlainText();
        const QString right = view.findChild<QPlainTextEdit*>(QStringLiteral("diff_right"))->toPlainText();
        QVERIFY(!left.contains(QStringLiteral("__syncthreads")));
        QVERIFY(right.contains(QStringLiteral("__syncthreads")));
        QVERIFY(right.contains(QStringLiteral("#define VARIANT 1")));
        // A second request supersedes the first: CF 4 replaces the comparison.
        view.set_comparison(Variant::Base, 4);
        QTRY_VERIFY_WITH_TIMEOUT(!view.waiting(), 60000);
        const QString cf4 = view.findChild<QPlainTextEdit*>(QStringLiteral("diff_right"))->toPlainText();
        QVERIFY(cf4.contains(QStringLiteral("#define CF 4")));
        QVERIFY(!cf4.contains(QStringLiteral("__syncthreads")));
    }
};

QTEST_MAIN(TestKernelSource)
#include "tst_kernel_source.moc"
