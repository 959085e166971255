// SPDX-License-Identifier: MIT
#include "reports/stencil_options.h"

#include "gpu/io/safe_file.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/problem/stencil_file.h"

#include <filesystem>

namespace ss {
namespace {

// A stencil file is a small text: 2048 points fit well within this.
constexpr std::uint64_t kMaxStencilFileBytes = 1 << 20;

// The shape fixes dims and radius: a --dims or --radius given with another value is refused, never overridden.
Status check_given_dims_and_radius(const OptionValues& values, const StencilShape& shape, const std::string& what) {
    const std::string* dims = find_value(values, "--dims");
    if (dims && *dims != std::to_string(shape.dims))
        return Status::failure(what + " is a " + std::to_string(shape.dims) + "D stencil: --dims "
            + quote_for_message(*dims) + " contradicts it (leave --dims out)");
    const std::string* radius = find_value(values, "--radius");
    if (radius && *radius != std::to_string(shape.radius()))
        return Status::failure(what + " has radius " + std::to_string(shape.radius()) + ": --radius "
            + quote_for_message(*radius) + " contradicts it (leave --radius out)");
    return Status::success();
}

Status apply_stencil_file(const OptionValues& values, const std::string& path, StencilConfig& c) {
    const std::string* kind = find_value(values, "--stencil");
    if (kind && *kind != "points")
        return Status::failure("--stencil-file gives the stencil: leave out --stencil " + quote_for_message(*kind));
    if (path.empty()) return Status::failure("invalid --stencil-file '': expected a file path");
    StencilShape shape;
    if (Status s = read_stencil_file(path, "--stencil-file", shape); !s) return s;
    if (Status s = check_given_dims_and_radius(values, shape, "the stencil in " + quote_for_message(path)); !s)
        return s;
    use_shape(c.problem, std::move(shape));
    return Status::success();
}

} // namespace

Status read_stencil_file(const std::string& path, std::string_view what, StencilShape& out) {
    std::string text;
    if (Status s = read_regular_file(path, kMaxStencilFileBytes, text); !s)
        return Status::failure(std::string(what) + ": " + s.reason);
    StencilShape shape;
    const std::string stem = std::filesystem::path(path).stem().string();
    if (Status s = parse_stencil_json(text, stem.empty() ? "file" : stem, shape); !s)
        return Status::failure(std::string(what) + " " + quote_for_message(path) + ": " + one_line(s.reason));
    shape.source = path;
    out = std::move(shape);
    return Status::success();
}

Status write_stencil_file(const std::string& path, const StencilShape& shape) {
    if (Status s = check_shape(shape); !s) return s;
    if (Status s = check_stencil_name(shape.name); !s) return s;
    return replace_file(path, stencil_json(shape), "stencil file");
}

std::string stencil_names_text() {
    std::string out = "star, diffusion4, box";
    for (const std::string_view n : ebisu_stencil_names()) out += ", " + std::string(n);
    return out;
}

Status apply_stencil_options(const OptionValues& values, StencilConfig& c) {
    if (const std::string* path = find_value(values, "--stencil-file")) return apply_stencil_file(values, *path, c);
    const std::string* name = find_value(values, "--stencil");
    if (!name) return Status::success();
    if (*name == "points") return Status::failure("--stencil points needs --stencil-file FILE with the points");
    if (const auto kind = parse_stencil(*name)) {
        c.problem.stencil = *kind;
        c.problem.shape = {};
        return Status::success();
    }
    if (*name == "box") {
        StencilShape box = box_shape(c.problem.dims, c.problem.radius);
        if (Status s = check_shape(box); !s) return Status::failure("--stencil box: " + s.reason);
        use_shape(c.problem, std::move(box));
        return Status::success();
    }
    if (auto shape = ebisu_shape(*name)) {
        if (Status s = check_given_dims_and_radius(values, *shape, "--stencil " + *name); !s) return s;
        use_shape(c.problem, std::move(*shape));
        return Status::success();
    }
    return Status::failure(
        "invalid --stencil '" + quote_for_message(*name) + "': expected one of " + stencil_names_text());
}

} // namespace ss
