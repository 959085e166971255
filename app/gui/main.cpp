// SPDX-License-Identifier: MIT
// stencilscope: the live visualiser. See gui_options.cpp for the command line.
#include "app/gui/gui_options.h"
#include "app/gui/platform_guard.h"
#include "app/gui/scripted_run.h"
#include "app/gui/window_request.h"
#include "gpu/io/kernel_disk_cache.h"
#include "gpu/problem/device.h"
#include "reports/standard_streams.h"
#include "session/session.h"
#include "session/setup_file.h"
#include "widgets/autotune_dialog.h"
#include "widgets/experiments_window.h"

#include <QApplication>
#include <QFileInfo>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTemporaryDir>

#include <future>
#include <iostream>
#include <memory>

namespace {

bool home_exists() {
    const QByteArray home = qgetenv("HOME");
    return !home.isEmpty() && QFileInfo(QFile::decodeName(home)).isDir();
}

// Runs that must leave the user's settings alone get a settings store of their own, removed at exit: a scripted
// run (pictures, benchmark, soak, sweep chart) is reproducible and must not overwrite the choices of the user's
// window (its counters, its layout), and without a home directory QSettings would create one.
std::unique_ptr<QTemporaryDir> private_settings(const ss::gui::GuiOptions& o) {
    if (!o.scripted() && !o.benchmark() && !o.soak() && o.sweep_png.empty() && home_exists()) return nullptr;
    auto dir = std::make_unique<QTemporaryDir>();
    if (!dir->isValid()) return nullptr;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir->path());
    return dir;
}

} // namespace

namespace {

// The program's exit status, before stdout's writes are checked (main).
int run_window_program(int argc, char** argv) {
    using namespace ss::gui;
    const std::vector<std::string> args(argv + 1, argv + argc);
    // The one query of the machine, off the GUI thread (the engine thread owns every later CUDA call).
    ss::DeviceCatalogue devices = std::async(std::launch::async, ss::query_device_catalogue).get();
    GuiOptions options;
    if (const ss::Status s = parse_gui_options(args, options, devices.has_cuda()); !s) {
        std::cerr << "stencilscope: " << ss::one_line(s.reason) << "\n";
        return 2;
    }
    if (options.run.no_kernel_cache) ss::set_kernel_disk_cache_enabled(false);
    if (options.version) {
        std::cout << "stencilscope " << STENCILSCOPE_VERSION << "\n" << devices.cuda_support;
        return 0;
    }
    if (options.help) {
        std::cout << gui_options_help();
        return 0;
    }
    if (options.window.gpu_fallback)
        std::cerr << "stencilscope: no usable GPU ("
                  << (devices.unavailable.empty() ? std::string("no CUDA device found")
                                                  : ss::one_line(devices.unavailable))
                  << "): running on the CPU backend\n";
    options.window.devices = std::move(devices);
    // Everything is checked before Qt starts (its warnings would precede the one-line refusal).
    SetupState setup;
    std::string problem = options.setup.empty() ? std::string() : read_start_setup(options, setup);
    if (problem.empty()) problem = check_window_request(options);
    if (problem.empty()) problem = precheck_scripted(options);
    if (!problem.empty()) {
        std::cerr << "stencilscope: " << ss::one_line(problem) << "\n";
        return 2;
    }
    const auto settings_store = private_settings(options);
    if (!home_exists()) ss::set_kernel_disk_cache_enabled(false); // its folder would create the home directory

    // GL 3.3 core for the field shaders; vsync paces the display at the monitor's rate.
    QSurfaceFormat format;
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setSwapInterval(1);
    QSurfaceFormat::setDefaultFormat(format);

    guard_platform_start(options.sweep_png.empty()); // a sweep chart needs no display
    QApplication app(argc, argv);
    end_platform_guard();
    ss::write_numbers_in_the_c_locale(); // QApplication took the user's locale: "displayed FPS: 245,0" otherwise
    QApplication::setOrganizationName(QStringLiteral("StencilScope"));
    QApplication::setApplicationName(QStringLiteral("stencilscope"));
    QApplication::setApplicationVersion(QStringLiteral(STENCILSCOPE_VERSION));

    if (!options.sweep_png.empty()) return run_sweep_chart(options, std::cerr);
    MainWindow window(options.window);
    if (!options.setup.empty()) { // before the window shows: a setup that does not load opens nothing
        QString why;
        if (!window.session().apply_setup(setup, &why)) {
            std::cerr << "stencilscope: cannot open setup " << ss::quote_for_message(options.setup) << ": "
                      << ss::one_line(why.toStdString()) << "\n";
            return 2;
        }
    }
    if (options.window_width > 0) window.resize(options.window_width, options.window_height);
    window.show();
    if (options.autotune) {
        AutotuneDialog& dialog = window.autotune_dialog();
        dialog.show();
        dialog.start();
    }
    if (!options.open_sweep.empty()) {
        QString why;
        ExperimentsWindow& experiments = window.experiments_window();
        experiments.show();
        if (!experiments.open_results(QString::fromStdString(options.open_sweep), &why))
            std::cerr << "stencilscope: " << ss::one_line(why.toStdString()) << "\n";
        else if (!options.sweep_show.empty())
            experiments.show_only(QString::fromStdString(options.sweep_show));
    }
    if (options.scripted()) return run_scripted(window, options, std::cout, std::cerr);
    if (options.benchmark()) return run_benchmark(window, options, std::cout, std::cerr);
    if (options.soak()) return run_soak(window, options, std::cout, std::cerr);
    return app.exec();
}

} // namespace

int main(int argc, char** argv) {
    ss::hold_closed_standard_streams();
    return ss::finish_stdout(run_window_program(argc, argv), "stencilscope");
}
