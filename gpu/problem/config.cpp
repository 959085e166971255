// SPDX-License-Identifier: MIT
#include "gpu/problem/config.h"

#include <array>
#include <charconv>
#include <utility>

namespace ss {
namespace {

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view s) {
    for (const auto& [name, value] : table)
        if (name == s) return value;
    return std::nullopt;
}

template <typename E, std::size_t N>
std::string_view name_of(const std::array<std::pair<std::string_view, E>, N>& table, E e) {
    for (const auto& [name, value] : table)
        if (value == e) return name;
    return "?";
}

constexpr std::array kStencils { std::pair { std::string_view("star"), StencilKind::Star },
    std::pair { std::string_view("diffusion4"), StencilKind::Diffusion4 },
    std::pair { std::string_view("points"), StencilKind::Points } };
constexpr std::array kRules { std::pair { std::string_view("thesis"), UpdateRule::Thesis },
    std::pair { std::string_view("jacobi"), UpdateRule::Jacobi },
    std::pair { std::string_view("wave"), UpdateRule::Wave } };
constexpr std::array kVariants { std::pair { std::string_view("base"), Variant::Base },
    std::pair { std::string_view("smem"), Variant::Smem },
    std::pair { std::string_view("smem_padded"), Variant::SmemPadded },
    std::pair { std::string_view("stream"), Variant::Stream }, std::pair { std::string_view("naive"), Variant::Naive },
    std::pair { std::string_view("merged"), Variant::Merged },
    std::pair { std::string_view("notemp"), Variant::NoTemp },
    std::pair { std::string_view("uncoalesced"), Variant::Uncoalesced },
    std::pair { std::string_view("temporal"), Variant::Temporal },
    std::pair { std::string_view("auto"), Variant::Auto } };
constexpr std::array kPrecisions { std::pair { std::string_view("fp32"), Precision::FP32 },
    std::pair { std::string_view("fp64"), Precision::FP64 } };
constexpr std::array kBackends { std::pair { std::string_view("cuda"), Backend::Cuda },
    std::pair { std::string_view("cpu"), Backend::Cpu } };
constexpr std::array kHaloModes { std::pair { std::string_view("auto"), HaloMode::Auto },
    std::pair { std::string_view("staged"), HaloMode::Staged },
    std::pair { std::string_view("remote"), HaloMode::Remote } };
constexpr std::array kSplitAxes { std::pair { std::string_view("slowest"), SplitAxis::Slowest },
    std::pair { std::string_view("x"), SplitAxis::X }, std::pair { std::string_view("y"), SplitAxis::Y },
    std::pair { std::string_view("z"), SplitAxis::Z } };

std::optional<int> parse_positive(std::string_view s) {
    int v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v <= 0) return std::nullopt;
    return v;
}

// Splits "AxBxC" into at most 3 positive integers.
std::optional<std::array<int, 3>> parse_triple(std::string_view s, int& parts) {
    std::array<int, 3> out { 1, 1, 1 };
    parts = 0;
    while (true) {
        const auto x = s.find('x');
        const auto piece = s.substr(0, x);
        if (parts == 3) return std::nullopt;
        const auto v = parse_positive(piece);
        if (!v) return std::nullopt;
        out[parts++] = *v;
        if (x == std::string_view::npos) break;
        s.remove_prefix(x + 1);
    }
    return out;
}

} // namespace

std::string_view to_string(StencilKind v) {
    return name_of(kStencils, v);
}
std::string_view to_string(UpdateRule v) {
    return name_of(kRules, v);
}
std::string_view to_string(Variant v) {
    return name_of(kVariants, v);
}
std::string_view to_string(Precision v) {
    return name_of(kPrecisions, v);
}
std::string_view to_string(Backend v) {
    return name_of(kBackends, v);
}
std::string_view to_string(HaloMode v) {
    return name_of(kHaloModes, v);
}
std::optional<StencilKind> parse_stencil(std::string_view s) {
    return lookup(kStencils, s);
}
std::optional<UpdateRule> parse_rule(std::string_view s) {
    return lookup(kRules, s);
}
std::optional<Variant> parse_variant(std::string_view s) {
    return lookup(kVariants, s);
}
std::optional<Precision> parse_precision(std::string_view s) {
    return lookup(kPrecisions, s);
}
std::optional<Backend> parse_backend(std::string_view s) {
    return lookup(kBackends, s);
}

