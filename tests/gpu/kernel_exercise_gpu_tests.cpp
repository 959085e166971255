// SPDX-License-Identifier: MIT
// "Write the kernel" on the device: the unedited template matches the CPU reference and is timed beside the
// built-in base kernel; a body that forgets a neighbour, or writes the border, fails the check.
#include "gpu/studies/kernel_exercise.h"
#include "gpu_test_util.h"

using namespace ss;

namespace {

StencilConfig exercise_on_device(int radius, Precision p) {
    StencilConfig window;
    window.problem.radius = radius, window.problem.precision = p, window.problem.dims = 2;
    window.problem.size = { 1024, 768, 1 };
    return exercise_config(window);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

} // namespace

TEST(KernelExerciseGpu, TemplatePassesAndIsTimedBesideTheBuiltIn) {
    SKIP_WITHOUT_GPU();
    for (int r : { 1, 4 })
        for (Precision p : { Precision::FP32, Precision::FP64 }) {
            const StencilConfig c = exercise_on_device(r, p);
            const KernelExerciseResult got = run_kernel_exercise(c, exercise_template(c), test::catalogue());
            ASSERT_TRUE(got.compiled) << got.log;
            ASSERT_TRUE(got.ran) << got.not_run;
            EXPECT_TRUE(got.passed) << describe(c) << ": " << got.verdict;
            EXPECT_LT(got.relative_error, exercise_tolerance(p));
            EXPECT_GT(got.ours_gcells_per_s, 0.0);
            EXPECT_GT(got.builtin_gcells_per_s, 0.0) << got.builtin_error;
            std::printf("%s: ours %.1f GCells/s, built-in base %.1f GCells/s\n", describe(c).c_str(),
                got.ours_gcells_per_s, got.builtin_gcells_per_s);
        }
}

TEST(KernelExerciseGpu, MissingNeighbourFails) {
    SKIP_WITHOUT_GPU();
    const StencilConfig c = exercise_on_device(2, Precision::FP32);
    const std::string wrong = replaced(exercise_template(c), " + in[idx + (long long)d * nx]", "");
    const KernelExerciseResult got = run_kernel_exercise(c, wrong, test::catalogue());
    ASSERT_TRUE(got.compiled) << got.log;
    ASSERT_TRUE(got.ran) << got.not_run;
    EXPECT_FALSE(got.passed);
    EXPECT_GT(got.relative_error, exercise_tolerance(Precision::FP32));
    EXPECT_NE(got.verdict.find("one step differs"), std::string::npos) << got.verdict;
}

TEST(KernelExerciseGpu, WritingTheBorderFailsAfterSeveralSteps) {
    SKIP_WITHOUT_GPU();
    const StencilConfig c = exercise_on_device(1, Precision::FP32);
    // Every cell inside the field is written: the border cells get a sum that reads past the rows.
    const std::string wrong = replaced(exercise_template(c),
        "if (i < R || i >= nx - R || j < R || j >= ny - R) return;", "if (i >= nx || j >= ny) return;");
    const KernelExerciseResult got = run_kernel_exercise(c, wrong, test::catalogue());
    ASSERT_TRUE(got.ran) << got.not_run << got.log;
    EXPECT_FALSE(got.passed) << got.verdict;
}

TEST(KernelExerciseGpu, CompileErrorNamesItsLineAndNothingRuns) {
    SKIP_WITHOUT_GPU();
    const StencilConfig c = exercise_on_device(1, Precision::FP32);
    const std::string text = exercise_template(c);
    const int line = exercise_body_line(text);
    const std::string wrong = replaced(text, "const int i = ", "const int i = nope + ");
    const KernelExerciseResult got = run_kernel_exercise(c, wrong, test::catalogue());
    EXPECT_FALSE(got.compiled);
    EXPECT_FALSE(got.ran);
    EXPECT_EQ(got.error_lines, std::vector<int> { line }) << got.log;
}
