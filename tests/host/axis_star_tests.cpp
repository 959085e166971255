// SPDX-License-Identifier: MIT
// Issue 35: a point stencil that is a star (every point on an axis) runs the temporal variant on the
// star's temporal kernel (gpu/plan/axis_star_plan.h). Which shapes are such stars, what the plan then lays out and
// names, and the weights the kernel text carries.
#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/problem/axis_star.h"
#include "gpu/problem/stencil_catalog.h"
#include "kernel_source_of.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace ss;

namespace {

StencilConfig point_config(const StencilShape& shape, Variant v) {
    StencilConfig c;
    use_shape(c.problem, shape);
    c.problem.size = shape.dims == 2 ? Extent { 512, 384, 1 } : Extent { 64, 48, 40 };
    c.policy.variant = v;
    if (v == Variant::Temporal) c.policy.depth = 3;
    return c;
}

std::string hex(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "T(%a)", v);
    return buf;
}

} // namespace

TEST(AxisStar, EbisusStarsAreRecognisedWithTheirWeightsPerDirection) {
    const auto five = axis_star_weights(*ebisu_shape("2d5pt"));
    ASSERT_TRUE(five);
    EXPECT_EQ(five->radius(), 1);
    EXPECT_TRUE(five->mirrored());
    EXPECT_DOUBLE_EQ(five->centre, 15.0 / 118);
    EXPECT_DOUBLE_EQ(five->arm[1][kMinusX], 12.0 / 118);
    EXPECT_DOUBLE_EQ(five->arm[1][kPlusY], 5.0 / 118);
    EXPECT_EQ(five->arm[1][kPlusZ], 0.0); // 2D: no z arm

    const auto nine = axis_star_weights(*ebisu_shape("2ds9pt"));
    ASSERT_TRUE(nine);
    EXPECT_EQ(nine->radius(), 2);
    EXPECT_DOUBLE_EQ(nine->arm[2][kPlusX], 9.0 / 118);
    EXPECT_DOUBLE_EQ(nine->arm[2][kMinusY], 7.0 / 118);

    // 3d7pt weighs each of its six neighbours differently (west 0.162, east 0.161, ... top 0.165).
    const auto seven = axis_star_weights(*ebisu_shape("3d7pt"));
    ASSERT_TRUE(seven);
    EXPECT_FALSE(seven->mirrored());
    EXPECT_DOUBLE_EQ(seven->centre, -1.67);
    const double arms[6] = { 0.162, 0.161, 0.164, 0.163, 0.166, 0.165 };
    for (int direction = 0; direction < 6; ++direction)
        EXPECT_DOUBLE_EQ(seven->arm[1][std::size_t(direction)], arms[direction]) << "direction " << direction;
    const auto thirteen = axis_star_weights(*ebisu_shape("3d13pt"));
    ASSERT_TRUE(thirteen);
    EXPECT_TRUE(thirteen->mirrored());
    EXPECT_DOUBLE_EQ(thirteen->arm[2][kPlusZ], 0.083);
}

TEST(AxisStar, ShapesWithPointsOffTheAxesAreNot) {
    for (const char* name : { "2d9pt", "2d25pt", "2d49pt", "3d27pt", "3d17pt", "poisson" })
        EXPECT_FALSE(axis_star_weights(*ebisu_shape(name))) << name;
    EXPECT_FALSE(axis_star_weights(box_shape(2, 1)));
    StencilShape one_sided { "one sided", 2, { { 0, 0, 0, 0.5 }, { 0, 2, 0, 0.5 } }, {} };
    sort_points(one_sided.points);
    const auto w = axis_star_weights(one_sided);
    ASSERT_TRUE(w) << "a point without its mirror is still on an axis";
    EXPECT_EQ(w->radius(), 2);
    EXPECT_EQ(w->arm[2][kMinusY], 0.0);
    EXPECT_FALSE(w->mirrored());
}

