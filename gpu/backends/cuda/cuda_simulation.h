// SPDX-License-Identifier: MIT
// One GPU's field: its two buffers, the compiled kernels and the launch plan. On its own it is the
// single-GPU Simulation; the multi-GPU engine (multi_gpu_simulation.cpp) runs one per strip and drives
// it through the strip interface below.
#pragma once

#include "gpu/backends/cuda/launch_gate.h"
#include "gpu/backends/simulation.h"
#include "gpu/plan/kernel_plan.h"

#include <cuda_runtime.h>

namespace ss {

class CompiledModule;
class TemporalSteps;

// Compiles the plan's kernels (NVRTC, cached), picks the block by its rule and allocates the field.
// nullptr with `why` set when the device refuses (e.g. the compiled kernel leaves no valid block).
std::unique_ptr<Simulation> create_cuda_simulation(const KernelPlan&, std::string* why);
// What create_cuda_simulation compiles and loads, into the kernel caches, with no field allocated: the same
// modules, the occupancy questions and the specialised builds. False with `why` set on failure.
bool prepare_cuda_kernels(const KernelPlan&, std::string* why);
// The plan's kernels over `running`'s field, handed over on the device (CudaSimulation::take_field): nullptr with
// `why` empty when the handover does not apply, with `why` set when the plan cannot be built (`running` untouched).
std::unique_ptr<Simulation> create_cuda_simulation_on_field(
    const KernelPlan&, Simulation& running, bool keep_previous, std::string* why);

class CudaSimulation final : public Simulation {
public:
    // The plan's field (extent, device) with the plan's kernels (gpu/plan/kernel_plan.h: a strip along the slow
    // axis compiles the whole domain's single-GPU text, so it runs exactly the code one GPU runs and shares its
    // cache entry). Without `allocate_field` only the kernels are built and loaded (prepare_cuda_kernels): no
    // stream, no buffers, so nothing may run. Throws CudaError.
    explicit CudaSimulation(const KernelPlan&, bool allocate_field = true);
    ~CudaSimulation() override;
    CudaSimulation(const CudaSimulation&) = delete;
    CudaSimulation& operator=(const CudaSimulation&) = delete;

    const StencilConfig& config() const override { return m_config; }
    const KernelResources& resources() const override { return m_res; }
    long long iteration() const override { return m_iteration; }
    void upload(const std::vector<double>& field) override;
    void step_async(int n) override;
    StepTiming step(int n) override;
    void synchronize() override;
    std::uint64_t enqueue_marker() override;
    void wait_marker(std::uint64_t marker) override;
    std::vector<double> download() override;
    std::vector<float> download_slice(SliceAxis, int index) override;
    bool slice_to_device(SliceAxis, int index, float* device_out, int step) override;
    bool max_projection_to_device(SliceAxis, float* device_out) override;
    bool queue_display_range(
        const float* device_values, std::size_t count, unsigned* device_scratch, unsigned* host_out) override;
    void inject(int x, int y, int z, int radius_cells, double value) override;
    void poison_output() override;
    FieldState save_state() override;
    void restore_state(const FieldState&) override;
    // For a simulation built without a field: takes `donor`'s buffers (no copy, no second set in memory) when both
    // hold one GPU's dense field of one size and element type on one device; the donor is left without a field.
    // `keep_previous`: the run goes on (the wave's u(t-1), the step count); otherwise it starts at rest from the
    // current field, as upload() does. False, and nothing moved, when the layouts differ.
    bool take_field(CudaSimulation& donor, bool keep_previous);

