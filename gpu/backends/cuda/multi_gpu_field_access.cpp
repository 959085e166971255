// SPDX-License-Identifier: MIT
// The field in and out of the multi-GPU strips: uploads and saved states cut into the strips' rows, the field
// and its slices gathered from them, sources injected into the strips that own the cells.
#include "gpu/backends/cuda/multi_gpu_simulation_class.h"

#include "gpu/backends/cuda/display_range.h"
#include "gpu/backends/cuda/strip_display.h"

#include <algorithm>

namespace ss {

void MultiGpuSimulation::upload(const std::vector<double>& field) {
    if (std::int64_t(field.size()) != m_config.problem.size.cells())
        throw CudaError("upload: field size does not match the domain");
    load(field.data(), nullptr, 0);
}

FieldState MultiGpuSimulation::save_state() {
    FieldState s { download(), {}, m_iteration };
    if (m_config.problem.stencil == StencilKind::Star && m_config.problem.rule == UpdateRule::Wave)
        s.previous = gather(true);
    return s;
}

void MultiGpuSimulation::restore_state(const FieldState& state) {
    const std::size_t cells = std::size_t(m_config.problem.size.cells());
    if (state.current.size() != cells || (!state.previous.empty() && state.previous.size() != cells))
        throw CudaError("restore_state: field size does not match the domain");
    load(state.current.data(), state.previous.empty() ? nullptr : state.previous.data(), state.iteration);
}

// Every strip takes its rows, ghosts included, straight from the global field: no exchange needed.
void MultiGpuSimulation::load(const double* current, const double* previous, long long iteration) {
    synchronize(); // neighbours may still be reading rows about to be overwritten
    m_workers->run([&](int i) {
        StripState& s = m_strips[i];
        if (boxes()) { // the strip's box, cut out on the host
            const Extent e = m_config.problem.size;
            const int axis = split_axis(m_config), first = s.strip.local_begin, count = s.strip.local_rows();
            const std::vector<double> now = extract_layers(current, e, axis, first, count);
            const std::vector<double> before
                = previous ? extract_layers(previous, e, axis, first, count) : std::vector<double> {};
            s.field->upload_rows(now.data(), previous ? before.data() : nullptr);
        } else {
            const std::size_t offset = std::size_t(s.strip.local_begin) * row_cells();
            s.field->upload_rows(current + offset, previous ? previous + offset : nullptr);
        }
        s.field->set_iteration(iteration);
    });
    m_iteration = iteration;
    // Remote mode: a neighbour's first kernel reads these rows from another GPU, ordered by nothing but
    // the ready events of steps; the uploads (copies from pageable memory may still be in flight) must
    // be done first. Copy mode's first exchange is queued behind the upload on the same stream.
    if (remote()) synchronize();
}

std::vector<double> MultiGpuSimulation::download() {
    return gather(false);
}

std::vector<float> MultiGpuSimulation::download_slice(SliceAxis axis, int index) {
    return gather_slice(m_config, m_strips, axis, index);
}

std::vector<double> MultiGpuSimulation::gather(bool previous) {
    std::vector<double> out(std::size_t(m_config.problem.size.cells()));
    m_workers->run([&](int i) {
        StripState& s = m_strips[i];
        const int skip = s.strip.first_row - s.strip.local_begin, count = s.strip.end_row - s.strip.first_row;
        if (!boxes()) {
            s.field->download_rows(skip, count, out.data() + std::size_t(s.strip.first_row) * row_cells(), previous);
            return;
        }
        const Extent local = s.field->config().problem.size;
        std::vector<double> box(std::size_t(local.cells()));
        s.field->download_rows(0, slow_extent(local_problem(s)), box.data(), previous);
        insert_layers(
            box.data(), local, split_axis(m_config), skip, s.strip.first_row, count, out.data(), m_config.problem.size);
    });
    return out;
}

// The plane lands on the first strip's GPU (the one that owns the GL context): strip_display.cpp.
bool MultiGpuSimulation::slice_to_device(SliceAxis axis, int index, float* device_out, int step) {
    gather_slice_to_device(m_config, m_strips, remote(), axis, index, device_out, std::max(step, 1));
    return true;
}

// On the first GPU, where slice_to_device gathers the plane: after the strips' copies have joined.
bool MultiGpuSimulation::queue_display_range(
    const float* device_values, std::size_t count, unsigned* device_scratch, unsigned* host_out) {
    join_into_first(); // leaves the first GPU current
    cuda_check(queue_display_range_on(device_values, count, device_scratch, host_out, first_stream()), "display range");
    return true;
}

void MultiGpuSimulation::inject(int x, int y, int z, int radius, double value) {
    synchronize(); // a neighbour may still be reading the rows (or the staged copies) it rewrites
    radius = std::max(radius, 0);
    if (m_config.problem.stencil == StencilKind::Diffusion4) { // a disc in one layer
        if (z < 0 || z >= m_config.problem.size.nz) return;
        StripState& s = owner(z);
        s.field->inject(x, y, z - s.strip.local_begin, radius, value);
        return;
    }
    const int axis = split_axis(m_config), centre = axis == 0 ? x : axis == 1 ? y : z;
    for (StripState& s : m_strips) {
        if (centre + radius < s.strip.update_begin || centre - radius >= s.strip.update_end) continue;
        const int shift = s.strip.local_begin; // each strip writes its own updated rows only
        s.field->inject(
            x - (axis == 0 ? shift : 0), y - (axis == 1 ? shift : 0), z - (axis == 2 ? shift : 0), radius, value);
    }
    exchange_only(); // the neighbours' ghost copies of the injected rows
    if (remote()) synchronize(); // nothing orders the neighbours' remote reads after the injection
}

void MultiGpuSimulation::poison_output() {
    synchronize();
    for (StripState& s : m_strips) { // remote mode: the ghost rows nothing may read, too
        s.field->poison_output();
        if (remote()) poison_ghost_rows(s, halo_rows());
    }
}

} // namespace ss
