// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/rank_domain_cuda.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"
#include "gpu/backends/cuda/face_packing.h"
#include "gpu/backends/cuda/ipc_ghost_rows.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ss {
namespace {

// A peer description of several parts (the field's buffers, then each axis' inbox), each led by its length.
void append_part(std::vector<unsigned char>& whole, const std::vector<unsigned char>& part) {
    const std::uint32_t length = std::uint32_t(part.size());
    const auto* bytes = reinterpret_cast<const unsigned char*>(&length);
    whole.insert(whole.end(), bytes, bytes + sizeof length);
    whole.insert(whole.end(), part.begin(), part.end());
}

// Part `index` of a description, empty where it has none (a truncated or foreign description).
std::vector<unsigned char> part_of(const std::vector<unsigned char>& whole, int index) {
    std::size_t at = 0;
    for (int i = 0;; ++i) {
        std::uint32_t length = 0;
        if (whole.size() - at < sizeof length) return {};
        std::memcpy(&length, whole.data() + at, sizeof length);
        at += sizeof length;
        if (length > whole.size() - at) return {};
        if (i == index) return { whole.begin() + std::ptrdiff_t(at), whole.begin() + std::ptrdiff_t(at + length) };
        at += length;
    }
}

// The step runs on the simulation's stream; the faces move on a high-priority stream of their own, so that under
// overlap the faces of z (and y) are packed, copied and unpacked while the interior computes. A face is gathered
// into a device buffer (face_packing.h: the copy engine for long rows, a kernel for an x face's short ones) and
// crosses to the host in one contiguous copy (and back the same way). Every copy is waited for before it returns.
// Between ranks on one node a face goes straight into the neighbour's field, except one of short rows (an x face),
// which crosses packed into the neighbour's inbox and is unpacked there after MPI's word (has_short_rows).
class CudaRankDomain final : public RankDomain {
public:
    CudaRankDomain(const RankDomainPlan& plan, std::unique_ptr<CudaSimulation> sim)
        : RankDomain(plan)
        , m_sim(std::move(sim))
        , m_element(std::size_t(element_size(plan.local.problem.precision))) {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        // The allocation first: a device out of memory throws before anything else of this object exists.
        std::size_t largest = 0;
        for (int axis = 0; axis < int(plan.box.extent.size()); ++axis) largest = std::max(largest, face_bytes(axis));
        if (largest > 0) cuda_check(cudaMalloc(&m_packed, largest), "cudaMalloc (a packed face)");
        int least = 0, greatest = 0;
        cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
        cuda_check(cudaStreamCreateWithPriority(&m_faces, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
        cuda_check(cudaEventCreateWithFlags(&m_boundary_done, cudaEventDisableTiming), "cudaEventCreate");
        for (cudaEvent_t* e : { &m_start, &m_stop }) cuda_check(cudaEventCreate(e), "cudaEventCreate");
        // Faces crossing packed, through the receiver's inbox: those of short rows along an axis with a neighbour
        // (the same answer on both sides: a neighbour's face has this one's cells). Asked once, not every step.
        for (int axis = 0; axis < int(plan.box.extent.size()); ++axis)
            m_has_inbox[axis]
                = (plan.box.neighbour_on(axis, 0) != kNoNeighbour || plan.box.neighbour_on(axis, 1) != kNoNeighbour)
                && has_short_rows(face_box(send_face(plan, axis, 0)));
        m_y = y_layers(plan);
    }
    ~CudaRankDomain() override {
        cudaSetDevice(m_sim->device());
        if (m_faces) cudaStreamSynchronize(m_faces);
        cudaStreamSynchronize(m_sim->stream());
        for (cudaEvent_t e : { m_boundary_done, m_start, m_stop })
            if (e) cudaEventDestroy(e);
        if (m_packed) cudaFree(m_packed);
        for (auto& parities : m_inbox)
            for (unsigned char* inbox : parities)
                if (inbox) cudaFree(inbox);
        for (void* f : m_device_faces)
            if (f) cudaFree(f);
        if (m_faces) cudaStreamDestroy(m_faces);
    }
    CudaRankDomain(const CudaRankDomain&) = delete;
    CudaRankDomain& operator=(const CudaRankDomain&) = delete;

    Simulation& field() override { return *m_sim; }
    double compute_step() override { return m_sim->waited_step_ms(); }

    void begin_step() override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cudaStream_t compute = m_sim->stream();
        const int slowest = int(m_plan.box.extent.size()) - 1, g = m_plan.ghost_depth;
        const int end = g + m_plan.box.extent[std::size_t(slowest)];
        const bool below = m_plan.box.neighbour_on(slowest, 0) != kNoNeighbour,
                   above = m_plan.box.neighbour_on(slowest, 1) != kNoNeighbour;
        // As the overlapped strips (rank_strip_cuda.cpp): the layers the neighbours need, then the interior.
        const int low = below ? std::min(2 * g, end) : g;
        const int high = above ? std::max(low, end - g) : end;
        const Rows& y = m_y; // in 3D where y's faces travel during the step too
        cuda_check(cudaEventRecord(m_start, compute), "cudaEventRecord");
        if (low > g) m_sim->launch_star_rows(g, low, compute);
        if (high < end) m_sim->launch_star_rows(high, end, compute);
        if (y.overlapped && high > low) { // the rows next to y's faces, of the planes between z's layers
            if (y.low > g) m_sim->launch_star_box(g, y.low, low, high, compute);
            if (y.high < y.end) m_sim->launch_star_box(y.high, y.end, low, high, compute);
        }
        cuda_check(cudaEventRecord(m_boundary_done, compute), "cudaEventRecord");
        if (high > low && !y.overlapped) m_sim->launch_star_rows(low, high, compute);
        if (high > low && y.overlapped && y.high > y.low) m_sim->launch_star_box(y.low, y.high, low, high, compute);
        cuda_check(cudaEventRecord(m_stop, compute), "cudaEventRecord");
        m_sim->finish_step(); // the faces now come from, and the ghost layers go to, the new field
    }
    void boundary_final() override { cuda_check(cudaEventSynchronize(m_boundary_done), "boundary layers"); }
    double end_step() override {
        cuda_check(cudaEventSynchronize(m_stop), "stencil step");
        float ms = 0.0f;
        cuda_check(cudaEventElapsedTime(&ms, m_start, m_stop), "cudaEventElapsedTime");
        return double(ms);
    }

    void copy_out(int axis, int side, void* host) override {
        const FaceBox box = face_box(send_face(m_plan, axis, side));
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(queue_pack_face(current(), box, m_packed, m_faces), "face packing");
        cuda_check(
            cudaMemcpyAsync(host, m_packed, box.cells() * m_element, cudaMemcpyDeviceToHost, m_faces), "face download");
        cuda_check(cudaStreamSynchronize(m_faces), "face download");
    }
    void copy_in(int axis, int side, const void* host) override {
        const FaceBox box = face_box(ghost_face(m_plan, axis, side));
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(
            cudaMemcpyAsync(m_packed, host, box.cells() * m_element, cudaMemcpyHostToDevice, m_faces), "face upload");
        cuda_check(queue_unpack_face(current(), box, m_packed, m_faces), "face unpacking");
        cuda_check(cudaStreamSynchronize(m_faces), "face unpacking");
    }

    bool hold_device_faces() override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        for (int axis = 0; axis < int(m_plan.box.extent.size()); ++axis)
            for (int i = 0; i < 4; ++i) {
                void*& face = m_device_faces[std::size_t(4 * axis + i)];
                if (face == nullptr && cudaMalloc(&face, std::max<std::size_t>(face_bytes(axis), 1)) != cudaSuccess) {
                    cudaGetLastError(); // not sticky: the job stages its faces instead
                    face = nullptr;
                    return false;
                }
            }
        return true;
    }
    unsigned char* device_face(int axis, int direction, int side) override {
        return static_cast<unsigned char*>(m_device_faces[std::size_t(4 * axis + 2 * direction + side)]);
    }
    void pack_device_face(int axis, int side) override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(
            queue_pack_face(current(), face_box(send_face(m_plan, axis, side)), device_face(axis, 0, side), m_faces),
            "face packing");
        cuda_check(cudaStreamSynchronize(m_faces), "face packing");
    }
    void unpack_device_face(int axis, int side) override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        cuda_check(
            queue_unpack_face(current(), face_box(ghost_face(m_plan, axis, side)), device_face(axis, 1, side), m_faces),
            "face unpacking");
        cuda_check(cudaStreamSynchronize(m_faces), "face unpacking");
    }

    std::vector<unsigned char> peer_description() override {
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        unsigned char* const buffers[2] = { m_sim->buffer(0), m_sim->buffer(1) };
        const std::size_t whole_buffer[2] = { 0, 0 }; // a face lands anywhere in it: the opener places it
        const std::vector<unsigned char> field
            = IpcGhostRows::describe(buffers, whole_buffer, field_bytes(m_plan.local.problem.size));
        if (field.empty()) return {};
        std::vector<unsigned char> described;
        append_part(described, field);
        for (int axis = 0; axis < int(m_plan.box.extent.size()); ++axis) {
            std::vector<unsigned char> inbox;
            if (has_inbox(axis)) {
                if (!hold_inbox(axis)) return {}; // no room: the job stages its faces instead
                const std::size_t slot[2] = { 0, face_bytes(axis) }; // a face from side s lands in slot s
                inbox = IpcGhostRows::describe(m_inbox[axis], slot, 2 * face_bytes(axis));
                if (inbox.empty()) return {};
            }
            append_part(described, inbox);
        }
        return described;
    }
    Status open_peer(
        int axis, int side, const std::vector<unsigned char>& description, const RankBox& theirs) override {
        Extent extent;
        for (int a = 0; a < int(theirs.extent.size()); ++a)
            extent_along(extent, a) = theirs.extent[std::size_t(a)] + 2 * m_plan.ghost_depth;
        Status s = m_peers[axis].open(side, part_of(description, 0), m_sim->device(), field_bytes(extent));
        if (!s) return s;
        if (has_inbox(axis)) { // a neighbour along the axis trades faces of the same size
            s = m_inboxes[axis].open(side, part_of(description, 1 + axis), m_sim->device(), 2 * face_bytes(axis));
            if (!s) return s;
        }
        FaceBox& to = m_peer_face[axis][side]; // the face's place in the neighbour's field
        to = face_box(send_face(m_plan, axis, side));
        to.nx = extent.nx, to.ny = extent.ny;
        for (int a = 0; a < int(theirs.extent.size()); ++a)
            to.begin[a] += m_plan.origin[a] - theirs.offset[std::size_t(a)];
        return s;
    }
    void push_face(int axis, int side) override {
        if (!m_peers[axis].is_open(side)) return;
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        const int parity = m_sim->current_buffer();
        const FaceBox face = face_box(send_face(m_plan, axis, side));
        if (has_inbox(axis)) {
            cuda_check(queue_pack_face(current(), face, m_packed, m_faces), "face packing");
            cuda_check(cudaMemcpyAsync(m_inboxes[axis].target(side, parity), m_packed, face.cells() * m_element,
                           cudaMemcpyDefault, m_faces),
                "face peer copy");
        } else {
            cuda_check(
                queue_copy_box(current(), face, m_peers[axis].target(side, parity), m_peer_face[axis][side], m_faces),
                "face peer copy");
        }
        cuda_check(cudaStreamSynchronize(m_faces), "face peer copy");
    }
    void land_pushed_face(int axis, int side) override {
        if (!has_inbox(axis) || !m_inboxes[axis].is_open(side)) return;
        cuda_check(cudaSetDevice(m_sim->device()), "cudaSetDevice");
        const unsigned char* slot
            = m_inbox[axis][m_sim->current_buffer()] + (side == 0 ? 0 : face_bytes(axis)); // as peer_description's
        cuda_check(
            queue_unpack_face(current(), face_box(ghost_face(m_plan, axis, side)), slot, m_faces), "face unpacking");
        cuda_check(cudaStreamSynchronize(m_faces), "face unpacking");
    }
    void close_peers() override {
        for (IpcGhostRows& p : m_peers) p.close();
        for (IpcGhostRows& p : m_inboxes) p.close();
    }

