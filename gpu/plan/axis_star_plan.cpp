// SPDX-License-Identifier: MIT
#include "gpu/plan/axis_star_plan.h"

#include "gpu/plan/knobs.h"
#include "gpu/problem/axis_star.h"

namespace ss {

bool temporal_on_star_kernel(const StencilProblem& p) {
    if (p.stencil == StencilKind::Star) return true;
    return p.stencil == StencilKind::Points && p.shape && knob_flag(Knob::PointAxisStar)
        && axis_star_weights(*p.shape).has_value();
}

bool runs_as_axis_star(const StencilConfig& c) {
    return c.problem.stencil == StencilKind::Points && c.policy.variant == Variant::Temporal
        && temporal_on_star_kernel(c.problem);
}

StencilConfig planned_config(const StencilConfig& c) {
    if (!runs_as_axis_star(c)) return c;
    StencilConfig star = c;
    star.problem.stencil = StencilKind::Star;
    star.problem.rule = UpdateRule::Jacobi;
    star.problem.radius = c.problem.shape->radius();
    return star;
}

} // namespace ss
