// SPDX-License-Identifier: MIT
#include "app/gui/gui_options.h"

#include "gpu/problem/cuda_support.h"
#include "reports/command_line.h"
#include "session/setup_file.h"
#include "widgets/display_controls.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace ss::gui {
namespace {

template <typename T> bool parse_number(const std::string& s, T& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

Status bad(const std::string& option, const std::string& value, const std::string& expected) {
    return Status::failure("invalid " + option + " '" + quote_for_message(value) + "': expected " + expected);
}

constexpr OptionDoc kDisplayOptions[] = {
    { "--steps-per-frame", "N", "stencil steps per displayed frame, 0..1000000; 0 runs free (default 10)" },
    { "--colormap", "viridis|inferno|coolwarm|grayscale", "(default inferno; coolwarm for the wave)" },
    { "--range", "auto|LO:HI", "colour range: automatic, or numbers LO < HI within +-1e9 (default auto)" },
    { "--slice", "xy|xz|yz", "3D: the plane shown (default xy)" },
    { "--slice-index", "N", "3D: its index, below the plane count along that axis (default the middle)" },
    { "--max-projection", "", "3D: show the maximum along the axis instead of one plane" },
    { "--paused", "", "start paused" },
    { "--raster", "", "draw without OpenGL (no interop)" },
    { "--metrics", "on|off",
        "hardware counters (CUPTI) in the metrics panel (default: last choice; on for --frames, off for "
        "--benchmark-seconds)" },
};

constexpr OptionDoc kScriptedOptions[] = {
    { "--frames", "N", "run N displayed frames, write the pictures, exit" },
    { "--screenshot", "FILE.png", "the field at its resolution with a colour bar" },
    { "--window-screenshot", "FILE.png", "the whole window" },
    { "--roofline-screenshot", "FILE.png",
        "after the frames, open View > Roofline, wait for the ceilings (on the CPU: the chart's reason) and the "
        "kernel's point (with --metrics on: from a profiled launch's DRAM bytes), write the window and the chart's "
        "export with its caption (FILE-export.png)" },
    { "--kernel-source-screenshot", "FILE.png",
        "after the frames, open View > Kernel source for the configuration and write it once its text has arrived" },
    { "--exercise-screenshot", "FILE.png", "after the frames, open Lessons > Write the kernel and write it" },
    { "--exercise-run", "",
        "with --exercise-screenshot: press Check and time (without a GPU: Compile) and wait for the result first" },
    { "--benchmark-seconds", "S", "print displayed FPS, steps/s and GCells/s after S seconds, exit" },
    { "--max-fps", "N|screen",
        "ask the engine for at most N frames per second, or the screen's refresh rate (default: as many as it "
        "delivers)" },
    { "--window-size", "WxH", "the window's size in pixels (default: the last one)" },
    { "--setup", "FILE.json|lesson:ID",
        "open a setup file (File > Save setup writes one) or an embedded lesson (lesson:coalescing, "
        "lesson:travelling-waves, …) at start; configuration and display options given as well override the "
        "setup's; one that does not load is refused before the window shows" },
    { "--autotune", "", "open Tools > Autotune and search blocks for the configuration" },
    { "--open-sweep", "FILE.csv",
        "open a sweep (stencilscope-cli sweep --csv) in the Experiments window; a file that does not load is "
        "refused before any window opens" },
    { "--sweep-png", "FILE.png", "with --open-sweep: chart it into FILE.png and exit (no GPU needed)" },
    { "--sweep-show", "VARIANT", "with --open-sweep: chart only that variant's series" },
    { "--soak-seconds", "S",
        "change variant, radius, CF, block, colour map and slice through the controls every --soak-interval "
        "seconds for S seconds; print the resident memory after the first round of changes and at the end, GL "
        "errors and engine failures; exit 1 if memory grew by 5 % or more or any error was reported" },
    { "--soak-interval", "S", "with --soak-seconds: seconds between two changes, 0.05 to 600 (default 3)" },
    { "--soak-min-fps", "N",
        "with --soak-seconds: fail when fewer frames per second were displayed after the first round of changes" },
};

constexpr OptionDoc kOtherOptions[] = {
    { "--help", "", "this text (also -h)" },
    { "--version", "", "print the version and which CUDA pieces were found" },
};

// The window's own defaults where they differ from stencilscope-cli's (parse_gui_options below sets them).
constexpr OptionDoc kWindowDefaults[] = {
    { "--rule", "", "star update rule (default wave, which keeps moving; jacobi when --stencil is given)" },
    { "--size", "",
        "domain size (default on a GPU 1024x1024 or 256x256x256; on the CPU 256x256 or 64x64x64, so that the window "
        "stays fluid)" },
    { "--init", "", "initial field (default gaussian)" },
    { "--backend", "",
        "(default cuda when a device is present, else cpu; cuda without a usable GPU falls back to the "
        "CPU and the window says why)" },
};

// The GUI's one parser: its --help lists what it parses (gui_options_help), with the window's defaults.
void add_gui_options(CommandLine& line) {
    line.add_run_options("gui");
    for (const OptionDoc& doc : kWindowDefaults) line.set_help(doc.name, doc.help);
    line.section("Display options:");
    for (const OptionDoc& doc : kDisplayOptions) line.add(doc);
    line.section("Scripted runs and benchmarks:");
    for (const OptionDoc& doc : kScriptedOptions) line.add(doc);
    line.section("Other options:");
    line.add(kOtherOptions[0], "-h");
    line.add(kOtherOptions[1]);
}

// The CLI's command options have no meaning in the window: refused, saying where they do.
Status refuse_command_options(const OptionValues& values) {
    for (const auto& [key, value] : values) {
        const RunOptionSpec* spec = find_run_option(key);
        if (!spec || spec->configuration || run_option_applies(*spec, "gui")) continue;
        if (key == "--csv")
            return Status::failure("--csv: the GUI does not write run CSVs; use stencilscope-cli run|bench --csv");
        if (key == "--verify")
            return Status::failure("--verify: the GUI does not verify runs; use stencilscope-cli run --verify");
        if (key == "--steps")
            return Status::failure("--steps: the GUI runs until it is stopped; use --steps-per-frame N or --frames N");
        return Status::failure(
            key + " is an option of stencilscope-cli " + commands_text(*spec) + "; the GUI does not take it");
    }
    return Status::success();
}

// One display or scripting option into `o`.
Status apply_gui_option(const std::string& key, const std::string& value, GuiOptions& o) {
    WindowOptions& w = o.window;
    if (key == "--version") {
        o.version = true;
    } else if (key == "--help") {
        o.help = true;
    } else if (key == "--max-projection") {
        w.slice.max_projection = true;
    } else if (key == "--max-fps") {
        if (value == "screen") {
            w.max_fps = 0.0;
        } else if (!parse_number(value, w.max_fps) || !(w.max_fps >= 1.0) || w.max_fps > 1000) {
            return bad(key, value, "frames per second (1..1000) or screen (its refresh rate)");
        }
    } else if (key == "--window-size") {
        const auto x = value.find('x');
        if (x == std::string::npos || !parse_number(value.substr(0, x), o.window_width)
            || !parse_number(value.substr(x + 1), o.window_height) || o.window_width < 320 || o.window_height < 240
            || o.window_width > 16384 || o.window_height > 16384)
            return bad(key, value, "WIDTHxHEIGHT in pixels, at least 320x240");
    } else if (key == "--autotune") {
        o.autotune = true;
    } else if (key == "--paused") {
        w.playing = false;
    } else if (key == "--raster") {
        w.renderer = FieldView::Renderer::Raster;
    } else if (key == "--frames") {
        if (!parse_number(value, o.frames) || o.frames < 1) return bad(key, value, "a positive integer");
    } else if (key == "--screenshot" || key == "--window-screenshot" || key == "--roofline-screenshot"
        || key == "--kernel-source-screenshot" || key == "--exercise-screenshot") {
        if (value.empty()) return bad(key, value, "a PNG file path");
        (key == "--screenshot"                   ? o.screenshot
                : key == "--window-screenshot"   ? o.window_screenshot
                : key == "--roofline-screenshot" ? o.roofline_screenshot
                : key == "--exercise-screenshot" ? o.exercise_screenshot
                                                 : o.kernel_source_screenshot)
            = value;
    } else if (key == "--exercise-run") {
        o.exercise_run = true;
    } else if (key == "--open-sweep" || key == "--sweep-png") {
        if (value.empty()) return bad(key, value, key == "--open-sweep" ? "a CSV file path" : "a PNG file path");
        (key == "--open-sweep" ? o.open_sweep : o.sweep_png) = value;
    } else if (key == "--setup") {
        if (value.empty()) return bad(key, value, "a setup file path or lesson:ID");
        o.setup = value;
    } else if (key == "--sweep-show") {
        if (const auto v = parse_variant(value); !v || *v == Variant::Auto) // auto is never a sweep's variant
            return bad(key, value, "a variant name (base, smem, smem_padded, stream, ...)");
        o.sweep_show = value;
    } else if (key == "--benchmark-seconds") {
        if (!parse_number(value, o.benchmark_seconds) || !(o.benchmark_seconds > 0.0) || o.benchmark_seconds > 3600)
            return bad(key, value, "seconds, more than 0 and at most 3600");
    } else if (key == "--soak-seconds") {
        if (!parse_number(value, o.soak_seconds) || !(o.soak_seconds > 0.0) || o.soak_seconds > 86400)
            return bad(key, value, "seconds, more than 0 and at most 86400");
    } else if (key == "--soak-min-fps") {
        if (!parse_number(value, o.soak_min_fps) || !(o.soak_min_fps >= 0.0) || o.soak_min_fps > 1000)
            return bad(key, value, "a frame rate 0..1000");
    } else if (key == "--soak-interval") {
        if (!parse_number(value, o.soak_interval) || !(o.soak_interval >= 0.05) || o.soak_interval > 600)
            return bad(key, value, "seconds, 0.05 to 600");
    } else if (key == "--steps-per-frame") {
        if (!parse_number(value, w.pacing.steps_per_frame) || w.pacing.steps_per_frame < 0
            || w.pacing.steps_per_frame > kMaxStepsPerFrame)
            return bad(key, value, "an integer 0.." + std::to_string(kMaxStepsPerFrame) + " (0: run free)");
    } else if (key == "--colormap") {
        const auto map = parse_colormap(value);
        if (!map) return bad(key, value, "viridis, inferno, coolwarm or grayscale");
        w.colormap = *map;
        w.colormap_given = true;
    } else if (key == "--range") {
        const auto colon = value.find(':');
        float lo = 0, hi = 0;
        if (value == "auto") {
            w.range.automatic = true;
        } else if (colon != std::string::npos && parse_number(value.substr(0, colon), lo)
            && parse_number(value.substr(colon + 1), hi) && std::isfinite(lo) && std::isfinite(hi) && lo < hi
            && std::isfinite(hi - lo) && std::fabs(lo) <= kMaxRangeMagnitude && std::fabs(hi) <= kMaxRangeMagnitude) {
            // a span that overflows a float would map every value to one colour; the Range boxes show +-1e9
            w.range.automatic = false;
            w.range.fixed = { lo, hi };
        } else {
            return bad(key, value, "auto or LO:HI with LO < HI, both within +-1e9");
        }
    } else if (key == "--slice") {
        if (value == "xy")
            w.slice.axis = SliceAxis::XY;
        else if (value == "xz")
            w.slice.axis = SliceAxis::XZ;
        else if (value == "yz")
            w.slice.axis = SliceAxis::YZ;
        else
            return bad(key, value, "xy, xz or yz");
    } else if (key == "--metrics") {
        if (value != "on" && value != "off") return bad(key, value, "on or off");
        w.metrics = value == "on";
        w.metrics_given = true;
    } else if (key == "--slice-index") {
        if (!parse_number(value, w.slice.index) || w.slice.index < 0) return bad(key, value, "an integer >= 0");
        w.slice_given = true;
    }
    return Status::success();
}

} // namespace

Status parse_gui_options(const std::vector<std::string>& args, GuiOptions& o, bool cuda_present) {
    CommandLine line;
    add_gui_options(line);
    if (Status s = line.parse(args); !s) return s;
    const OptionValues& values = line.values();
    if (Status s = refuse_command_options(values); !s) return s;
    if (Status s = apply_run_options(values, o.run); !s) return s;
    StencilConfig& c = o.run.config;
    if (!o.run.backend_given) c.placement.backend = cuda_present ? Backend::Cuda : Backend::Cpu;
    // --backend cuda without a usable GPU: the window falls back to the CPU and says so (WindowOptions),
    // rather than opening on a configuration nothing can run.
    o.window.gpu_fallback = c.placement.backend == Backend::Cuda && !cuda_present;
    if (o.window.gpu_fallback) c.placement.backend = Backend::Cpu, c.placement.gpus = 1;
    if (c.placement.backend == Backend::Cuda)
        c.placement.strips_per_device = strips_per_gpu_from_environment(); // testing hook, as the CLI
    if (!find_value(values, "--size") && c.placement.backend == Backend::Cpu)
        c.problem.size = c.problem.dims == 3 ? Extent { 64, 64, 64 } : Extent { 256, 256, 1 };
    if (!find_value(values, "--init")) o.run.config.problem.initial = InitialCondition::Gaussian;
    // The first minute: a wave keeps moving (and reflecting) where a diffusing Gaussian fades to a still
    // picture within seconds. The CLI keeps jacobi, the thesis' measurements' rule.
    if (!find_value(values, "--rule") && !find_value(values, "--stencil")) c.problem.rule = UpdateRule::Wave;
    for (const auto& [key, value] : values)
        if (Status s = apply_gui_option(key, value, o); !s) return s;

    if (!o.sweep_png.empty() && o.open_sweep.empty()) return Status::failure("--sweep-png needs --open-sweep FILE.csv");
    if (!o.sweep_show.empty() && o.open_sweep.empty())
        return Status::failure("--sweep-show needs --open-sweep FILE.csv");
    if (find_value(values, "--soak-min-fps") && !o.soak())
        return Status::failure("--soak-min-fps needs --soak-seconds S");
    if (o.exercise_run && o.exercise_screenshot.empty())
        return Status::failure("--exercise-run needs --exercise-screenshot FILE.png");
    if (!o.sweep_png.empty() && o.scripted())
        return Status::failure(
            "--sweep-png charts without a window: it cannot be combined with --frames or screenshots");
    if (!o.roofline_screenshot.empty() && !o.window.playing)
        return Status::failure("--roofline-screenshot waits for the running kernel's point: it cannot be combined "
                               "with --paused");
    if (find_value(values, "--soak-interval") && !o.soak())
        return Status::failure("--soak-interval needs --soak-seconds S");
    if (o.benchmark() && o.scripted())
        return Status::failure("--benchmark-seconds cannot be combined with --frames or screenshots");
    if (o.soak() && (o.scripted() || o.benchmark()))
        return Status::failure("--soak-seconds cannot be combined with --frames, screenshots or --benchmark-seconds");
    if (o.autotune && c.policy.variant == Variant::Auto) // the search would start before auto has chosen
        return Status::failure(
            "--autotune searches the block of one variant and --variant auto has not chosen one "
            "yet: open the window with --variant auto, then Tools > Autotune searches what it chose");
    if (o.scripted() && o.frames == 0) o.frames = 1;
    // measure the free-running engine
    if (o.benchmark() && !find_value(values, "--steps-per-frame")) o.window.pacing.steps_per_frame = 0;
    if (o.scripted()) o.window.pacing.display_max = 0; // screenshots at field resolution
    if (o.scripted() || o.benchmark() || o.soak()) {
        o.window.restore_layout = false;
        // reproducible: counters on for pictures and the soak, off for the compute benchmark unless asked
        if (!o.window.metrics_given) o.window.metrics = !o.benchmark();
        o.window.metrics_given = true;
    }
    o.window.settings = { c };
    o.given = values;
    return Status::success();
}

std::string gui_options_help() {
    CommandLine line;
    add_gui_options(line);
    return "Usage: stencilscope [OPTIONS]\n\n" + line.help()
        + "\nWithout --rule or --stencil the window starts the wave rule (it keeps moving); Lessons > and the\n"
          "toolbar's \"Start here\" open the lessons.\n"
        + kCudaLibsHelp;
}

} // namespace ss::gui
