// SPDX-License-Identifier: MIT
// "Write the kernel" (issue 38) without NVRTC: the template written for a configuration, and NVRTC's log read
// as lines of the student's text.
#include "gpu/problem/physics.h"
#include "gpu/studies/kernel_exercise.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace ss;

namespace {

StencilConfig exercise_with_radius(int r, Precision p = Precision::FP32) {
    StencilConfig window;
    window.problem.radius = r, window.problem.precision = p, window.problem.dims = 3; // a 3D window
    return exercise_config(window);
}

int line_of(const std::string& text, const std::string& needle) {
    const std::size_t at = text.find(needle);
    return at == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
}

} // namespace

TEST(KernelExercise, ConfigIsA2dJacobiStarOfTheWindowsRadius) {
    const StencilConfig c = exercise_with_radius(3, Precision::FP64);
    EXPECT_EQ(c.problem.dims, 2);
    EXPECT_EQ(c.problem.rule, UpdateRule::Jacobi);
    EXPECT_EQ(c.problem.stencil, StencilKind::Star);
    EXPECT_EQ(c.problem.radius, 3);
    EXPECT_EQ(c.problem.precision, Precision::FP64);
    EXPECT_EQ(c.problem.size, (Extent { 4096, 4096, 1 })); // a 3D window's field is not 2D: the default
    StencilConfig window2d;
    window2d.problem.dims = 2, window2d.problem.size = { 1000, 900, 1 };
    EXPECT_EQ(exercise_config(window2d).problem.size, (Extent { 1000, 900, 1 }));
}

TEST(KernelExercise, TemplateCarriesTheRadiusTypeAndTheAppsWeights) {
    const std::string text = exercise_template(exercise_with_radius(2));
    EXPECT_NE(text.find("typedef float T;"), std::string::npos);
    EXPECT_NE(text.find("#define R 2\n"), std::string::npos);
    // jacobi 2D R2: 1 / (2 * 2 * 2) for every neighbour, written exactly
    EXPECT_EQ(star_weights(UpdateRule::Jacobi, 2, 2).neighbour[1], 0.125);
    EXPECT_NE(text.find("case 1: return T(0.125);"), std::string::npos);
    EXPECT_NE(text.find("case 2: return T(0.125);"), std::string::npos);
    EXPECT_EQ(text.find("case 3:"), std::string::npos);
    EXPECT_NE(
        text.find(std::string("void ") + kExerciseEntry + "(const T* in, T* out, int nx, int ny)"), std::string::npos);
    EXPECT_NE(exercise_template(exercise_with_radius(1, Precision::FP64)).find("typedef double T;"), std::string::npos);
}

TEST(KernelExercise, WeightsThatAreNotShortDecimalsReadBackExactly) {
    const std::string text = exercise_template(exercise_with_radius(3)); // 1/12
    const double w = star_weights(UpdateRule::Jacobi, 2, 3).neighbour[1];
    const std::size_t at = text.find("case 1: return T(");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(std::strtod(text.c_str() + at + std::strlen("case 1: return T("), nullptr), w);
}

TEST(KernelExercise, BodyLineIsTheLineAfterTheMark) {
    const std::string text = exercise_template(exercise_with_radius(1));
    const int mark = line_of(text, kExerciseBodyBegin);
    ASSERT_GT(mark, 0);
    EXPECT_EQ(exercise_body_line(text), mark + 1);
    EXPECT_EQ(exercise_body_line("no mark here\n"), 0);
    EXPECT_LT(mark, line_of(text, kExerciseBodyEnd));
}

TEST(KernelExercise, ErrorLinesComeFromNvrtcsLog) {
    const std::string log
        = "stencilscope_kernel.cu(21): error: identifier \"acx\" is undefined\n"
          "stencilscope_kernel.cu(7): warning #177-D: variable \"k\" was declared but never referenced\n"
          "stencilscope_kernel.cu(24): error: expected a \";\"\n"
          "stencilscope_kernel.cu(21): error: too few arguments in function call\n"
          "stencilscope_kernel.cu(30): catastrophic error: cannot open source file \"x.h\"\n"
          "4 errors detected in the compilation of \"stencilscope_kernel.cu\".\n";
    EXPECT_EQ(compile_error_lines(log), (std::vector<int> { 21, 24, 30 })); // warnings are not errors; once each
    EXPECT_TRUE(compile_error_lines("").empty());
    EXPECT_TRUE(compile_error_lines("NVRTC 13 not found: libnvrtc.so.13 is not in the library path").empty());
}

TEST(KernelExercise, ToleranceIsTheKernelTestsBound) {
    EXPECT_EQ(exercise_tolerance(Precision::FP32), 1e-5);
    EXPECT_EQ(exercise_tolerance(Precision::FP64), 1e-12);
}
