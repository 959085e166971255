// SPDX-License-Identifier: MIT
// The exercise's device side in a CPU-only build (gpu/backends/exercise_kernel.h): no NVRTC, no device.
#include "gpu/backends/cpu_only.h"
#include "gpu/backends/exercise_kernel.h"

namespace ss {

ExerciseCompile compile_exercise_kernel(const std::string&, int, int) {
    ExerciseCompile c;
    c.nvrtc_missing = true;
    c.log = kNoCudaBackend;
    return c;
}

ExerciseKernelRun run_exercise_kernel(const ExerciseKernelRequest&) {
    ExerciseKernelRun r;
    r.compile = compile_exercise_kernel({}, 0, 0);
    return r;
}

} // namespace ss
