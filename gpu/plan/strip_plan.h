// SPDX-License-Identifier: MIT
// Strip partitioning across GPUs (thesis sec. 2.6): the domain is cut along its slowest axis (y in 2D,
// z in 3D; or the axis Placement::split names) into one strip per GPU; each strip's buffers carry ghost rows of depth R
// on each side, which its neighbours refresh after every step (the temporal variant: R x depth, after every launch).
// Pure host arithmetic and plain values, so the partition, its refusals and the statistics the GUI shows can be tested
// and described without a GPU.
#pragma once

#include "gpu/problem/config.h"
#include "gpu/problem/rates.h"
#include "gpu/problem/slice.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ss {

// How a strip receives a neighbour's rows.
enum class HaloPath {
    None, // no neighbour on that side (or the diffusion layers, which need no exchange)
    SameDevice, // both strips on one GPU (the testing hook): a device copy
    PeerToPeer, // cudaMemcpyPeerAsync with peer access enabled (NVLink or PCIe)
    Staged, // device -> pinned host memory -> device: no peer access, or HaloMode::Staged
    Remote, // HaloMode::Remote: nothing copied, the kernel loads the neighbour's rows from its buffer
    MpiDevice, // between processes (mpirun): MPI reads and writes device buffers (a CUDA-aware MPI)
    MpiHost, // between processes: MPI moves host memory (the CPU backend's field, or rows staged through pinned memory)
    MpiPeer, // between processes on one node: each copies its rows into its neighbours' ghost rows (CUDA IPC)
};
// "none", "same device", "peer-to-peer", "staged through host", "remote", "MPI device buffers",
// "MPI host buffers"
std::string_view to_string(HaloPath);

struct Strip {
    int device = 0; // CUDA device index
    // Global rows along the split axis ("rows" are the layers across it: columns for a split along x).
    // [first_row, end_row) of consecutive strips tile [0, extent):
    // the first and the last strip also own the fixed border (the strip overlay of the GUI).
    int first_row = 0, end_row = 0;
    // The rows this strip's kernels update: its share of [R, extent - R) (of every layer for diffusion).
    int update_begin = 0, update_end = 0;
    // The rows its buffers hold: the update range widened by the ghost depth G on a side with a neighbour, and by
    // the Dirichlet border (R rows) at the domain's edges.
    int local_begin = 0, local_end = 0;
    int local_rows() const { return local_end - local_begin; }
    int updated_rows() const { return update_end - update_begin; }
};

struct StripPlan {
    int ghost_depth = 0; // strip_ghost_depth: R (R x depth for temporal) for star and points; 0 for diffusion layers
    std::vector<Strip> strips;
};

// The extent of the axis strips are cut along (split_axis in gpu/problem/config.h: the star's slowest axis unless
// Placement::split names another; the diffusion's layers, z).
int split_extent(const StencilConfig&);
// Cells of one layer across the split axis (a row in 2D, a plane in 3D, a column or an xz slab for the other
// axes): all of them (what a ghost layer holds) or only the updated ones (what a remote load reads).
std::int64_t layer_cells(const StencilConfig&);
std::int64_t updated_layer_cells(const StencilConfig&);
// Why the configuration cannot be cut into strip_count() strips, or success. Not checked here: the
// device count and memory (check_placement in gpu/plan/validation.h does, with the device catalogue).
Status check_strips(const StencilConfig&);
// The ghost rows a strip's buffers carry on a side with a neighbour, G: R for the star and point stencils (R x depth
// for the temporal variant, whose launches fuse `depth` steps between exchanges), 0 for the independent diffusion
// layers.
int strip_ghost_depth(const StencilConfig&);
// Where strips may be cut: after any row, or, for the 3D stream kernel split along y, every CF rows from
// the first updated one, so that each cell keeps its place among its thread's CF rows as on one GPU (the
// forward-accumulating kernel's result depends on that place: measured, bitwise otherwise not equal).
int strip_cut_unit(const StencilConfig&);
// strip_count() strips, sizes differing by at most one row (one cut unit; the last takes the remainder), strip i on
// device `device + i / strips_per_device`. Call only for a configuration check_strips accepts.
StripPlan plan_strips(const StencilConfig&);
// One strip as a domain of its own: the configuration its buffers and launches are sized for.
StencilConfig strip_config(const StencilConfig&, const Strip&);
// The same run on one GPU: the configuration whose kernels every strip compiles (identical text).
StencilConfig single_gpu_equivalent(const StencilConfig&);

// How the strips sit in a display plane (gpu/problem/slice.h): normal to it (one strip holds the plane),
// along its rows v (each strip a band of rows) or along its columns u (strips cut along x, or y in the YZ plane).
enum class PlaneSplit { Normal, AlongV, AlongU };
PlaneSplit plane_split(const StencilConfig&, SliceAxis);

// One device's part of a (possibly split) run: what hardware counters of that device cover. With the
// testing hook several strips share a device, and its counters cover them together.
struct DeviceShare {
    int device = 0; // CUDA device index
    int strips = 0; // strips on this device
    int first_row = 0, end_row = 0; // its strips' rows, as Strip::first_row/end_row (contiguous)
    std::int64_t updated_cells = 0; // per step, all its strips
};
// The distinct devices of the strips, in strip order; one share covering the domain on a single GPU.
// Call only for a configuration check_strips accepts.
std::vector<DeviceShare> device_shares(const StencilConfig&);

// What one strip did in the last sampled step (the engine samples the last step of every batch).
struct StripStats {
    int device = 0;
    int first_row = 0, end_row = 0; // as in Strip: the overlay's rows
    std::int64_t updated_cells = 0; // per step
    HaloPath below = HaloPath::None, above = HaloPath::None; // where its ghost rows come from
    std::int64_t halo_bytes = 0; // ghost bytes it receives per step (copied; 0 in remote mode)
    // Remote mode: bytes its kernel loads from its neighbours' buffers per step, computed from the geometry
    // (each neighbour cell it needs once: R rows of the updated columns per side), not measured.
    std::int64_t remote_bytes = 0;
    double compute_ms = 0.0; // its kernels in that step (boundary + interior), CUDA events
    double exchange_ms = 0.0; // receiving its ghost rows (plus staging its own rows out on the staged path)
    double gcells_per_s() const { return gcells_per_second(double(updated_cells), 1, compute_ms); }
};

struct MultiGpuStats {
    int ghost_depth = 0;
    bool overlap = false;
    bool timed = false; // a sampled step has completed: the times are meaningful
    std::vector<StripStats> strips; // one, covering the domain, on a single GPU
    std::int64_t halo_bytes() const; // per step, all strips
    std::int64_t remote_bytes() const; // per step, all strips (computed, see StripStats::remote_bytes)
    double max_exchange_ms() const;
    // All strips receive at once: halo_bytes() / max_exchange_ms(), GB/s (0 when nothing moved).
    double halo_gbytes_per_s() const;
    // The distinct paths in use: "peer-to-peer", "same device + staged through host", "none".
    std::string path_summary() const;
};

} // namespace ss
