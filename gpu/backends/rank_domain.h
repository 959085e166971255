// SPDX-License-Identifier: MIT
// One process's box of a run split over a process grid (`--ranks PxQ[xR]` under mpirun, app/cli/mpi_grid_run.cpp):
// the box plus R ghost layers on every side as a domain of its own (gpu/plan/rank_grid_plan.h), run by the
// single-device machinery (the CPU backend or one CudaSimulation). Its faces are strided in the field, so they are
// packed into contiguous buffers (host, or device for a CUDA-aware MPI) and unpacked from them, or copied straight
// into a neighbour's field on the same node; the transport (MPI) lives above the engine, which stays MPI-free and
// testable without it.
#pragma once

#include "gpu/backends/simulation.h"
#include "gpu/plan/rank_grid_plan.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ss {

class RankDomain {
public:
    virtual ~RankDomain() = default;
    // The local domain: upload the global field's local_region(plan()), download, iteration, resources.
    virtual Simulation& field() = 0;
    const RankDomainPlan& plan() const { return m_plan; }
    // One step over the box, waited for: afterwards the faces to send are final and the current buffer the new one.
    // Returns the host-measured milliseconds of the step.
    virtual double compute_step() = 0;
    // The overlapped step (plan().overlap): begin_step queues it, the R layers next to the faces of the axes traded
    // during the step first (plan().traded_during_step); once boundary_final has returned, those faces are final
    // (copy_out may take them, copy_in fill the ghost layers beyond them) while the rest of the box computes; end_step
    // waits for the whole step and returns its milliseconds (on a GPU the kernels' own time). The CPU backend computes
    // the whole step in begin_step.
    virtual void begin_step() = 0;
    virtual void boundary_final() = 0;
    virtual double end_step() = 0;
    // Bytes of one face along `axis` (both sides hold as many): send_face(plan(), axis, side).cells() cells.
    std::size_t face_bytes(int axis) const;
    // The face the neighbour on `side` of `axis` needs, packed into `host` (face_bytes(axis)); and `host` unpacked
    // into the ghost layers on that side, of the step's new field. Synchronous; on a GPU they run beside the step.
    virtual void copy_out(int axis, int side, void* host) = 0;
    virtual void copy_in(int axis, int side, const void* host) = 0;

    // ---- A CUDA-aware MPI: the faces packed into, and unpacked from, device buffers this box holds, which MPI reads
    // and writes in place. hold_device_faces allocates them (false where this backend has none: the CPU);
    // device_face is the buffer of `axis`, `direction` (0 send, 1 receive) and `side`; pack_device_face and
    // unpack_device_face move a face, waited for.
    virtual bool hold_device_faces() { return false; }
    virtual unsigned char* device_face(int, int, int) { return nullptr; }
    virtual void pack_device_face(int, int) { }
    virtual void unpack_device_face(int, int) { }

    // ---- Peer copies between processes on one node (CUDA IPC), as RankStrip's: the transport carries a description
    // once and a word per trade.
    //   peer_description  this box's two field buffers, for its neighbours (empty: this backend cannot share them);
    //   open_peer         maps the buffers of the neighbour on `side` of `axis`, whose box is `theirs` (refused with
    //                     the reason);
    //   push_face         copies the face towards that side straight into the neighbour's ghost layers, in its
    //                     buffer of this step's parity (the ranks step in lockstep), and waits for the copy; a face
    //                     of short rows (an x face) is packed first and lands, contiguous, in the neighbour's inbox
    //                     of this step's parity;
    //   land_pushed_face  after the neighbour's word: the face it pushed into this box's inbox from `side`, unpacked
    //                     into the ghost layers there (nothing for a face that came straight into them);
    //   close_peers       unmaps them all (a job that cannot use them on every rank stages its faces instead).
    virtual std::vector<unsigned char> peer_description() { return {}; }
    virtual Status open_peer(int, int, const std::vector<unsigned char>&, const RankBox&) {
        return Status::failure("peer copies need the CUDA backend");
    }
    virtual void push_face(int, int) { }
    virtual void land_pushed_face(int, int) { }
    virtual void close_peers() { }

protected:
    explicit RankDomain(const RankDomainPlan& plan)
        : m_plan(plan) { }
    RankDomainPlan m_plan;
};

// `region` of a field of `extent` cells (x fastest) of `element` bytes each, copied to or from the contiguous
// buffer `packed` (x fastest within the region): the CPU backend's face packing.
void pack_region(
    const unsigned char* field, const Extent& extent, std::size_t element, const CellRegion& region, void* packed);
void unpack_region(
    unsigned char* field, const Extent& extent, std::size_t element, const CellRegion& region, const void* packed);

// The values of `region` of the field `values` (of `extent`), x fastest: a rank's local domain out of the whole
// initial field, or its owned cells out of its local field.
std::vector<double> region_values(const std::vector<double>& values, const Extent& extent, const CellRegion& region);
// field_checksum (gpu/backends/rank_strip.h) of the cells `region` of the local field `local` whose first cell is
// the global cell `origin` of a domain of `whole` cells: the ranks' sums add up to the one-process checksum.
std::uint64_t region_checksum(const std::vector<double>& local, const Extent& local_extent, const CellRegion& region,
    const int origin[3], const Extent& whole);

// A rank's box as its plan says (plan_rank_domain): its buffers, and on a GPU the plan's kernels. A refused plan
// gives nullptr with its reason in `why`, as does a failed allocation or build.
std::unique_ptr<RankDomain> create_rank_domain(const RankDomainPlan&, std::string* why);

} // namespace ss
