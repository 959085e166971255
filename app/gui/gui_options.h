// SPDX-License-Identifier: MIT
// The command line of stencilscope: the configuration options of the run-option table (reports/run_options.h)
// and the GUI's own display and scripting options, on the parser both programs share (reports/command_line.h).
#pragma once

#include "reports/run_options.h"
#include "widgets/main_window.h"

#include <string>
#include <vector>

namespace ss::gui {

struct GuiOptions {
    RunOptions run;
    WindowOptions window;
    int frames = 0; // scripted: run this many displayed frames, then exit
    std::string screenshot; // scripted: the field, with its colour bar
    std::string window_screenshot; // scripted: the whole window
    // scripted, after the frames (app/gui/scripted_panels.h): View > Roofline once its ceilings and the kernel's
    // point are there, View > Kernel source once its text has arrived, Lessons > Write the kernel (and with
    // exercise_run its Check or Compile result)
    std::string roofline_screenshot, kernel_source_screenshot, exercise_screenshot;
    bool exercise_run = false;
    double benchmark_seconds = 0.0;
    std::string open_sweep; // a sweep CSV to show in the Experiments window
    std::string sweep_png; // scripted: chart open_sweep into this PNG and exit (no engine work)
    std::string sweep_show; // only this variant's series in the charts
    std::string setup; // a setup file, or "lesson:ID", opened at start
    int window_width = 0, window_height = 0; // --window-size; 0: the remembered or default size
    bool autotune = false; // open Tools > Autotune and start the search for the configuration
    double soak_seconds = 0.0; // soak: change knobs for this long, then report memory growth and errors
    double soak_interval = 3.0; // soak: seconds between two knob changes
    double soak_min_fps = 0.0; // soak: fail below this many displayed frames/s after the warm-up round (0: no check)
    bool version = false, help = false;
    OptionValues given; // the options as given: --setup takes the configuration and display ones over its file's

    bool panel_screenshots() const {
        return !roofline_screenshot.empty() || !kernel_source_screenshot.empty() || !exercise_screenshot.empty();
    }
    bool scripted() const {
        return frames > 0 || !screenshot.empty() || !window_screenshot.empty() || panel_screenshots();
    }
    bool benchmark() const { return benchmark_seconds > 0.0; }
    bool soak() const { return soak_seconds > 0.0; }
};

// `cuda_present` picks the defaults the issue asks for: the CUDA backend at 1024x1024 when a device
// is there, otherwise the CPU backend on a small domain so the window stays fluid. --backend cuda without
// a device runs the CPU backend too, with out.window.gpu_fallback set so the window says why.
Status parse_gui_options(const std::vector<std::string>& args, GuiOptions& out, bool cuda_present);
std::string gui_options_help();

} // namespace ss::gui
