// SPDX-License-Identifier: MIT
// Multi-GPU runs on the field: a dashed line where one GPU's strip ends and the next begins, labelled
// with the devices. Strips are cut along y in 2D and z in 3D, so the XY plane of a 3D run lies in one
// strip: its GPU is named.
#pragma once

#include "gpu/config.h"

namespace ss::gui {

class FieldView;

// Sets the view's overlay for `config` (none for a single-GPU run).
void show_strip_overlay(FieldView&, const StencilConfig& config);

} // namespace ss::gui
