// SPDX-License-Identifier: MIT
// The engine thread's switch between configurations: the kernels built in the background while the running one goes
// on, the field handed over on the device (or saved and restored through the host), the previous run brought back
// when the new one cannot start, the new run's fresh start, and the kernels built ahead of the knobs (issue 40).
#include "session/engine_worker.h"

#include "gpu/backends/create_simulation.h"
#include "gpu/plan/knob_neighbours.h"

#include <QTimer>

#include <chrono>
#include <stdexcept>

namespace ss::gui {
namespace {

constexpr int kBuildPollMs = 4; // how often a background kernel build is looked at: well within a frame

double ms_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

void EngineWorker::configure(std::uint64_t generation, const RunSettings& settings, const LaunchPlan& plan) {
    if (generation < m_latest->load()) return; // a newer configuration is already queued
    m_requested_at = std::chrono::steady_clock::now();
    m_switch = {};
    m_pending.reset(); // an older build still running finishes into the kernel cache; nobody waits for it
    if (m_sim && plan_builds_kernels(plan, m_catalogue)) {
        m_pending = PendingConfiguration { generation, settings, plan };
        m_build.post(generation, [plan, catalogue = m_catalogue] { return prepare_kernels(plan, catalogue); });
        schedule(); // the running configuration's loop stopped when this request was made (superseded())
        poll_build();
        return;
    }
    switch_to(generation, settings, plan);
}

void EngineWorker::poll_build() {
    if (!m_pending) return;
    if (!m_build.result(m_pending->generation)) { // still building: look again soon, the old run goes on
        if (m_build_poll_queued) return; // a timer is already queued: it looks at the newest request
        m_build_poll_queued = true;
        QTimer::singleShot(kBuildPollMs, this, [this] {
            m_build_poll_queued = false;
            poll_build();
        });
        return;
    }
    // A failed build is not reported here: switch_to builds again on this thread and brings the previous run
    // back with the reason, as it did before there was a background build.
    const PendingConfiguration next = std::move(*m_pending);
    m_pending.reset();
    m_switch.build_wait_ms = ms_since(m_requested_at);
    switch_to(next.generation, next.settings, next.plan);
}

void EngineWorker::switch_to(std::uint64_t generation, const RunSettings& settings, const LaunchPlan& plan) {
    if (generation < m_latest->load()) return; // a newer configuration is already queued
    m_generation = generation;
    const bool carry = m_sim && m_sim->config().problem.size == settings.config.problem.size
        && m_sim->config().problem.dims == settings.config.problem.dims
        && m_settings.config.problem.initial == settings.config.problem.initial
        && m_settings.config.problem.seed == settings.config.problem.seed;
    if (carry && m_sim && handed_over(generation, settings, plan)) return; // continuous sampling goes on
    m_sampler.stop_continuous(); // the field moves through the host: restart() starts it again
    // Same field, other kernel or GPU count: move the whole state (the wave's previous field too) and
    // keep running the old configuration if the new one cannot be built.
    if (carry && m_sim->config().placement.backend == settings.config.placement.backend
        && same_field(m_sim->config(), settings.config)) {
        const auto moving = std::chrono::steady_clock::now();
        const Status moved = repartition(m_sim, plan, m_catalogue);
        m_switch.save_ms = ms_since(moving);
        if (!m_sim) return fail(moved.reason);
        if (moved)
            m_settings = settings;
        else
            m_settings.config = m_sim->config();
        restart(generation, true); // the staging stays: a frame checks its device and size
        if (!moved) emit failed({ generation, moved.reason, true }); // after ready: the panel keeps the reason
        return;
    }
    // The running state is kept on the host until the new configuration runs: when it cannot be built or
    // allocated, the previous run comes back as it was instead of stopping (issue 15, class 8).
    std::optional<FieldState> previous;
    const RunSettings previous_settings = m_settings;
    const long long previous_base = m_iteration_base;
    std::vector<double> field;
    try {
        auto phase = std::chrono::steady_clock::now();
        if (m_sim) {
            if (m_previous_batch) m_sim->wait_marker(*m_previous_batch);
            m_previous_batch.reset();
            previous = m_sim->save_state();
            if (carry) {
                field = previous->current;
                m_iteration_base += m_sim->iteration();
            }
        }
        m_sim.reset(); // free its memory before the new one allocates
        retire_staging();
        m_switch.save_ms = ms_since(phase);
        phase = std::chrono::steady_clock::now();
        std::string why;
        m_sim = create_simulation(plan, m_catalogue, &why);
        m_switch.create_ms = ms_since(phase);
        phase = std::chrono::steady_clock::now();
        if (!m_sim)
            return resume_previous(previous, previous_settings, previous_base,
                why.empty() ? "the engine could not create the simulation" : why);
        m_settings = settings;
        if (!carry) {
            field = initial_field(settings.config);
            m_iteration_base = 0;
        }
        m_sim->upload(field);
        m_switch.upload_ms = ms_since(phase);
    } catch (const std::exception& e) {
        m_sim.reset();
        return resume_previous(previous, previous_settings, previous_base, e.what());
    }
    restart(generation, carry);
}

bool EngineWorker::handed_over(std::uint64_t generation, const RunSettings& settings, const LaunchPlan& plan) {
    const bool keep = same_field(m_sim->config(), settings.config);
    const auto moving = std::chrono::steady_clock::now();
    std::string why;
    std::unique_ptr<Simulation> next;
    try {
        if (m_previous_batch) m_sim->wait_marker(*m_previous_batch);
        m_previous_batch.reset();
        next = create_on_field(plan, m_catalogue, *m_sim, keep, &why);
    } catch (const std::exception& e) {
        why = e.what();
    }
    m_switch.create_ms = ms_since(moving);
    if (!next && why.empty()) return false; // no handover on the device: save and restore through the host
    const bool moved = next != nullptr;
    if (moved) {
        if (!keep) m_iteration_base += m_sim->iteration();
        m_sim = std::move(next); // the old simulation holds no field any more
        m_settings = settings;
    }
    restart(generation, true);
    if (!moved) emit failed({ generation, why, true }); // after ready: the previous run goes on, the panel says why
    return true;
}

void EngineWorker::resume_previous(const std::optional<FieldState>& previous, const RunSettings& settings,
    long long iteration_base, const std::string& why) {
    if (!previous) return fail(why);
    std::string ignored;
    m_sim = create_simulation(settings.config, m_catalogue, &ignored);
    if (!m_sim) return fail(why);
    try {
        m_sim->restore_state(*previous);
    } catch (const std::exception&) {
        return fail(why);
    }
    m_settings = settings;
    m_iteration_base = iteration_base;
    restart(m_generation, true);
    emit failed({ m_generation, why, true }); // after ready: the window runs the old setup and shows the reason
}

// A (new) simulation is ready: fresh pacing and statistics, the GUI is told, work resumes.
void EngineWorker::restart(std::uint64_t generation, bool reused_field) {
    m_steps_left = 0;
    m_batch = 1;
    m_previous_batch.reset();
    m_have_batch_clock = false;
    m_dirty = true;
    m_frame_wanted = true;
    start_stats_window();
    m_switch.total_ms = ms_since(m_requested_at);
    emit ready({ generation, m_settings, m_sim->resources(), device_name(m_settings.config), reused_field, m_switch });
    m_sampler.follow(m_sim.get(), generation); // the new kernel is profiled once the knobs rest a moment
    build_ahead_of_the_knobs();
    report_metrics_unavailable();
    schedule();
}

void EngineWorker::build_ahead(const std::vector<StencilConfig>& configs) {
    m_ahead_extra = configs;
    build_ahead_of_the_knobs();
}

void EngineWorker::build_ahead_of_the_knobs() {
    if (!m_sim || m_settings.config.placement.backend != Backend::Cuda) return;
    std::vector<StencilConfig> next = m_ahead_extra;
    for (StencilConfig& c : knob_neighbours(m_settings.config)) next.push_back(std::move(c));
    m_ahead.replace(std::move(next));
}

} // namespace ss::gui
