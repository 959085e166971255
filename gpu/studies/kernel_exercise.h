// SPDX-License-Identifier: MIT
// "Write the kernel" (issue 38): the template a student starts from (a complete 2D star kernel, jacobi rule,
// the app's weights written into the text), NVRTC's errors as lines of that text, and the check of an edited
// kernel: against the double-precision CPU reference on random data, and timed beside the built-in base
// kernel of the same configuration. Qt-free; the device work is gpu/backends/exercise_kernel.h.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/device.h"

#include <limits>
#include <string>
#include <vector>

namespace ss {

inline constexpr const char* kExerciseEntry = "ss_exercise_2d";
// The lines that mark the part the student edits (the template's body between them).
inline constexpr const char* kExerciseBodyBegin = "// ---- your code starts here ----";
inline constexpr const char* kExerciseBodyEnd = "// ---- your code ends here ----";

// The exercise's configuration from the window's: a 2D star stencil, jacobi rule, the window's radius and
// precision (fp32 unless fp64), on the CUDA device the window names (the first one otherwise). The size is
// the window's when it is 2D, else 4096x4096: the timed field.
StencilConfig exercise_config(const StencilConfig& window);
// The template for `c` (exercise_config): typedef T, R, the weights as exact literals, and a kernel that
// passes the check unedited.
std::string exercise_template(const StencilConfig& c);
// The 1-based line of the body's first editable line in `text` (after kExerciseBodyBegin); 0 when the mark
// is gone.
int exercise_body_line(const std::string& text);
// The lines NVRTC's log blames ("file.cu(12): error: ..."), ascending, each once. The exercise compiles the
// student's text as it is, so they are lines of that text.
std::vector<int> compile_error_lines(const std::string& log);

// The relative L2 error below which a kernel passes (the kernel tests' bound: FMA and summation order differ).
inline double exercise_tolerance(Precision p) {
    return p == Precision::FP32 ? 1e-5 : 1e-12;
}

struct KernelExerciseResult {
    bool compiled = false;
    std::string log; // NVRTC's log (warnings too), or why the text could not be compiled at all
    std::vector<int> error_lines; // of the student's text
    bool ran = false; // the kernel ran on a GPU (compiled, and a CUDA device is present)
    std::string not_run; // why it did not run, when it compiled
    // Over the cells a step updates: the larger of the one-step (poisoned output) and the several-step runs.
    double max_abs_error = std::numeric_limits<double>::quiet_NaN();
    double relative_error = std::numeric_limits<double>::quiet_NaN();
    bool passed = false;
    std::string verdict; // one line: what passed, or which check failed and by how much
    double ours_gcells_per_s = 0.0, builtin_gcells_per_s = 0.0; // on the timed field
    std::string builtin_error; // the built-in kernel could not be timed
    std::string device_name;
    StencilConfig config; // as checked and timed
};

// Compiles `text` for the configuration's device (sm_90 with no device: NVRTC needs none); runs and checks
// it when a CUDA device is present. Never throws.
KernelExerciseResult run_kernel_exercise(const StencilConfig& c, const std::string& text, const DeviceCatalogue&);

} // namespace ss
