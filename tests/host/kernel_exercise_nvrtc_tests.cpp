// SPDX-License-Identifier: MIT
// "Write the kernel" through NVRTC (no GPU needed): the template compiles as written, and a planted error is
// blamed on its line of the student's text.
#include "gpu/backends/exercise_kernel.h"
#include "gpu/problem/device.h"
#include "gpu/studies/kernel_exercise.h"

#include <gtest/gtest.h>

using namespace ss;

namespace {

std::string with_line_replaced(const std::string& text, int line, const std::string& replacement) {
    std::string out;
    std::size_t at = 0;
    for (int n = 1; at <= text.size(); ++n) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        out += n == line ? replacement : text.substr(at, end - at);
        if (end == text.size()) break;
        out += '\n';
        at = end + 1;
    }
    return out;
}

} // namespace

TEST(KernelExerciseNvrtc, TemplateCompiles) {
    for (int r : { 1, 4 })
        for (Precision p : { Precision::FP32, Precision::FP64 }) {
            StencilConfig window;
            window.problem.radius = r, window.problem.precision = p;
            const ExerciseCompile c = compile_exercise_kernel(exercise_template(exercise_config(window)), 9, 0);
            EXPECT_TRUE(c.compiled) << "R" << r << ": " << c.log;
        }
}

TEST(KernelExerciseNvrtc, PlantedErrorIsBlamedOnItsLine) {
    const std::string text = exercise_template(exercise_config(StencilConfig {}));
    const int line = exercise_body_line(text) + 2; // inside the body
    const std::string broken = with_line_replaced(text, line, "    T acc = undefined_name + ;");
    const ExerciseCompile c = compile_exercise_kernel(broken, 9, 0);
    ASSERT_FALSE(c.compiled);
    EXPECT_FALSE(c.nvrtc_missing) << c.log;
    const std::vector<int> lines = compile_error_lines(c.log);
    ASSERT_FALSE(lines.empty()) << c.log;
    EXPECT_EQ(lines.front(), line) << c.log;
}

TEST(KernelExerciseNvrtc, WithoutADeviceTheTextIsCompiledAndTheRunRefused) {
    DeviceCatalogue none;
    none.unavailable = "no CUDA device (test)";
    const std::string text = exercise_template(exercise_config(StencilConfig {}));
    const KernelExerciseResult ok = run_kernel_exercise(exercise_config(StencilConfig {}), text, none);
    EXPECT_TRUE(ok.compiled) << ok.log;
    EXPECT_FALSE(ok.ran);
    EXPECT_NE(ok.not_run.find("needs a CUDA GPU"), std::string::npos) << ok.not_run;
    const KernelExerciseResult bad
        = run_kernel_exercise(exercise_config(StencilConfig {}), text + "\nint broken(\n", none);
    EXPECT_FALSE(bad.compiled);
    EXPECT_FALSE(bad.error_lines.empty()) << bad.log;
}
