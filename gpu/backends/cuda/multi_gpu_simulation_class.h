// SPDX-License-Identifier: MIT
// The Simulation behind create_multi_gpu_simulation: one CudaSimulation per strip, their streams, events and
// worker threads. Its members, by job: the step schedule (multi_gpu_simulation.cpp, which describes it), building
// and releasing the strips (multi_gpu_setup.cpp), the field in and out of the strips (multi_gpu_field_access.cpp),
// and the profiled step with the strips' statistics (multi_gpu_profiling.cpp).
#pragma once

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"
#include "gpu/backends/cuda/halo_exchange.h"
#include "gpu/backends/cuda/strip_workers.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ss {

class MultiGpuSimulation final : public Simulation {
public:
    MultiGpuSimulation(const StencilConfig& c, const StripPlan& strips, const std::vector<KernelPlan>& strip_kernels)
        : m_config(c)
        , m_plan(strips) {
        try {
            build(strip_kernels);
        } catch (...) {
            release();
            throw;
        }
    }
    ~MultiGpuSimulation() override { release(); }

    const StencilConfig& config() const override { return m_config; }
    const KernelResources& resources() const override { return m_strips.front().field->resources(); }
    long long iteration() const override { return m_iteration; }

    // The step schedule: multi_gpu_simulation.cpp.
    void step_async(int n) override;
    StepTiming step(int n) override;
    void synchronize() override;
    std::uint64_t enqueue_marker() override;
    void wait_marker(std::uint64_t marker) override;

    // The field in and out of the strips: multi_gpu_field_access.cpp.
    void upload(const std::vector<double>& field) override;
    FieldState save_state() override;
    void restore_state(const FieldState& state) override;
    std::vector<double> download() override;
    std::vector<float> download_slice(SliceAxis axis, int index) override;
    bool slice_to_device(SliceAxis axis, int index, float* device_out, int step) override;
    bool queue_display_range(
        const float* device_values, std::size_t count, unsigned* device_scratch, unsigned* host_out) override;
    void inject(int x, int y, int z, int radius, double value) override;
    void poison_output() override;

    // The profiled step and the strips' statistics: multi_gpu_profiling.cpp.
    void step_for_profiling(int n) override;
    template <class Work> void on_each_strip(Work work) { // in strip order, on this thread
        for (std::size_t i = 0; i < m_strips.size(); ++i) set_device(i), work(m_strips[i]);
    }
    MultiGpuStats multi_gpu_stats() const override;

private:
    void build(const std::vector<KernelPlan>& strip_kernels); // multi_gpu_setup.cpp
    void release();

    int launch_steps(int remaining) const; // multi_gpu_simulation.cpp
    void step_strip(StripState& s, int steps, bool sample);
    void send(StripState& s, cudaStream_t stream, bool sample);
    void receive(StripState& s, cudaStream_t stream, bool sample);
    void exchange_only();
    void join_into_first();

    void load(const double* current, const double* previous, long long iteration); // multi_gpu_field_access.cpp
    std::vector<double> gather(bool previous);

    void harvest_timers() const; // multi_gpu_profiling.cpp
    StripTimer& timer_of(const StripState& s) { return m_timers[std::size_t(&s - m_strips.data())]; }

    // The rows a strip's kernels update, in its row numbering: a box strip's whole slow axis.
    int rows_begin(const StripState& s) const {
        return boxes() ? m_plan.ghost_depth : s.strip.update_begin - s.strip.local_begin;
    }
    int rows_end(const StripState& s) const {
        return boxes() ? slow_extent(s.field->config().problem) - m_plan.ghost_depth
                       : rows_begin(s) + s.strip.updated_rows();
    }
    bool remote() const { return m_config.placement.halo == HaloMode::Remote; }
    // Remote mode has no copy to hide; box strips cannot compute their boundary first (check_strips refuses). A
    // temporal strip computes the G rows its neighbours need in launches of their own (multi_gpu_simulation.cpp).
    bool overlapped() const { return m_config.placement.overlap && !remote() && !boxes(); }
    bool temporal() const { return m_config.policy.variant == Variant::Temporal; }
    bool boxes() const { return !splits_slowest(m_config); } // strips along x, or y in 3D: boxes of the domain
    static const StencilProblem& local_problem(const StripState& s) { return s.field->config().problem; }
    StripState& owner(int row) {
        for (StripState& s : m_strips)
            if (row < s.strip.end_row) return s;
        return m_strips.back();
    }
    std::size_t row_cells() const { return std::size_t(m_config.problem.size.cells() / split_extent(m_config)); }
    std::size_t row_bytes() const { return m_strips.front().field->row_bytes(); }
    std::size_t halo_bytes() const { return halo_rows().bytes(); }
    HaloRows halo_rows() const {
        HaloRows rows { m_plan.ghost_depth, row_bytes() };
        if (!boxes()) return rows;
        rows.box_axis = split_axis(m_config);
        rows.layer = m_config.problem.size;
        extent_along(rows.layer, rows.box_axis) = m_plan.ghost_depth;
        rows.element_bytes = std::size_t(element_size(m_config.problem.precision));
        return rows;
    }
    // Bytes between consecutive layers along the split axis (remote strips have equal widths: check_strips).
    std::size_t layer_stride() const {
        if (!boxes()) return row_bytes();
        const std::size_t es = std::size_t(element_size(m_config.problem.precision));
        return split_axis(m_config) == 0 ? es : es * std::size_t(local_problem(m_strips.front()).size.nx);
    }
    cudaStream_t first_stream() const { return m_strips.front().field->stream(); }
    void set_device(std::size_t strip) const {
        cuda_check(cudaSetDevice(m_strips[strip].field->device()), "cudaSetDevice");
    }
    void set_device_nothrow(std::size_t strip) const { cudaSetDevice(m_strips[strip].field->device()); }

    StencilConfig m_config;
    StripPlan m_plan;
    std::vector<StripState> m_strips;
    mutable std::vector<StripTimer> m_timers; // per strip; harvesting them is not a change of state
    std::unique_ptr<StripWorkers> m_workers;
    cudaEvent_t m_start = nullptr, m_stop = nullptr;
    static constexpr int kMarkers = 4;
    cudaEvent_t m_markers[kMarkers] = {};
    std::uint64_t m_next_marker = 0;
    long long m_iteration = 0;
    mutable bool m_timed = false;
};

} // namespace ss
