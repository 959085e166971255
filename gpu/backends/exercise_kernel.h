// SPDX-License-Identifier: MIT
// The "write the kernel" exercise's device side (issue 38), without CUDA headers: a student's kernel text
// compiled by NVRTC, run for a correctness check and timed with CUDA events. gpu/studies/kernel_exercise.h
// writes the template, compares with the CPU reference and times the built-in kernel beside it.
// cuda/exercise_kernel.cpp implements it; cpu_only.cpp answers kNoCudaBackend.
#pragma once

#include "gpu/problem/config.h"

#include <string>
#include <vector>

namespace ss {

// What NVRTC said about a kernel text (no GPU needed): `compiled`, else `log` is NVRTC's log, or why NVRTC
// could not be asked at all (`nvrtc_missing`: then the log names no line of the text).
struct ExerciseCompile {
    bool compiled = false;
    bool nvrtc_missing = false;
    std::string log;
};
ExerciseCompile compile_exercise_kernel(const std::string& source, int cc_major, int cc_minor);

struct ExerciseKernelRequest {
    std::string source; // a 2D kernel `entry`(const T* in, T* out, int nx, int ny), T the config's precision
    std::string entry;
    StencilConfig check; // the field the correctness check runs on (2D; its size and precision)
    std::vector<double> initial; // check.size cells, x fastest
    int steps = 4; // the ping-pong run's steps
    StencilConfig timed; // the field the timing runs on (its size)
    int timed_steps = 10, repeats = 5; // per timed run; the median run counts (after one warm-up)
    int device = 0, cc_major = 0, cc_minor = 0;
};

struct ExerciseKernelRun {
    ExerciseCompile compile;
    // One step from `initial` into an output poisoned with NaN first (cells the kernel leaves alone stay NaN),
    // and `steps` steps ping-ponging between two buffers that both start as `initial` (the border stays fixed).
    std::vector<double> one_step, after_steps;
    double ms_per_step = 0.0; // median over the timed runs, on `timed`
    std::string error; // compiled but could not run (a launch or memory fault), in plain words
};

// Compiles and runs the request on its device. Never throws: failures come back in the result. The buffers
// have guard cells on both sides, so a kernel that reads or writes a little past the field does not fault.
ExerciseKernelRun run_exercise_kernel(const ExerciseKernelRequest&);

} // namespace ss
