// SPDX-License-Identifier: MIT
// The engine thread's jobs (autotune, experiment sweeps, exercises: session/exercise_jobs.h): they pause the
// live run, keep its field on the host, have the GPU to themselves and put the run back as it was.
#include "gpu/backends/create_simulation.h"
#include "session/engine_worker.h"

#include "gpu/studies/autotune_cache.h"
#include "session/exercise_jobs.h"

#include <optional>
#include <utility>

namespace ss::gui {

void EngineWorker::run_job(const JobRequest& request, const std::shared_ptr<const std::atomic<bool>>& cancel) {
    JobOutcome out;
    out.id = request.id;
    out.request = request;
    std::optional<FieldState> state;
    std::optional<std::pair<StencilConfig, BlockDims>> live_block; // what the live kernel was launched with
    try {
        if (m_sim) live_block = { { m_sim->config(), m_sim->resources().block } };
        state = pause_live_run();
    } catch (const std::exception& e) {
        out.error = std::string("the live run could not be paused: ") + e.what();
        emit job_finished(out);
        return fail(e.what());
    }
    try {
        if (request.kind == JobRequest::Kind::Autotune) {
            run_autotune_job(request, *cancel, out, state ? &state->current : nullptr, live_block);
        } else if (request.kind == JobRequest::Kind::Compare) {
            if (!request.compare.empty()) out.device_name = device_name(request.compare.front().config);
            run_compare_job(request, m_catalogue, *cancel, out, [this](const JobProgress& p) { emit job_progress(p); });
        } else if (request.kind == JobRequest::Kind::KernelExercise) {
            run_kernel_exercise_job(request, m_catalogue, out);
        } else {
            run_experiment_job(request, *cancel, out);
        }
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    out.cancelled = cancel->load();
    emit job_finished(out);
    resume_live_run(state);
}

std::optional<FieldState> EngineWorker::pause_live_run() {
    // Drain the live run, keep its whole state on the host and free its device memory, so that the job measures an
    // idle GPU and may use all of its memory.
    std::optional<FieldState> state;
    if (m_sim) {
        if (m_previous_batch) m_sim->wait_marker(*m_previous_batch);
        m_previous_batch.reset();
        state = m_sim->save_state();
    }
    m_sampler.stop_continuous(); // restart() starts it again after the job
    m_sim.reset();
    retire_staging();
    free_released_staging(); // an experiment may need the memory: what the GUI no longer shows goes now
    m_sampler.release_collector(); // one profiler per device: an experiment may need its own
    return state;
}

void EngineWorker::resume_live_run(const std::optional<FieldState>& state) {
    if (!state) return;
    // Resume where the run paused (a newer configuration queued meanwhile takes over from here).
    std::string why;
    m_sim = create_simulation(m_settings.config, m_catalogue, &why);
    if (!m_sim) return fail(why.empty() ? "the paused run could not be resumed" : why);
    try {
        m_sim->restore_state(*state);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    restart(m_generation, true);
}

void EngineWorker::run_autotune_job(const JobRequest& r, const std::atomic<bool>& cancel, JobOutcome& out,
    const std::vector<double>* live_field, const std::optional<std::pair<StencilConfig, BlockDims>>& live_block) {
    StencilConfig config = r.config;
    if (config.placement.backend != Backend::Cuda)
        throw std::runtime_error("autotune searches CUDA block dims: choose a CUDA device");
    config.policy.heuristic_block = true;
    if (Status s = can_implement(config, m_catalogue); !s) throw std::runtime_error(s.reason);
    out.device_name = device_name(config);
    const DeviceInfo* device = m_catalogue.find(config.placement.device);
    JobProgress first;
    first.id = r.id;
    first.what = "compiling";
    first.space = autotune_space(config, device);
    first.total = int(autotune_candidates(config, device).size()); // a temporal block at several depths
    // The heuristic's block comes from the occupancy API of the compiled kernel: the live run's, when it
    // ran this configuration with the heuristic, else from a simulation built for the question.
    if (live_block && live_block->first == config) {
        first.heuristic = out.heuristic = live_block->second;
    } else {
        std::string why;
        if (auto sim = create_simulation(config, m_catalogue, &why))
            first.heuristic = out.heuristic = sim->resources().block;
    }
    emit job_progress(first);
    // The live field when it has this extent (what the user looks at), else the configured initial one.
    const std::vector<double> field = live_field && std::int64_t(live_field->size()) == config.problem.size.cells()
        ? *live_field
        : make_initial_field(config, m_settings.config.problem.initial, m_settings.config.problem.seed);
    const auto progress = [&](int done, int total, const AutotuneResult& last) {
        JobProgress p;
        p.id = r.id, p.done = done, p.total = total, p.what = describe_candidate(config, last);
        p.has_candidate = true;
        p.candidate = last;
        emit job_progress(p);
        return !cancel.load();
    };
    // The CLI's cache file: a search run headless shows up here, and the other way round.
    AutotuneCache cache(default_autotune_cache_path());
    CachedAutotune tuned
        = autotune_cached(config, m_catalogue, field, r.steps, r.repeats, progress, &cache, r.use_cache);
    out.candidates = std::move(tuned.results);
    out.from_cache = tuned.from_cache;
    out.cached_at = tuned.stored;
    if (!tuned.saved) out.warnings.push_back(tuned.saved.reason);
}

void EngineWorker::run_experiment_job(const JobRequest& r, const std::atomic<bool>& cancel, JobOutcome& out) {
    if (Status s = check_experiment(r.experiment); !s) throw std::runtime_error(s.reason);
    out.device_name = device_name(r.experiment.base);
    AutotuneCache cache(default_autotune_cache_path());
    std::optional<ExperimentPoint> measured; // goes out with the next progress report
    out.points = run_experiment(
        r.experiment, m_catalogue,
        [&](int done, int total, const std::string& what) {
            JobProgress p;
            p.id = r.id, p.done = done, p.total = total, p.what = what;
            p.point = std::exchange(measured, std::nullopt);
            emit job_progress(p);
            return !cancel.load();
        },
        &cache, &out.warnings, [&](const ExperimentPoint& point) { measured = point; });
}

} // namespace ss::gui
