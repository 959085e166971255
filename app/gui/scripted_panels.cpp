// SPDX-License-Identifier: MIT
#include "app/gui/scripted_panels.h"
#include "app/gui/scripted_run.h"
#include "app/gui/scripted_wait.h"

#include "session/exercise_jobs.h"
#include "session/session.h"
#include "widgets/export_util.h"
#include "widgets/kernel_exercise_dialog.h"
#include "widgets/kernel_source_view.h"
#include "widgets/main_window.h"
#include "widgets/roofline_chart.h"
#include "widgets/roofline_window.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>

#include <ostream>
#include <utility>
#include <vector>

namespace ss::gui {
namespace {

// What a picture waits for may never come while frames keep coming (a profiled launch that never carries DRAM
// bytes, a compile that hangs): the stall guard would not end that wait.
constexpr int kContentSeconds = 120;

bool wait_for_content(MainWindow& w, const std::function<bool()>& arrived, const std::string& what, std::ostream& err) {
    QElapsedTimer clock;
    clock.start();
    bool late = false;
    std::string why;
    const bool ok = wait_until(
        w,
        [&] {
            if (arrived()) return true;
            late = clock.elapsed() > kContentSeconds * 1000;
            return late;
        },
        why);
    if (!ok) {
        err << "stencilscope: " << why << "\n";
        return false;
    }
    if (late) err << "stencilscope: " << what << " did not arrive within " << kContentSeconds << " s\n";
    return !late;
}

bool grab(QWidget& widget, const std::string& path, std::ostream& err) {
    QCoreApplication::processEvents(); // the last signals' redraw and layout come before the grab
    QString why;
    if (save_widget_png(&widget, QString::fromStdString(path), &why)) return true;
    err << "stencilscope: " << why.toStdString() << "\n";
    return false;
}

// The line on stdout: which file, and what the picture shows in words.
void report(std::ostream& out, const std::string& what, const std::string& files, const QString& shows) {
    out << what << ": " << files << ": " << shows.simplified().toStdString() << "\n";
}

// View > Roofline (opened directly: on the CPU backend the menu item is off, and the picture shows why).
int roofline_picture(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    Session& s = w.session();
    auto* window = w.findChild<RooflineWindow*>();
    if (!window) window = new RooflineWindow(s, &w);
    int stats_windows = 0;
    QObject scope; // the connection ends with this function
    QObject::connect(&s, &Session::stats, &scope, [&] { ++stats_windows; });
    window->show();
    s.request_roofline_ceilings(); // as its showEvent does (once per GPU): not measuring then means measured
    const bool gpu = s.requested().config.placement.backend == Backend::Cuda;
    // With counters on the point's traffic is the profiled launch's DRAM bytes, not the ideal.
    const bool counted = s.counters() && s.counters_unavailable().isEmpty();
    const auto arrived = [&] {
        if (!gpu) // the chart says why there is no roofline
            return window->chart().reason() == QString::fromStdString(s.roofline_ceilings().unavailable);
        // Statistics windows counted from when the ceilings were measured: the window that held the measurement
        // (the engine thread ran the ceilings' kernels in it) is not the kernel's own pace.
        if (s.roofline_ceilings_measuring()) stats_windows = 0;
        if (s.roofline_ceilings_measuring() || stats_windows < 2) return false;
        const RooflinePoint point = s.roofline_point();
        return point.valid() && (!counted || point.measured_traffic);
    };
    const std::string what = counted ? "the roofline's ceilings and a profiled launch's point"
                                     : "the roofline's ceilings and the kernel's point";
    if (!wait_for_content(w, arrived, what, err)) return 1;
    if (!grab(*window, o.roofline_screenshot, err)) return 1;
    const std::string exported = roofline_export_path(o.roofline_screenshot);
    QString why;
    if (!window->export_png(QString::fromStdString(exported), &why)) {
        err << "stencilscope: " << why.toStdString() << "\n";
        return 1;
    }
    const QString reason = window->chart().reason();
    report(out, "roofline", o.roofline_screenshot + ", " + exported,
        reason.isEmpty() ? window->chart().point_summary() : reason);
    return 0;
}

// View > Kernel source for the requested configuration, as the menu opens it.
int kernel_source_picture(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    auto* view = w.findChild<KernelSourceView*>();
    if (!view) view = new KernelSourceView(&w.session(), &w);
    view->show_configuration(w.session().requested().config);
    view->show();
    if (!wait_for_content(
            w, [&] { return !view->waiting(); }, "the kernel source text", err))
        return 1;
    if (!grab(*view, o.kernel_source_screenshot, err)) return 1;
    const auto* about = view->findChild<QLabel*>(QStringLiteral("kernel_about"));
    report(out, "kernel source", o.kernel_source_screenshot, about ? about->text() : QString());
    return 0;
}

// Lessons > Write the kernel; with --exercise-run its button pressed and the result waited for.
int exercise_picture(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    open_kernel_exercise(w.session(), &w);
    auto* dialog = w.findChild<KernelExerciseDialog*>();
    if (!dialog) {
        err << "stencilscope: the Write the kernel dialog did not open\n";
        return 1;
    }
    if (o.exercise_run) {
        bool finished = false;
        QObject scope;
        QObject::connect(&w.session(), &Session::job_finished, &scope, [&] { finished = true; });
        if (!dialog->check()) {
            err << "stencilscope: --exercise-run: the check did not start: "
                << dialog->result_text().simplified().toStdString() << "\n";
            return 1;
        }
        if (!wait_for_content(
                w, [&] { return finished; }, "the exercise's result", err))
            return 1;
    }
    if (!grab(*dialog, o.exercise_screenshot, err)) return 1;
    report(out, "exercise", o.exercise_screenshot,
        o.exercise_run ? dialog->result_text() : QStringLiteral("the template, not checked"));
    return 0;
}

} // namespace

std::string roofline_export_path(const std::string& screenshot) {
    const QString path = QString::fromStdString(screenshot);
    const QString stem = path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive) ? path.chopped(4) : path;
    return (stem + QStringLiteral("-export.png")).toStdString();
}