    // ---- The strip interface. "Rows" run along the split axis (gpu/plan/strip_plan.h: y or z for the star,
    // the layers for diffusion), in this field's local numbering.
    // Star: update rows [lo, hi) from the current buffer into the next one, on `stream` (R <= lo < hi <= rows - R).
    void launch_star_rows(int lo, int hi, cudaStream_t stream);
    // 3D, without neighbour pointers (remote): rows [y_lo, y_hi) of planes [z_lo, z_hi) only (R <= lo < hi <=
    // extent - R on both axes), each cell as a whole step computes it where y_lo - R is a multiple of the kernel's
    // run along y (strip_cut_unit): a rank's box computes the layers next to its y faces apart from the rest.
    void launch_star_box(int y_lo, int y_hi, int z_lo, int z_hi, cudaStream_t stream);
    // One whole step's kernels (every row), into the next buffer, on the own stream.
    void launch_step();
    // The temporal variant: one launch of `steps` steps (its depth, fused, or 1), into the next buffer, on `stream`.
    // The strip is a domain of its own: every row from R to rows - R is computed, the ghost rows too.
    void launch_temporal(int steps, cudaStream_t stream);
    // The same launch writing only rows [lo, hi) (R <= lo < hi <= rows - R), each as the whole launch writes it.
    void launch_temporal_rows(int steps, int lo, int hi, cudaStream_t stream);
    // After a step's kernels (or a launch of `steps` fused steps) are queued: the next buffer becomes the current one.
    void finish_step(int steps = 1);
    // One whole step (launch_step, finish_step) waited for, as an MPI rank steps before its rows travel: the wall
    // milliseconds it took.
    double waited_step_ms();
    // The two buffers never move; which one is current alternates with every step.
    unsigned char* buffer(int which) const { return static_cast<unsigned char*>(which ? m_buffers[1] : m_buffers[0]); }
    int current_buffer() const { return m_in == m_buffers[0] ? 0 : 1; }
    std::size_t row_bytes() const; // one row of the star's buffers (a plane in 3D)
    cudaStream_t stream() const { return m_stream; }
    int device() const { return m_config.placement.device; }
    // Host copies of whole rows [first, first + rows), x fastest, in double. upload_rows fills both
    // buffers (`previous`, when given, goes to the other buffer; otherwise a copy of `current`).
    void upload_rows(const double* current, const double* previous);
    void download_rows(int first, int rows, double* out, bool previous = false);
    // Display: columns [u_first, u_first + u_count) of rows [v_first, v_first + v_count) of the plane (u, v along
    // its first and second axis), averaged k x k into `out` (a pointer on this device, ceil(u_count / k) wide),
    // queued on the own stream.
    void slice_window_to_device(
        SliceAxis, int index, int u_first, int u_count, int v_first, int v_count, float* out, int k);
    void set_iteration(long long i) { m_iteration = i; }
    // Remote halo mode (kernels compiled for HaloMode::Remote take two more pointers): where the kernel reads
    // the R rows beyond this field's updated rows on `side` (0 low, 1 high) while `buffer` is current: the
    // neighbour's buffer shifted to this field's row numbering. Null: this field's own rows (a domain edge).
    void set_neighbour_rows(int side, int buffer, const void* rows) { m_neighbour_rows[side][buffer] = rows; }

private:
    void choose_block(const cudaFuncAttributes&);
    void load_star_module(const std::string& source, cudaFuncAttributes& attr);
    int blocks_per_sm_of(const BlockDims&) const; // of m_main, with the block's dynamic shared memory
    bool try_occupancy_block(cudaFuncAttributes& attr);
    void plan_grid(int blocks_per_sm);
    void release();
    void allocate();
    void launch(const void* kernel, dim3 grid, void** args, std::size_t smem, cudaStream_t stream);
    int queue_timed_launches(int n); // step()'s launches, an end event after each of the first ones
    // The star's grid for a window of `rows` rows of which the middle `updated` are written; `chunk` is
    // what each marching block of the stream variant covers.
    GridDims star_grid(const StencilConfig& window, int updated, int* chunk) const;
    // The star's kernel over the window of the buffers `offset` bytes in, of `window`'s extent, updating its
    // slow-axis rows [R, R + rows); `below` and `above`: the remote neighbours' buffers at that offset, or null.
    void launch_star_window(std::size_t offset, const StencilConfig& window, int rows, const void* below,
        const void* above, cudaStream_t stream);
    void diffusion_step();
    void create_stream(); // the stream and timing events (allocate, take_field)
    void copy_rows(unsigned char* host, unsigned char* device, int first, int rows, cudaMemcpyKind kind);
    int split_rows() const;
    std::int64_t row_cells() const { return m_config.problem.size.cells() / split_rows(); } // per host row

    KernelPlan m_plan;
    const StencilConfig& m_config = m_plan.field;
    const DeviceInfo& m_device = m_plan.device;
    std::int64_t m_origin = 0, m_pitch_y = 0, m_pitch_z = 0, m_elements = 0; // layout: diffusion layers carry a halo
    std::size_t m_es;
    KernelResources m_res;
    std::shared_ptr<const CompiledModule> m_module;
    std::unique_ptr<TemporalSteps> m_temporal; // the temporal variant's launches (temporal_steps.h)
    const void* m_main = nullptr;
    const void* m_second = nullptr;
    const void* m_third = nullptr;
    const void* m_halo = nullptr;
    const void* m_inject = nullptr;
    const void* m_slice = nullptr;
    BlockDims m_block;
    GridDims m_grid;
    std::size_t m_smem = 0;
    int m_blocks_per_sm = 1;
    void* m_buffers[2] = {};
    void* m_in = nullptr;
    void* m_out = nullptr;
    void* m_tmp = nullptr;
    void* m_tmp2 = nullptr;
    const void* m_neighbour_rows[2][2] = {}; // [side][buffer]
    cudaStream_t m_stream = nullptr;
    cudaEvent_t m_start = nullptr, m_stop = nullptr;
    std::vector<cudaEvent_t> m_launch_ends; // step(): recorded after each timed launch (cuda_simulation_timing.cpp)
    LaunchGate m_gate; // holds a timed batch until it is queued whole
    static constexpr int kMarkers = 4;
    cudaEvent_t m_markers[kMarkers] = {};
    std::uint64_t m_next_marker = 0;
    long long m_iteration = 0;
};

} // namespace ss
