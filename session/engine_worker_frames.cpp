// SPDX-License-Identifier: MIT
// The engine thread's frames: one plane of the running field for the view, through CUDA (a device copy the GUI maps
// into its texture) or through the host, and the maximum projection along an axis.
#include "session/engine_worker.h"

#include "gpu/backends/gl_interop.h"
#include "gpu/plan/knobs.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ss::gui {
namespace {

// STENCILSCOPE_ENGINE_DIAG (gpu/plan/knobs.h), for measuring what producing a frame costs: a comma list of "no-slice"
// (the staging keeps its last contents), "no-sample" (the colour range is not read back), "no-frame-wait" (the frame is
// handed over before its copy has finished).
bool engine_diagnostic(const char* what) {
    static const QStringList list = QString::fromStdString(knob_text(Knob::EngineDiag)).split(QLatin1Char(','));
    return list.contains(QLatin1String(what));
}

int slice_extent(const Extent& e, SliceAxis axis) {
    return axis == SliceAxis::XY ? e.nz : axis == SliceAxis::XZ ? e.ny : e.nx;
}
} // namespace

void EngineWorker::produce_frame(int queue_next_steps) {
    FieldFrame f;
    f.generation = m_generation;
    f.iteration = m_iteration_base + m_sim->iteration();
    f.slice = m_slice;
    const Extent e = m_sim->config().problem.size;
    if (m_sim->config().problem.dims == 2) f.slice = { SliceAxis::XY, 0, false };
    f.slice.index = std::clamp(f.slice.index, 0, slice_extent(e, f.slice.axis) - 1);
    std::tie(f.width, f.height) = slice_size(e, f.slice.axis);
    f.field_width = f.width, f.field_height = f.height;
    if (!produce_device_frame(f, queue_next_steps)) {
        if (m_previous_batch) m_sim->wait_marker(*m_previous_batch);
        auto values = std::make_shared<std::vector<float>>(f.slice.max_projection
                ? max_projection(f.width, f.height)
                : m_sim->download_slice(f.slice.axis, f.slice.index));
        f.measured = measure_range(values->data(), values->size());
        f.host = std::move(values);
    }
    m_frame_wanted = false;
    m_dirty = false;
    f.sent_at = std::chrono::steady_clock::now();
    emit frame(f);
}

// The slice copy is queued behind the batch in flight and the next batch behind the copy, so the
// GPU keeps computing while this thread waits for the copy alone and hands the frame over.
bool EngineWorker::produce_device_frame(FieldFrame& f, int queue_next_steps) {
    if (!m_device_frames || m_sim->config().placement.backend != Backend::Cuda) return false;
    const int longest = std::max(f.width, f.height);
    const int limit = m_pacing.display_max;
    const bool reduced = m_playing && limit > 0 && longest > limit && !f.slice.max_projection;
    const int step = reduced ? (longest + limit - 1) / limit : 1;
    // f keeps the full plane until the copy is queued: a failure falls back to the host path as is.
    const int width = (f.field_width + step - 1) / step, height = (f.field_height + step - 1) / step;
    const std::size_t floats = std::size_t(width) * height;
    if (!m_staging || m_staging->floats() < floats || m_staging->device() != m_sim->config().placement.device) {
        retire_staging();
        std::string why;
        m_staging = DeviceSliceBuffers::create(m_sim->config().placement.device, floats, &why);
        if (!m_staging) return false;
    }
    const int slot = m_next_slot;
    m_staging->wait_for_reader(slot); // the GUI's copy out of this slot has finished
    if (!engine_diagnostic("no-slice")
        && !(f.slice.max_projection ? m_sim->max_projection_to_device(f.slice.axis, m_staging->slot(slot))
                                    : m_sim->slice_to_device(f.slice.axis, f.slice.index, m_staging->slot(slot), step)))
        return false;
    // the colour range is reduced on the same stream, before the next batch, so waiting for the copy's
    // marker below covers it: no wait on another stream, no readback of rows
    const bool with_range = !engine_diagnostic("no-sample");
    if (with_range
        && !m_sim->queue_display_range(
            m_staging->slot(slot), floats, m_staging->range_scratch(), m_staging->range_host()))
        return false;
    const std::uint64_t copied = m_sim->enqueue_marker();
    if (queue_next_steps > 0) queue_batch(queue_next_steps);
    if (!engine_diagnostic("no-frame-wait")) m_sim->wait_marker(copied);
    f.width = width, f.height = height, f.cells_per_texel = step;
    const auto [lo, hi] = with_range ? m_staging->queued_range() : std::pair(0.0f, 1.0f);
    f.measured = { lo, hi };
    f.device = m_staging;
    f.device_slot = slot;
    m_next_slot = (slot + 1) % DeviceSliceBuffers::kSlots;
    return true;
}

// A staging buffer goes out of use here, but the frame on screen may still point into it. cudaFree waits for the
// whole device: where the GUI thread dropped the last reference, it sat ~100 ms behind the engine's batch with no
// frame drawn (issue 40, H100 soak with counters off, found by STENCILSCOPE_STALL_TRACE). So the engine keeps it and
// frees it here once the GUI has let go.
void EngineWorker::retire_staging() {
    if (m_staging) m_retired_staging.push_back(std::move(m_staging)); // leaves m_staging empty
}

void EngineWorker::free_released_staging() {
    std::erase_if(m_retired_staging, [](const std::shared_ptr<DeviceSliceBuffers>& s) { return s.use_count() == 1; });
}

// The largest value along the axis normal to the plane, through a host copy of the whole volume.
std::vector<float> EngineWorker::max_projection(int& width, int& height) {
    const Extent e = m_sim->config().problem.size;
    const std::vector<double> all = m_sim->download();
    std::tie(width, height) = slice_size(e, m_slice.axis);
    std::vector<float> out(std::size_t(width) * height, -INFINITY);
    for (int z = 0; z < e.nz; ++z)
        for (int y = 0; y < e.ny; ++y)
            for (int x = 0; x < e.nx; ++x) {
                const float v = float(all[(std::size_t(z) * e.ny + y) * e.nx + x]);
                const std::size_t i = m_slice.axis == SliceAxis::XY ? std::size_t(y) * e.nx + x
                    : m_slice.axis == SliceAxis::XZ                 ? std::size_t(z) * e.nx + x
                                                                    : std::size_t(z) * e.ny + y;
                out[i] = std::max(out[i], v);
            }
    return out;
}

} // namespace ss::gui
