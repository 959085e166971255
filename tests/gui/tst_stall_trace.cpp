// SPDX-License-Identifier: MIT
// The soak's stall trace (STENCILSCOPE_STALL_TRACE): a thread that misses its heartbeat gets its call stack written,
// a few times per stall; a thread that beats gets none.
#include "app/gui/stall_trace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <thread>

using namespace ss::gui;

namespace {

// Not inlined, so that its frame is on the stack the trace writes.
[[gnu::noinline]] void stay_away_from_the_loop(std::chrono::milliseconds how_long) {
    std::this_thread::sleep_for(how_long);
}

} // namespace

class TestStallTrace : public QObject {
    Q_OBJECT
private slots:
    void a_stall_writes_the_stalled_threads_stack() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("stalls.txt"));
        {
            StallTrace trace(path.toStdString(), 20.0);
            QVERIFY(trace.ok());
            stay_away_from_the_loop(std::chrono::milliseconds(120));
            QVERIFY(trace.stacks() >= 1);
            QVERIFY(trace.stacks() <= 4); // at most four per stall
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.startsWith("stall: the GUI thread has been away "), text.left(80).constData());
        QVERIFY(text.contains("--\n")); // a stack, ended
        QVERIFY(text.count('\n') > 4); // frames, not only the header
    }

    void a_thread_that_beats_is_not_sampled() {
        QTemporaryDir dir;
        StallTrace trace(dir.filePath(QStringLiteral("none.txt")).toStdString(), 40.0);
        for (int i = 0; i < 60; ++i) {
            trace.beat();
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        QCOMPARE(trace.stacks(), 0);
    }

    void an_unwritable_path_is_reported() {
        StallTrace trace("/nonexistent-folder/stalls.txt", 40.0);
        QVERIFY(!trace.ok());
    }
};

QTEST_GUILESS_MAIN(TestStallTrace)
#include "tst_stall_trace.moc"