std::string precheck_panel_screenshots(const GuiOptions& o) {
    std::vector<std::pair<std::string, std::string>> outputs = { { "--screenshot", o.screenshot },
        { "--window-screenshot", o.window_screenshot }, { "--roofline-screenshot", o.roofline_screenshot },
        { "--kernel-source-screenshot", o.kernel_source_screenshot },
        { "--exercise-screenshot", o.exercise_screenshot } };
    if (!o.roofline_screenshot.empty())
        outputs.emplace_back("--roofline-screenshot's export", roofline_export_path(o.roofline_screenshot));
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (outputs[i].second.empty()) continue;
        if (auto p = writable_problem(outputs[i].second); !p.empty()) return p;
        const QString file = QFileInfo(QString::fromStdString(outputs[i].second)).absoluteFilePath();
        for (std::size_t j = 0; j < i; ++j)
            if (!outputs[j].second.empty()
                && QFileInfo(QString::fromStdString(outputs[j].second)).absoluteFilePath() == file)
                return outputs[j].first + " and " + outputs[i].first + " name the same file " + outputs[i].second;
    }
    if (o.exercise_run)
        if (const std::string why = kernel_exercise_unavailable(); !why.empty())
            return "--exercise-run: nothing can be compiled here: " + why;
    return {};
}

int run_panel_screenshots(MainWindow& w, const GuiOptions& o, std::ostream& out, std::ostream& err) {
    if (!o.roofline_screenshot.empty())
        if (const int rc = roofline_picture(w, o, out, err); rc != 0) return rc;
    if (!o.kernel_source_screenshot.empty())
        if (const int rc = kernel_source_picture(w, o, out, err); rc != 0) return rc;
    if (!o.exercise_screenshot.empty()) return exercise_picture(w, o, out, err); // last: its check pauses the run
    return 0;
}

} // namespace ss::gui
