// SPDX-License-Identifier: MIT
// The engine thread's tune of variant auto (issue 35): choose_auto (gpu/studies/auto_choice.h) with the CLI's
// production timer and the block search's cache file, so that the window and `stencilscope-cli run --variant auto`
// share their answers. The live run pauses only when candidates are timed (a cached answer needs no GPU time).
#include "session/engine_worker.h"

#include "gpu/studies/autotune_cache.h"

#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

namespace ss::gui {

void EngineWorker::resolve_auto(const AutoResolveRequest& r, const std::shared_ptr<const std::atomic<bool>>& cancel) {
    AutoResolved out;
    out.id = r.id;
    if (cancel->load()) { // a newer request came before this one reached the engine: nobody waits for it
        out.error = "auto's tune was superseded by a newer request";
        emit auto_resolved(out);
        return;
    }
    const StencilConfig& config = r.settings.config;
    std::optional<FieldState> paused;
    bool pausing_done = false;
    std::vector<double> field; // what the candidates are timed on: filled when the live run pauses
    try {
        AutotuneCache cache(default_autotune_cache_path());
        const AutoTimeFn timer = m_auto_timer ? m_auto_timer : simulation_timer(m_catalogue, field);
        const AutoChoice choice = choose_auto(
            config, m_catalogue, timer, &cache, true, [&](int index, int total, const AutoCandidate& candidate) {
                if (!pausing_done) { // the first candidate to time: the GPU is the tune's from here
                    pausing_done = true;
                    paused = pause_live_run();
                    // The live field when it has this extent (what the user looks at), else the configured one.
                    field = paused && std::int64_t(paused->current.size()) == config.problem.size.cells()
                        ? paused->current
                        : initial_field(config);
                }
                emit auto_progress({ r.id, index, total, candidate.label });
                return !cancel->load();
            });
        out.candidates = int(choice.measurements.size());
        out.from_cache = choice.from_cache;
        if (choice.verdict) {
            out.chosen = choice.config;
            out.reason = choice.reason;
        } else {
            out.error = choice.verdict.reason;
        }
        if (!choice.saved) out.warning = choice.saved.reason;
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    emit auto_resolved(out);
    if (pausing_done && !paused && m_sim) return fail(out.error); // its state could not be saved, as run_job says
    resume_live_run(paused);
}

} // namespace ss::gui
