// SPDX-License-Identifier: MIT
// Which colour map the field is shown with: part of what a session and a setup file hold. The tables
// themselves are the view's (widgets/colormap.h).
#pragma once

#include <optional>
#include <string_view>

namespace ss::gui {

enum class ColormapKind { Viridis, Inferno, Coolwarm, Grayscale };
inline constexpr ColormapKind kColormaps[]
    = { ColormapKind::Viridis, ColormapKind::Inferno, ColormapKind::Coolwarm, ColormapKind::Grayscale };

// Diverging maps put zero in the middle, so their automatic range is symmetric about zero.
inline bool is_diverging(ColormapKind kind) {
    return kind == ColormapKind::Coolwarm;
}

std::string_view to_string(ColormapKind);
std::string_view display_name(ColormapKind);
std::optional<ColormapKind> parse_colormap(std::string_view);

} // namespace ss::gui