std::optional<HaloMode> parse_halo(std::string_view s) {
    return lookup(kHaloModes, s);
}

std::string_view to_string(SplitAxis v) {
    return name_of(kSplitAxes, v);
}

std::optional<SplitAxis> parse_split(std::string_view s) {
    return lookup(kSplitAxes, s);
}

std::optional<Extent> parse_extent(std::string_view s, int dims) {
    int parts = 0;
    const auto v = parse_triple(s, parts);
    if (!v || parts != dims) return std::nullopt;
    return Extent { (*v)[0], (*v)[1], dims == 3 ? (*v)[2] : 1 };
}

std::optional<BlockDims> parse_block(std::string_view s) {
    int parts = 0;
    const auto v = parse_triple(s, parts);
    if (!v || parts < 2) return std::nullopt;
    return BlockDims { (*v)[0], (*v)[1], (*v)[2] };
}

std::string format_extent(const Extent& e, int dims) {
    std::string s = std::to_string(e.nx) + "x" + std::to_string(e.ny);
    if (dims == 3) s += "x" + std::to_string(e.nz);
    return s;
}

std::string format_block(const BlockDims& b) {
    return std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z);
}

bool variant_applies(StencilKind k, Variant v) {
    switch (v) {
    case Variant::Base:
    case Variant::SmemPadded:
    case Variant::Stream:
    case Variant::Uncoalesced:
    case Variant::Temporal:
        return k != StencilKind::Diffusion4; // point stencils: can_implement says which run so far
    case Variant::Smem:
    case Variant::Auto: // every stencil has a kernel to choose
        return true;
    case Variant::Naive:
    case Variant::Merged:
    case Variant::NoTemp:
        return k == StencilKind::Diffusion4;
    }
    return false;
}

std::string describe(const StencilConfig& c) {
    std::string s(to_string(c.problem.stencil));
    if (c.problem.stencil == StencilKind::Points && c.problem.shape)
        s = c.problem.shape->name + " R" + std::to_string(c.problem.radius) + " "
            + std::to_string(c.problem.shape->points.size()) + " points";
    if (c.problem.stencil == StencilKind::Star)
        s += " R" + std::to_string(c.problem.radius) + " " + std::string(to_string(c.problem.rule));
    s += " " + std::to_string(c.problem.dims) + "D " + format_extent(c.problem.size, c.problem.dims) + " "
        + std::string(to_string(c.problem.precision));
    s += " " + std::string(to_string(c.policy.variant));
    if (c.policy.cf > 1) s += " CF" + std::to_string(c.policy.cf);
    if (c.policy.variant == Variant::Temporal) s += " depth " + std::to_string(c.policy.depth);
    if (strip_count(c.placement) > 1) {
        s += " " + std::to_string(c.placement.gpus) + (c.placement.gpus == 1 ? " GPU" : " GPUs");
        if (c.placement.strips_per_device > 1) s += " x" + std::to_string(c.placement.strips_per_device) + " strips";
        if (!c.placement.overlap) s += " overlap off";
        if (c.placement.halo != HaloMode::Auto) s += " " + std::string(to_string(c.placement.halo));
        if (!splits_slowest(c)) s += std::string(" split ") + axis_name(split_axis(c));
    }
    return s;
}

std::vector<std::string> split_fields(std::string_view text, char separator) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const auto end = text.find(separator, start);
        fields.emplace_back(text.substr(start, end - start));
        if (end == std::string_view::npos) return fields;
        start = end + 1;
    }
}

} // namespace ss
