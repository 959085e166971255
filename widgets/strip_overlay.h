// SPDX-License-Identifier: MIT
// Multi-GPU runs on the field: a dashed line where one GPU's strip ends and the next begins, labelled
// with the devices, along the axis the strips are cut along (gpu/problem/config.h SplitAxis); a plane normal to it lies
// in one strip, whose GPU is named.
#pragma once

#include "gpu/plan/launch_plan.h"

namespace ss::gui {

class FieldView;

// Sets the view's overlay for the strips of `plan` (the Session's, of the run shown; none for a single-GPU run).
void show_strip_overlay(FieldView&, const LaunchPlan& plan);

} // namespace ss::gui
