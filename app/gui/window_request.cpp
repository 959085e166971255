// SPDX-License-Identifier: MIT
#include "app/gui/window_request.h"

#include "gpu/plan/launch_policy.h"
#include "gpu/plan/validation.h"
#include "reports/run_options.h"
#include "session/session.h"

namespace ss::gui {
namespace {

bool given(const GuiOptions& o, std::string_view option) {
    return find_value(o.given, option) != nullptr;
}

// A path as typed may be long; a lesson id is quoted, cut, as every message quotes what it was given.
std::string setup_text(const std::string& setup) {
    return setup.starts_with("lesson:") || setup.size() > 4096 ? quote_for_message(setup) : setup;
}

const char* axis_name(SliceAxis a) {
    return a == SliceAxis::XY ? "xy" : a == SliceAxis::XZ ? "xz" : "yz";
}

} // namespace

std::string read_start_setup(GuiOptions& o, SetupState& out) {
    QString why;
    const QString path = setup_path_for(QString::fromStdString(o.setup), &why);
    if (path.isEmpty()) return why.toStdString();
    SetupState s;
    if (!read_setup_file(path, o.window.settings, s, &why))
        return "cannot open setup " + setup_text(o.setup) + ": " + why.toStdString();

    // The command line's configuration options over the file's. The hardware (backend, device, GPUs) is already
    // the command line's (read_setup_file keeps it), after the fallback to the CPU where no GPU can run.
    OptionValues over;
    for (const OptionValue& v : o.given) {
        const RunOptionSpec* spec = find_run_option(v.name);
        if (spec && spec->configuration && v.name != "--backend" && v.name != "--device" && v.name != "--gpus")
            over.push_back(v);
    }
    RunOptions run;
    run.config = s.settings.config;
    if (const Status st = apply_run_options(over, run); !st) return st.reason;
    StencilConfig& c = run.config;
    // apply_run_options reads a whole command line: what it was not given it sets to the command line's defaults
    // (the size, a temporal depth). Over a setup, what was not given stays the file's.
    const StencilConfig& file = s.settings.config;
    if (!find_value(over, "--size") && c.problem.dims == file.problem.dims) c.problem.size = file.problem.size;
    const bool depth_follows = find_value(over, "--depth") || find_value(over, "--variant")
        || find_value(over, "--radius") || find_value(over, "--dims");
    if (!depth_follows) c.policy.depth = file.policy.depth;
    if (find_value(over, "--dims") && !find_value(over, "--size") && c.placement.backend == Backend::Cpu)
        c.problem.size = c.problem.dims == 3 ? Extent { 64, 64, 64 } : Extent { 256, 256, 1 }; // as parse_gui_options
    s.settings.config = c;
    if (given(o, "--steps-per-frame")) s.steps_per_frame = o.window.pacing.steps_per_frame;
    if (o.window.colormap_given) s.colormap = o.window.colormap;
    if (given(o, "--slice") || given(o, "--slice-index") || given(o, "--max-projection")) {
        SliceSelection slice = s.slice.value_or(SliceSelection { SliceAxis::XY, plane_count(c, SliceAxis::XY) / 2 });
        if (given(o, "--slice")) {
            slice.axis = o.window.slice.axis;
            slice.index = plane_count(c, slice.axis) / 2;
        }
        if (given(o, "--slice-index")) slice.index = o.window.slice.index;
        if (given(o, "--max-projection")) slice.max_projection = true;
        s.slice = slice;
    }

    o.window.settings = s.settings;
    o.window.pacing.steps_per_frame = s.steps_per_frame;
    if (s.colormap) o.window.colormap = *s.colormap, o.window.colormap_given = true;
    if (s.slice) o.window.slice = *s.slice, o.window.slice_given = true;
    out = std::move(s);
    return {};
}

std::string check_window_request(const GuiOptions& o) {
    const StencilConfig& c = o.window.settings.config;
    // The one validation both programs share: on the CPU backend it refuses, with a GPU's reason, what no GPU could
    // run (a block the controls would show although the CPU runs none).
    // --variant auto: as its stand-in, what the Session checks it as before it is resolved.
    if (const Status s = can_implement(auto_stand_in(c), o.window.devices); !s) return s.reason;
    if (c.problem.dims != 3)
        for (const char* option : { "--slice", "--slice-index", "--max-projection" })
            if (given(o, option)) return std::string(option) + " applies to 3D domains; this one is 2D";
    if (c.problem.dims == 3 && o.window.slice_given) {
        const int planes = plane_count(c, o.window.slice.axis);
        if (o.window.slice.index >= planes)
            return "invalid --slice-index " + std::to_string(o.window.slice.index) + ": the "
                + axis_name(o.window.slice.axis) + " slices of " + format_extent(c.problem.size, 3) + " are 0.."
                + std::to_string(planes - 1);
    }
    return {};
}

} // namespace ss::gui
