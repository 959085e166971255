// SPDX-License-Identifier: MIT
// One strip of a multi-GPU run and the exchange of its ghost rows with its neighbours: the per-strip
// state, the send and receive halves of a step (multi_gpu_simulation.cpp orders them) and the timing
// of a sampled step. Kept apart from the schedule so that other halo schemes have one place to land.
#pragma once

#include "gpu/backends/cuda/cuda_simulation.h"
#include "gpu/plan/strip_plan.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace ss {

inline constexpr int kBelow = 0, kAbove = 1; // sides of a strip: towards lower and higher rows

struct StripTimer { // CUDA events of the sampled step (the last of each batch) and what they measured
    cudaEvent_t compute_begin = nullptr, compute_end = nullptr, send_begin = nullptr, send_end = nullptr,
                receive_begin = nullptr, receive_end = nullptr;
    bool pending = false;
    // The times below are per step: the sampled launch's time over the steps it ran (the temporal variant's depth, or
    // 1), its trade's over the steps a trade serves (the depth: one trade of R x depth rows per fused launch).
    int steps = 1, steps_per_trade = 1;
    double compute_ms = 0.0, exchange_ms = 0.0;
};

struct StripState {
    Strip strip;
    std::unique_ptr<CudaSimulation> field;
    cudaStream_t halo = nullptr;
    cudaEvent_t boundary_done = nullptr, received = nullptr, joined = nullptr;
    cudaEvent_t compute_ready = nullptr; // where a temporal launch's boundary rows start on the halo stream
    cudaEvent_t ready[2] = {};
    int neighbour[2] = { -1, -1 };
    HaloPath path[2] = { HaloPath::None, HaloPath::None }; // how the ghost rows on each side arrive
    bool sends_staged[2] = { false, false };
    unsigned char* pinned[2][2] = {}; // [parity][side]: the rows this strip sends, staged
    float* scratch = nullptr; // display rows computed on this device, before they go to the first GPU
    std::size_t scratch_floats = 0;
};

// Where the exchanged rows lie in a strip's buffer, in its local row numbering. Strips cut along the slowest
// axis exchange contiguous rows (planes); strips cut along x, or y in 3D (box_axis >= 0), exchange strided
// layers: a box of `layer` cells (R along the split axis, the whole extent along the others), copied with
// cudaMemcpy3D(Peer)Async between the strips' pitched buffers and staged densely in pinned memory.
struct HaloRows {
    int ghost_depth = 0;
    std::size_t row_bytes = 0; // contiguous rows: one row (plane)
    int box_axis = -1; // strided layers: the split axis (0 x, 1 y); -1 for contiguous rows
    Extent layer {}; // strided layers: the exchanged box, in cells
    std::size_t element_bytes = 0;

    std::size_t bytes() const {
        return box_axis < 0 ? std::size_t(ghost_depth) * row_bytes : std::size_t(layer.cells()) * element_bytes;
    }
    // The rows a strip sends towards `side` (its first or last G updated rows), and its G ghost rows on `side`.
    // A strip at the domain's edge holds only the R border rows there, so its numbering starts R, not G, below
    // its updated rows (the temporal variant's G is R x depth).
    int send_row(const StripState& s, int side) const {
        return (side == kBelow ? s.strip.update_begin : s.strip.update_end - ghost_depth) - s.strip.local_begin;
    }
    int ghost_row(const StripState& s, int side) const {
        return (side == kBelow ? s.strip.update_begin - ghost_depth : s.strip.update_end) - s.strip.local_begin;
    }
};

// How `s` receives `from`'s rows under `mode`: a device copy on one GPU, peer-to-peer where the devices allow it
// (enables peer access), staged otherwise; remote mode reads them in place (throws without peer access).
HaloPath choose_halo_path(const StripState& s, const StripState& from, HaloMode mode);

// What each strip did in the last sampled step (timers already harvested). Ghost bytes per step: the exchanged
// rows once per launch, so divided by the steps a launch fuses (the temporal variant's depth).
MultiGpuStats strip_stats(const StencilConfig&, const std::vector<StripState>&, const std::vector<StripTimer>&,
    const HaloRows&, bool overlapped, bool timed);

// Records an end event of the sampled step; harvest_strip_timer reads it later.
void record_sample_end(StripTimer& timer, cudaEvent_t end, cudaStream_t stream);

// Staged sides: copy the rows `s` sends to pinned host memory. Then record s.ready[parity] on `stream`.
void send_halo(StripState& s, StripTimer& timer, const HaloRows& rows, cudaStream_t stream, bool sample);

// Wait for the neighbours' ready events, then copy their rows into s's ghost rows on `stream`: peer copy,
// device copy, or from their pinned rows; on the remote path only the wait (the next step's kernel reads
// their rows, and must not overwrite its own buffer that they are still reading).
void receive_halo(StripState& s, const std::vector<StripState>& strips, StripTimer& timer, const HaloRows& rows,
    cudaStream_t stream, bool sample);

// Remote halo mode: gives every strip's field its neighbours' buffers (both parities) in its own row
// numbering, so that its kernel loads the rows beyond its strip from them (CudaSimulation::set_neighbour_rows).
// `layer_stride` is the distance in bytes between consecutive layers along the split axis (a row or plane for the
// slow axis; one element along x; one row of a plane along y in 3D): equal-width strips share it.
void connect_neighbour_rows(std::vector<StripState>& strips, std::size_t layer_stride);

// Remote halo mode: overwrites the current buffer's ghost rows on the sides with a neighbour with all-ones
// bits (NaN), so that a kernel reading them instead of the neighbour's rows shows (poison_output).
void poison_ghost_rows(StripState& s, const HaloRows& rows);

// Reads a sampled step's events once all of them have completed; true when it did (the timer is then no
// longer pending). An unfinished sample stays pending.
bool harvest_strip_timer(const StripState& s, StripTimer& timer);

} // namespace ss
