// SPDX-License-Identifier: MIT
#include "session/colormap_kind.h"

#include <utility>

namespace ss::gui {
namespace {

constexpr std::pair<std::string_view, ColormapKind> kNames[]
    = { { "viridis", ColormapKind::Viridis }, { "inferno", ColormapKind::Inferno },
          { "coolwarm", ColormapKind::Coolwarm }, { "grayscale", ColormapKind::Grayscale } };

} // namespace

std::string_view to_string(ColormapKind kind) {
    for (const auto& [name, k] : kNames)
        if (k == kind) return name;
    return "?";
}

std::string_view display_name(ColormapKind kind) {
    switch (kind) {
    case ColormapKind::Viridis:
        return "Viridis";
    case ColormapKind::Inferno:
        return "Inferno";
    case ColormapKind::Coolwarm:
        return "Cool-warm (diverging)";
    case ColormapKind::Grayscale:
        break;
    }
    return "Grayscale";
}

std::optional<ColormapKind> parse_colormap(std::string_view s) {
    for (const auto& [name, k] : kNames)
        if (name == s) return k;
    return std::nullopt;
}

} // namespace ss::gui