TEST(AxisStar, OnlyTheTemporalVariantOfSuchAStarIsPlannedAsTheStar) {
    const StencilConfig temporal = point_config(*ebisu_shape("3d7pt"), Variant::Temporal);
    ASSERT_TRUE(runs_as_axis_star(temporal));
    const StencilConfig planned = planned_config(temporal);
    EXPECT_EQ(planned.problem.stencil, StencilKind::Star);
    EXPECT_EQ(planned.problem.rule, UpdateRule::Jacobi);
    EXPECT_EQ(planned.problem.radius, 1);
    EXPECT_TRUE(planned.problem.shape) << "the weights travel with the shape";

    for (Variant v : { Variant::Base, Variant::Smem, Variant::Stream }) {
        const StencilConfig c = point_config(*ebisu_shape("3d7pt"), v);
        EXPECT_FALSE(runs_as_axis_star(c));
        EXPECT_EQ(planned_config(c), c);
    }
    const StencilConfig box = point_config(*ebisu_shape("3d27pt"), Variant::Temporal);
    EXPECT_FALSE(runs_as_axis_star(box));
    EXPECT_EQ(planned_config(box), box);
}

TEST(AxisStar, TheLaunchPlanNamesTheStarsKernelAndSaysWhy) {
    const StencilConfig c = point_config(*ebisu_shape("2d5pt"), Variant::Temporal);
    const LaunchPlan plan = make_launch_plan(c, described_catalogue(test::h100(), 1));
    ASSERT_TRUE(plan.verdict) << plan.verdict.reason;
    EXPECT_EQ(plan.config, c) << "the run's own configuration stays the point stencil's";
    ASSERT_FALSE(plan.kernel_plans.empty());
    EXPECT_EQ(plan.kernel.entry, "ss_temporal_2d");
    EXPECT_NE(plan.kernel.why.find("2d5pt is a star (every point on an axis)"), std::string::npos) << plan.kernel.why;
    // Laid out as the star's temporal kernel: its two shared planes.
    EXPECT_EQ(plan.dynamic_smem, dynamic_smem_bytes(planned_config(c), plan.block));
}

TEST(AxisStar, TheKernelTextCarriesEachAxisWeights) {
    for (Precision p : { Precision::FP32, Precision::FP64 }) {
        StencilConfig c = point_config(*ebisu_shape("2ds9pt"), Variant::Temporal);
        c.problem.precision = p;
        const std::string text = kernel_source_of(planned_config(c));
        EXPECT_NE(text.find("#define AXIS_WEIGHTS 1\n"), std::string::npos) << "its arms are mirrored";
        EXPECT_NE(text.find("#define W_CENTRE " + hex(15.0 / 118)), std::string::npos);
        const auto weight = [&](const char* axis, int d, double w) {
            const std::size_t at = text.find(std::string("T weight_") + axis + "(int d)");
            if (at == std::string::npos) return false;
            const std::size_t next = text.find('}', at);
            return text.substr(at, next - at).find("case " + std::to_string(d) + ": return " + hex(w))
                != std::string::npos;
        };
        EXPECT_TRUE(weight("xm", 1, 12.0 / 118));
        EXPECT_TRUE(weight("xp", 2, 9.0 / 118));
        EXPECT_TRUE(weight("ym", 1, 5.0 / 118));
        EXPECT_TRUE(weight("yp", 2, 7.0 / 118));
    }
    // 3d7pt's sides differ: one weight per direction, each product on its own (AXIS_WEIGHTS 2).
    const std::string seven = kernel_source_of(planned_config(point_config(*ebisu_shape("3d7pt"), Variant::Temporal)));
    EXPECT_NE(seven.find("#define AXIS_WEIGHTS 2\n"), std::string::npos);
    EXPECT_NE(seven.find("case 1: return " + hex(0.166)), std::string::npos) << "bottom (-z)";
    // The star's own text is as before: no axis weights.
    EXPECT_EQ(
        kernel_source_of(test::star_config(2, 2, Variant::Temporal, 1, Precision::FP32)).find("#define AXIS_WEIGHTS 1"),
        std::string::npos);
}
