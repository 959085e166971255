// SPDX-License-Identifier: MIT
// The host operator, in the CUTLASS manner: describe (StencilConfig) -> can_implement (validation.h)
// -> create -> run.
// One Simulation owns its buffers on one backend; it is not thread-safe: one engine thread drives it.
#pragma once

#include "gpu/plan/kernel_choice.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/config.h"
#include "gpu/problem/device.h"
#include "gpu/problem/slice.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ss {

// What the compiled kernel costs, as the GPU reports it (zeros on the CPU backend), and which kernel it is.
struct KernelResources {
    BlockDims block {}; // the block dims in use (the heuristic's choice when heuristic)
    int grid_blocks = 0; // blocks launched per step (main kernel)
    int registers = 0; // per thread
    int local_bytes = 0; // spill (local memory) bytes per thread
    int static_smem = 0; // bytes per block
    int dynamic_smem = 0; // bytes per block
    int max_blocks_per_sm = 0;
    double theoretical_occupancy = 0.0; // active warps / max warps per SM, 0..1
    std::string occupancy_limiter; // "registers", "shared memory", "threads", "blocks"
    double compile_ms = 0.0; // 0 when it came from the kernel cache
    bool from_cache = false; // every module came from the kernel cache (the process's or the disk's): nothing built
    KernelChoice kernel; // the entry point these figures describe and why it runs (the CPU loop on the CPU backend)
};

struct StepTiming {
    double milliseconds = 0.0; // wall time of `steps` steps on the device (CUDA events) or host
    int steps = 0;
    // One GPU (CUDA): each launch's milliseconds, in order, where every launch covered `steps_per_launch` steps (the
    // temporal variant's fused depth, else 1). A rate from their median is robust to a launch slowed by other work
    // on the GPU (the window's GL frame, another context, is time-sliced with the kernels). Empty where not timed.
    std::vector<float> launch_ms;
    int steps_per_launch = 1;

    StepTiming() = default;
    StepTiming(double ms, int n)
        : milliseconds(ms)
        , steps(n) { }
};

// Everything a run needs to go on elsewhere (save_state / restore_state): the current field, the
// previous one where the rule reads it (the wave's u(t-1); empty otherwise), and the step count.
struct FieldState {
    std::vector<double> current, previous;
    long long iteration = 0;
};

class Simulation {
public:
    virtual ~Simulation() = default;
    virtual const StencilConfig& config() const = 0;
    virtual const KernelResources& resources() const = 0;
    // Replace the whole field (x fastest; size().cells() values). The wave starts at rest.
    virtual void upload(const std::vector<double>& field) = 0;
    // Advance n steps; returns how long they took (synchronises).
    virtual StepTiming step(int n) = 0;
    // Queue n steps without waiting (the GUI's path). Still ordered with later calls.
    virtual void step_async(int n) { step(n); }
    // `n` steps inside a profiled window (CUPTI kernel replay restores a GPU's memory between a kernel's
    // passes): a split run then runs no copy while any kernel runs, so no replay undoes a halo copy.
    // The same result as step(n), slower; no timing.
    virtual void step_for_profiling(int n) { step(n); }
    virtual void synchronize() { }
    // Queue-depth control for a live view: a marker after the work queued so far, and a wait for one.
    // Waiting for the previous batch's marker instead of the latest keeps the GPU fed.
    virtual std::uint64_t enqueue_marker() {
        synchronize();
        return 0;
    }
    virtual void wait_marker(std::uint64_t /*marker*/) { }
    virtual std::vector<double> download() = 0;
    // One plane of the field as float, for display: index along the axis normal to the plane.
    virtual std::vector<float> download_slice(SliceAxis, int index) = 0;
    // The CUDA display path: queues a copy of the plane (as download_slice orders it), as float, into
    // `device_out`, a device pointer on this simulation's GPU, without touching host memory. Queued behind
    // the steps already queued; enqueue_marker()/wait_marker() or synchronize() tell when it has landed.
    // Returns false when the backend cannot (the CPU backend): use download_slice instead.
    // `step` > 1 averages step x step cells per value (a live view needs no more texels than pixels):
    // the plane is then ceil(width/step) x ceil(height/step).
    virtual bool slice_to_device(SliceAxis, int /*index*/, float* /*device_out*/, int /*step*/ = 1) { return false; }
    // The same for the maximum along the axis normal to the plane (3D's max projection), reduced on the GPU
    // instead of a host copy of the volume (~150 ms for 256^3, a frozen picture while knobs turn). False when the
    // backend cannot (the CPU backend, strips): the host path then.
    virtual bool max_projection_to_device(SliceAxis, float* /*device_out*/) { return false; }
    // Queues after the work queued so far (a slice, say): the smallest and largest finite values of `count`
    // floats at `device_values` on the display device, reduced there and copied into `host_out` (pinned,
    // two order-preserving integers: DeviceSliceBuffers decodes them) by way of `device_scratch`. Readable
    // once a later marker has been waited for; the caller never waits on another stream, which would
    // leave the GPU idle behind the next batch. False when the backend cannot (the CPU backend).
    virtual bool queue_display_range(
        const float* /*device_values*/, std::size_t /*count*/, unsigned* /*device_scratch*/, unsigned* /*host_out*/) {
        return false;
    }
    // Overwrite a disc/ball of cells (the GUI's "inject a source").
    virtual void inject(int x, int y, int z, int radius_cells, double value) = 0;
    virtual long long iteration() const = 0;
    // Tests: fill the buffer the next step writes with NaN, so a cell a kernel fails to write shows.
    // The star's Dirichlet border lives in that buffer too: compare only updated cells afterwards. In remote
    // halo mode the strips' ghost rows of the current buffer too: a kernel must read the neighbours' rows.
    virtual void poison_output() = 0;
    // The strips (gpu/plan/strip_plan.h): rows, devices, halo paths and the times of the last sampled step.
    // A single GPU or the CPU reports one strip over the whole domain, untimed.
    virtual MultiGpuStats multi_gpu_stats() const;
    // The whole state, so that a run can move to another configuration of the same field (repartition).
    virtual FieldState save_state();
    // The inverse (synchronises). An empty `previous` starts the wave at rest, as upload does.
    virtual void restore_state(const FieldState&);
};

} // namespace ss
