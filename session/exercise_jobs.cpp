// SPDX-License-Identifier: MIT
#include "session/exercise_jobs.h"

#include "gpu/backends/create_simulation.h"
#include "gpu/problem/cuda_support.h"
#include "gpu/problem/physics.h"
#include "gpu/studies/autotune.h"

namespace ss::gui {
namespace {

// Steps and runs per compared configuration: the Experiments window's defaults (one warm-up, the median counts).
constexpr int kCompareSteps = 8, kCompareRepeats = 5;

void measure(ComparedRun& run, const DeviceCatalogue& catalogue) {
    if (Status s = can_implement(run.config, catalogue); !s) {
        run.error = s.reason;
        return;
    }
    std::string why;
    auto sim = create_simulation(run.config, catalogue, &why);
    if (!sim) {
        run.error = why.empty() ? "the configuration could not be set up" : why;
        return;
    }
    run.resources = sim->resources();
    sim->upload(initial_field(run.config));
    run.ms_per_step = median_ms_per_step(*sim, whole_launch_steps(run.config, kCompareSteps), kCompareRepeats);
    run.gcells_per_s = gcells_per_s(run.config, run.ms_per_step);
}

} // namespace

void run_compare_job(const JobRequest& r, const DeviceCatalogue& catalogue, const std::atomic<bool>& cancel,
    JobOutcome& out, const std::function<void(const JobProgress&)>& progress) {
    for (const ComparedRun& asked : r.compare) {
        if (cancel.load()) break;
        JobProgress p;
        p.id = r.id, p.done = int(out.compared.size()), p.total = int(r.compare.size()), p.what = asked.label;
        progress(p);
        ComparedRun run = asked;
        try {
            measure(run, catalogue);
        } catch (const std::exception& e) {
            run.error = e.what();
        }
        out.compared.push_back(std::move(run));
    }
}

void run_kernel_exercise_job(const JobRequest& r, const DeviceCatalogue& catalogue, JobOutcome& out) {
    out.exercise = run_kernel_exercise(r.config, r.kernel_text, catalogue);
    out.device_name = out.exercise->device_name;
}

std::string kernel_exercise_unavailable() {
    const CudaPieceStatus nvrtc = nvrtc_status();
    return nvrtc.usable() ? std::string() : nvrtc.problem;
}

} // namespace ss::gui
