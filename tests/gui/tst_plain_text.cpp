// SPDX-License-Identifier: MIT
// Issue 36, class 3: text from a file, the command line or the device is shown as plain text. A sweep CSV whose
// series and device hold markup (a huge red span, an <img> of a local file) is charted, tabled and captioned
// with that markup escaped: no chart title, legend, axis or category draws it as HTML, no label or tooltip
// guesses rich text from it. The helpers of widgets/plain_text.h are checked on their own too.
#include "reports/csv.h"
#include "reports/experiment_report.h"
#include "session/session.h"
#include "widgets/experiments_window.h"
#include "widgets/main_window.h"
#include "widgets/plain_text.h"
#include "widgets/run_status_bar.h"
#include "window_test_support.h"

#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ss;
using namespace ss::gui;

namespace {

const char* const kSpan = "<span style=\"font-size:40pt;color:red\">X</span>";
const char* const kImage = "<img src=\"/etc/hostname\">";

// Every text a chart draws as HTML: its title, its axes' titles and categories, its series' and bar sets' names.
QStringList chart_texts(QChart* chart) {
    QStringList texts { chart->title() };
    for (QAbstractAxis* axis : chart->axes()) {
        texts << axis->titleText();
        if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) texts << categories->categories();
    }
    for (QAbstractSeries* series : chart->series()) {
        texts << series->name();
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(series))
            for (QBarSet* set : bars->barSets()) texts << set->label();
    }
    return texts;
}

bool raw_markup(const QString& text) {
    return text.contains(QLatin1String("<span")) || text.contains(QLatin1String("<img"));
}

// No label shows markup from outside as rich text, no tooltip holds it raw (Qt would render it).
void check_widgets(QWidget& top) {
    for (QLabel* label : top.findChildren<QLabel*>()) {
        if (!raw_markup(label->text())) continue;
        QVERIFY2(label->textFormat() == Qt::PlainText,
            qPrintable(label->objectName() + QLatin1String(": ") + label->text()));
    }
    for (QWidget* w : top.findChildren<QWidget*>())
        QVERIFY2(!raw_markup(w->toolTip()), qPrintable(w->objectName() + QLatin1String(": ") + w->toolTip()));
}

} // namespace

class TestPlainText : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void the_helpers_keep_text_as_given() {
        QCOMPARE(chart_text(QString::fromLatin1(kSpan)),
            QStringLiteral("&lt;span style=&quot;font-size:40pt;color:red&quot;&gt;X&lt;/span&gt;"));
        QCOMPARE(chart_text(QStringLiteral("base")), QStringLiteral("base"));
        // Plain text stays as it is; text Qt would take for markup becomes HTML that shows it as given.
        QCOMPARE(tooltip_text(QStringLiteral("line 1\nline 2")), QStringLiteral("line 1\nline 2"));
        const QString tip = tooltip_text(QString::fromLatin1(kImage));
        QVERIFY(Qt::mightBeRichText(tip));
        QVERIFY(!tip.contains(QLatin1String("<img")));
        QVERIFY(tip.contains(QLatin1String("&lt;img")));
        QLabel label;
        QCOMPARE(plain_label(&label), &label);
        QCOMPARE(label.textFormat(), Qt::PlainText);
    }

    void a_sweep_csv_with_markup_is_shown_as_text() {
        QTemporaryDir dir;
        std::vector<ExperimentPoint> points;
        for (int radius : { 1, 4 })
            for (const char* series : { "base", kSpan, kImage }) {
                ExperimentPoint p;
                p.config.problem.radius = radius;
                p.config.problem.size = { 4096, 4096, 1 };
                p.config.policy.variant = std::string_view(series) == "base" ? Variant::Base : Variant::Smem;
                p.config.policy.block = { 32, 8, 1 };
                p.series = series;
                p.gcells_per_s = 100.0 + radius;
                p.ms_per_step = 0.1;
                p.improvement = 1.0;
                p.error = std::string_view(series) == kImage ? kImage : "";
                points.push_back(p);
            }
        const std::string path = dir.filePath(QStringLiteral("hostile.csv")).toStdString();
        const std::string device = std::string(kSpan) + kImage;
        QVERIFY(append_csv(
            path, experiment_csv_header(), experiment_csv_rows(ExperimentKind::Radius, points, device, "2026-01-01")));
        Session engine { DeviceCatalogue {} };
        ExperimentsWindow window(engine);
        window.resize(1200, 800);
        window.show();
        QString why;
        QVERIFY2(window.open_results(QString::fromStdString(path), &why), qPrintable(why));
        QCoreApplication::processEvents();
        int charts = 0;
        bool escaped_series = false;
        for (QChartView* view : window.findChildren<QChartView*>()) {
            ++charts;
            for (const QString& text : chart_texts(view->chart())) {
                QVERIFY2(!raw_markup(text), qPrintable(text));
                escaped_series = escaped_series || text.contains(QLatin1String("&lt;span"));
            }
        }
        QVERIFY(charts >= 3);
        QVERIFY(escaped_series); // the series is charted, its name escaped
        QVERIFY(window.status_text().contains(QString::fromStdString(device))); // named as given...
        check_widgets(window); // ...as plain text
        // The PNG's caption (its text metadata and the strip under the charts) keeps the device as given.
        QVERIFY(window.sweep_caption().contains(QString::fromStdString(device)));
    }

    void the_window_shows_outside_text_as_plain_text() {
        MainWindow w(test::cpu_options());
        w.show();
        // What the status bar's notice and its details say (a reason from the command line or the device).
        auto* status = qobject_cast<RunStatusBar*>(w.statusBar());
        QVERIFY(status);
        status->set_notice(QString::fromLatin1(kSpan), QString::fromLatin1(kImage));
        check_widgets(w);
    }
};

QTEST_MAIN(TestPlainText)
#include "tst_plain_text.moc"