private:
    // The rows of a 3D box along y, [g, end), cut for an overlapped step: [g, low) and [high, end) hold the R layers
    // next to the y faces that have a neighbour, [low, high) the rest; every range starts where a kernel's run along
    // y starts (its first row less R a multiple of y_unit), so that each cell is computed as one GPU computes it.
    struct Rows {
        bool overlapped = false;
        int low = 0, high = 0, end = 0;
    };
    static Rows y_layers(const RankDomainPlan& plan) {
        Rows y;
        const auto during = plan.trade_order.begin() + plan.traded_during_step;
        y.overlapped = plan.box.extent.size() == 3 && std::find(plan.trade_order.begin(), during, 1) != during;
        if (!y.overlapped) return y;
        const int g = plan.ghost_depth, unit = std::max(plan.y_unit, 1);
        y.end = g + plan.box.extent[1];
        y.low = plan.box.neighbour_on(1, 0) != kNoNeighbour ? g + (g + unit - 1) / unit * unit : g;
        y.high = plan.box.neighbour_on(1, 1) != kNoNeighbour ? g + (y.end - 2 * g) / unit * unit : y.end;
        if (y.low >= y.high) y.low = y.high = y.end; // no interior: every row before the faces travel
        return y;
    }

    bool has_inbox(int axis) const { return m_has_inbox[axis]; }
    // The inbox of `axis`, one per parity (the step after the next may overwrite it), each a slot per side.
    bool hold_inbox(int axis) {
        for (unsigned char*& inbox : m_inbox[axis])
            if (inbox == nullptr && cudaMalloc(&inbox, 2 * face_bytes(axis)) != cudaSuccess) {
                cudaGetLastError(); // not sticky
                inbox = nullptr;
                return false;
            }
        return true;
    }
    unsigned char* current() const { return m_sim->buffer(m_sim->current_buffer()); }
    std::size_t field_bytes(const Extent& e) const { return std::size_t(e.cells()) * m_element; }
    FaceBox face_box(const CellRegion& region) const {
        FaceBox box;
        box.nx = m_plan.local.problem.size.nx, box.ny = m_plan.local.problem.size.ny, box.element = m_element;
        for (int a = 0; a < 3; ++a) box.begin[a] = region.begin[a], box.size[a] = region.size[a];
        return box;
    }

    std::unique_ptr<CudaSimulation> m_sim;
    std::size_t m_element;
    cudaStream_t m_faces = nullptr;
    cudaEvent_t m_boundary_done = nullptr, m_start = nullptr, m_stop = nullptr;
    void* m_packed = nullptr; // one face at a time: every copy is waited for
    void* m_device_faces[12] = {}; // [axis][send, receive][side], for a CUDA-aware MPI
    IpcGhostRows m_peers[3]; // per axis: the neighbours' buffers, mapped
    bool m_has_inbox[3] = {}; // per axis: faces cross packed (the constructor says which)
    Rows m_y; // the box's rows along y, cut for an overlapped step (the constructor, once)
    unsigned char* m_inbox[3][2] = {}; // [axis][parity]: where neighbours' packed faces land
    IpcGhostRows m_inboxes[3]; // per axis: the neighbours' inboxes, mapped
    FaceBox m_peer_face[3][2]; // [axis][side]: where the face lands in that neighbour's field
};

} // namespace

std::unique_ptr<RankDomain> create_cuda_rank_domain(const RankDomainPlan& plan, std::string* why) {
    try {
        return std::make_unique<CudaRankDomain>(plan, std::make_unique<CudaSimulation>(*plan.kernels));
    } catch (const CudaError& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

} // namespace ss
