// SPDX-License-Identifier: MIT
// The engine thread's exercise jobs (issue 38), called by EngineWorker::run_job with the live run paused: a
// lesson's compared configurations measured for a predict exercise, and a student's kernel checked and timed.
// Qt-free work on plain values; the worker sends the outcome back as a JobOutcome.
#pragma once

#include "session/engine_types.h"

#include <atomic>
#include <functional>
#include <string>

namespace ss::gui {

// Measures each of the request's compared configurations in order (a refused one carries the reason), reporting
// progress after each; stops early when `cancel` is set.
void run_compare_job(const JobRequest&, const DeviceCatalogue&, const std::atomic<bool>& cancel, JobOutcome&,
    const std::function<void(const JobProgress&)>& progress);

// The student's kernel (request.kernel_text) on request.config: compiled, checked and timed.
void run_kernel_exercise_job(const JobRequest&, const DeviceCatalogue&, JobOutcome&);

// Why "write the kernel" cannot compile on this machine (no NVRTC, a CPU-only build); "" when it can.
std::string kernel_exercise_unavailable();

} // namespace ss::gui
