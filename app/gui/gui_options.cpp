// SPDX-License-Identifier: MIT
#include "app/gui/gui_options.h"

#include <algorithm>
#include <charconv>

namespace ss::gui {
namespace {

bool given(const std::vector<std::string>& args, std::string_view option) {
    return std::any_of(args.begin(), args.end(), [option](const std::string& a) {
        return a == option
            || (a.size() > option.size() && a.compare(0, option.size(), option) == 0 && a[option.size()] == '=');
    });
}

template <typename T> bool parse_number(const std::string& s, T& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

Status bad(const std::string& option, const std::string& value, const std::string& expected) {
    return Status::failure("invalid value '" + value + "' for " + option + ": expected " + expected);
}

} // namespace

Status parse_gui_options(const std::vector<std::string>& args, GuiOptions& o, bool cuda_present) {
    std::vector<std::string> rest;
    if (Status s = parse_run_options(args, o.run, &rest); !s) return s;
    StencilConfig& c = o.run.config;
    if (!o.run.backend_given) c.backend = cuda_present ? Backend::Cuda : Backend::Cpu;
    if (c.backend == Backend::Cuda) c.strips_per_device = strips_per_gpu_from_environment(); // testing hook, as the CLI
    if (!given(args, "--size") && c.backend == Backend::Cpu)
        c.size = c.dims == 3 ? Extent { 64, 64, 64 } : Extent { 256, 256, 1 };
    if (!given(args, "--init")) o.run.initial = InitialCondition::Gaussian;
    bool steps_given = false;

    static const std::string_view flags[] = { "--version", "--help", "-h", "--max-projection", "--paused", "--raster" };
    for (std::size_t i = 0; i < rest.size(); ++i) {
        std::string key = rest[i], value;
        if (std::find(std::begin(flags), std::end(flags), key) == std::end(flags)) {
            if (const auto eq = key.find('='); eq != std::string::npos) {
                value = key.substr(eq + 1);
                key = key.substr(0, eq);
            } else if (key.rfind("--", 0) != 0) {
                return Status::failure("unexpected argument '" + key + "'");
            } else if (i + 1 < rest.size()) {
                value = rest[++i];
            } else {
                return Status::failure("option " + key + " needs a value");
            }
        }
        WindowOptions& w = o.window;
        if (key == "--version") {
            o.version = true;
        } else if (key == "--help" || key == "-h") {
            o.help = true;
        } else if (key == "--max-projection") {
            w.slice.max_projection = true;
        } else if (key == "--paused") {
            w.playing = false;
        } else if (key == "--raster") {
            w.renderer = FieldView::Renderer::Raster;
        } else if (key == "--frames") {
            if (!parse_number(value, o.frames) || o.frames < 1) return bad(key, value, "a positive integer");
        } else if (key == "--screenshot" || key == "--window-screenshot") {
            if (value.empty()) return bad(key, value, "a PNG file path");
            (key == "--screenshot" ? o.screenshot : o.window_screenshot) = value;
        } else if (key == "--benchmark-seconds") {
            if (!parse_number(value, o.benchmark_seconds) || !(o.benchmark_seconds > 0.0) || o.benchmark_seconds > 3600)
                return bad(key, value, "seconds, more than 0 and at most 3600");
        } else if (key == "--steps-per-frame") {
            if (!parse_number(value, w.pacing.steps_per_frame) || w.pacing.steps_per_frame < 0)
                return bad(key, value, "an integer >= 0 (0: run free)");
            steps_given = true;
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
                && parse_number(value.substr(colon + 1), hi) && lo < hi) {
                w.range.automatic = false;
                w.range.fixed = { lo, hi };
            } else {
                return bad(key, value, "auto or LO:HI with LO < HI");
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
        } else {
            return Status::failure("unknown option " + key + " (see --help)");
        }
    }
    if (o.benchmark() && o.scripted())
        return Status::failure("--benchmark-seconds cannot be combined with --frames or screenshots");
    if (o.scripted() && o.frames == 0) o.frames = 1;
    if (o.benchmark() && !steps_given) o.window.pacing.steps_per_frame = 0; // measure the free-running engine
    if (o.scripted()) o.window.pacing.display_max = 0; // screenshots at field resolution
    if (o.scripted() || o.benchmark()) {
        o.window.restore_layout = false;
        // reproducible: counters on for pictures, off for the compute benchmark unless asked
        if (!o.window.metrics_given) o.window.metrics = !o.benchmark();
        o.window.metrics_given = true;
    }
    o.window.settings = { c, o.run.initial, o.run.seed };
    return Status::success();
}

std::string gui_options_help() {
    return "Usage: stencilscope [configuration options] [display options]\n\n" + run_options_help() + R"(
Display options:
  --steps-per-frame N           stencil steps per displayed frame; 0 runs free (default 10)
  --colormap viridis|inferno|coolwarm|grayscale   (default inferno; coolwarm for the wave)
  --range auto|LO:HI            colour range (default auto)
  --slice xy|xz|yz              3D: the plane shown (default xy)
  --slice-index N               3D: its index (default the middle)
  --max-projection              3D: show the maximum along the axis instead of one plane
  --paused                      start paused
  --raster                      draw without OpenGL (no interop)
  --metrics on|off              hardware counters (CUPTI) in the metrics panel (default: last choice;
                                on for --frames, off for --benchmark-seconds)

Scripted runs and benchmarks:
  --frames N                    run N displayed frames, write the pictures, exit
  --screenshot FILE.png         the field at its resolution with a colour bar
  --window-screenshot FILE.png  the whole window
  --benchmark-seconds S         print displayed FPS, steps/s and GCells/s after S seconds, exit
  --version                     print the version
)";
}

} // namespace ss::gui
