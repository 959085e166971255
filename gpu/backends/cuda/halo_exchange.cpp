// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/halo_exchange.h"

#include "gpu/backends/cuda/cuda_check.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ss {
namespace {

// A strip buffer as the 3D copies see it: rows of the strip's own width, planes of its own height.
cudaPitchedPtr pitched(const StripState& s, int buffer, std::size_t es) {
    const Extent e = s.field->config().problem.size;
    return make_cudaPitchedPtr(s.field->buffer(buffer), std::size_t(e.nx) * es, std::size_t(e.nx), std::size_t(e.ny));
}
cudaPitchedPtr pitched_host(unsigned char* host, const HaloRows& rows) {
    return make_cudaPitchedPtr(
        host, std::size_t(rows.layer.nx) * rows.element_bytes, std::size_t(rows.layer.nx), std::size_t(rows.layer.ny));
}
cudaPos layer_at(const HaloRows& rows, int local_row) {
    return rows.box_axis == 0 ? make_cudaPos(std::size_t(local_row) * rows.element_bytes, 0, 0)
                              : make_cudaPos(0, std::size_t(local_row), 0);
}
cudaExtent layer_extent(const HaloRows& rows) {
    return make_cudaExtent(
        std::size_t(rows.layer.nx) * rows.element_bytes, std::size_t(rows.layer.ny), std::size_t(rows.layer.nz));
}

// One strided layer between a device buffer and pinned memory or between two buffers of one device.
cudaError_t copy_layer(cudaPitchedPtr dst, cudaPos dst_pos, cudaPitchedPtr src, cudaPos src_pos, const HaloRows& rows,
    cudaMemcpyKind kind, cudaStream_t stream) {
    cudaMemcpy3DParms p {};
    p.dstPtr = dst, p.dstPos = dst_pos, p.srcPtr = src, p.srcPos = src_pos;
    p.extent = layer_extent(rows);
    p.kind = kind;
    return cudaMemcpy3DAsync(&p, stream);
}

void receive_layer(StripState& s, const StripState& from, int side, const HaloRows& rows, cudaStream_t stream) {
    const int p = s.field->current_buffer();
    const cudaPitchedPtr dst = pitched(s, p, rows.element_bytes);
    const cudaPos dst_pos = layer_at(rows, rows.ghost_row(s, side));
    cudaError_t e = cudaSuccess;
    if (s.path[side] == HaloPath::PeerToPeer) {
        cudaMemcpy3DPeerParms c {};
        c.dstPtr = dst, c.dstPos = dst_pos, c.dstDevice = s.field->device();
        c.srcPtr = pitched(from, p, rows.element_bytes), c.srcPos = layer_at(rows, rows.send_row(from, 1 - side));
        c.srcDevice = from.field->device();
        c.extent = layer_extent(rows);
        e = cudaMemcpy3DPeerAsync(&c, stream);
    } else if (s.path[side] == HaloPath::Staged) {
        e = copy_layer(dst, dst_pos, pitched_host(from.pinned[p][1 - side], rows), make_cudaPos(0, 0, 0), rows,
            cudaMemcpyHostToDevice, stream);
    } else {
        e = copy_layer(dst, dst_pos, pitched(from, p, rows.element_bytes),
            layer_at(rows, rows.send_row(from, 1 - side)), rows, cudaMemcpyDeviceToDevice, stream);
    }
    cuda_check(e, "ghost layer exchange");
}

} // namespace

HaloPath choose_halo_path(const StripState& s, const StripState& from, HaloMode mode) {
    const bool remote = mode == HaloMode::Remote;
    if (mode == HaloMode::Staged) return HaloPath::Staged;
    const int here = s.field->device(), there = from.field->device();
    if (here == there) return remote ? HaloPath::Remote : HaloPath::SameDevice;
    int can = 0;
    cuda_check(cudaDeviceCanAccessPeer(&can, here, there), "cudaDeviceCanAccessPeer");
    if (!can && remote)
        throw CudaError("remote halo mode: GPU " + std::to_string(here) + " cannot read GPU " + std::to_string(there)
            + "'s memory (no peer access); use --halo auto");
    if (!can) return HaloPath::Staged;
    // The receiver reads the sender's memory; enabled once per device pair for the process.
    cuda_check(cudaSetDevice(here), "cudaSetDevice");
    const cudaError_t e = cudaDeviceEnablePeerAccess(there, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();
    else
        cuda_check(e, "cudaDeviceEnablePeerAccess");
    return remote ? HaloPath::Remote : HaloPath::PeerToPeer;
}

MultiGpuStats strip_stats(const StencilConfig& c, const std::vector<StripState>& strips,
    const std::vector<StripTimer>& timers, const HaloRows& rows, bool overlapped, bool timed) {
    MultiGpuStats stats;
    stats.ghost_depth = rows.ghost_depth;
    stats.overlap = overlapped;
    stats.timed = timed;
    const std::int64_t cells_per_row = updated_layer_cells(c); // across the split axis
    const std::int64_t per_launch = std::int64_t(rows.bytes()), steps = fused_steps(c.policy);
    for (std::size_t i = 0; i < strips.size(); ++i) {
        const StripState& s = strips[i];
        StripStats t;
        t.device = s.strip.device;
        t.first_row = s.strip.first_row;
        t.end_row = s.strip.end_row;
        t.updated_cells = cells_per_row * s.strip.updated_rows();
        t.below = s.path[kBelow];
        t.above = s.path[kAbove];
        for (int side : { kBelow, kAbove }) {
            if (s.neighbour[side] < 0) continue;
            if (s.path[side] == HaloPath::Remote) // computed: R of the neighbour's rows, its updated cells once
                t.remote_bytes += cells_per_row * rows.ghost_depth * element_size(c.problem.precision);
            else
                t.halo_bytes += per_launch / steps;
        }
        t.compute_ms = timers[i].compute_ms;
        t.exchange_ms = timers[i].exchange_ms;
        stats.strips.push_back(t);
    }
    return stats;
}

void record_sample_end(StripTimer& timer, cudaEvent_t end, cudaStream_t stream) {
    cuda_check(cudaEventRecord(end, stream), "cudaEventRecord");
    timer.pending = true;
}

void send_halo(StripState& s, StripTimer& timer, const HaloRows& rows, cudaStream_t stream, bool sample) {
    const int p = s.field->current_buffer();
    if (sample) cuda_check(cudaEventRecord(timer.send_begin, stream), "cudaEventRecord");
    for (int side : { kBelow, kAbove }) {
        if (!s.sends_staged[side]) continue;
        if (rows.box_axis >= 0)
            cuda_check(copy_layer(pitched_host(s.pinned[p][side], rows), make_cudaPos(0, 0, 0),
                           pitched(s, p, rows.element_bytes), layer_at(rows, rows.send_row(s, side)), rows,
                           cudaMemcpyDeviceToHost, stream),
                "staging ghost layers");
        else
            cuda_check(cudaMemcpyAsync(s.pinned[p][side], s.field->buffer(p) + rows.send_row(s, side) * rows.row_bytes,
                           rows.bytes(), cudaMemcpyDeviceToHost, stream),
                "staging ghost rows");
    }
    if (sample) cuda_check(cudaEventRecord(timer.send_end, stream), "cudaEventRecord");
    cuda_check(cudaEventRecord(s.ready[p], stream), "cudaEventRecord");
}

void receive_halo(StripState& s, const std::vector<StripState>& strips, StripTimer& timer, const HaloRows& rows,
    cudaStream_t stream, bool sample) {
    const int p = s.field->current_buffer();
    for (int side : { kBelow, kAbove })
        if (s.neighbour[side] >= 0)
            cuda_check(cudaStreamWaitEvent(stream, strips[s.neighbour[side]].ready[p], 0), "cudaStreamWaitEvent");
    if (sample) cuda_check(cudaEventRecord(timer.receive_begin, stream), "cudaEventRecord");
    for (int side : { kBelow, kAbove }) {
        if (s.neighbour[side] < 0 || s.path[side] == HaloPath::Remote) continue;
        const StripState& from = strips[s.neighbour[side]];
        if (rows.box_axis >= 0) {
            receive_layer(s, from, side, rows, stream);
            continue;
        }
        unsigned char* dst = s.field->buffer(p) + rows.ghost_row(s, side) * rows.row_bytes;
        const unsigned char* src = from.field->buffer(p) + rows.send_row(from, 1 - side) * rows.row_bytes;
        cudaError_t e = cudaSuccess;
        if (s.path[side] == HaloPath::PeerToPeer)
            e = cudaMemcpyPeerAsync(dst, s.field->device(), src, from.field->device(), rows.bytes(), stream);
        else if (s.path[side] == HaloPath::Staged)
            e = cudaMemcpyAsync(dst, from.pinned[p][1 - side], rows.bytes(), cudaMemcpyHostToDevice, stream);
        else
            e = cudaMemcpyAsync(dst, src, rows.bytes(), cudaMemcpyDeviceToDevice, stream);
        cuda_check(e, "ghost row exchange");
    }
    if (sample) record_sample_end(timer, timer.receive_end, stream);
}

void connect_neighbour_rows(std::vector<StripState>& strips, std::size_t layer_stride) {
    for (StripState& s : strips)
        for (int side : { kBelow, kAbove }) {
            if (s.neighbour[side] < 0) continue;
            const StripState& from = strips[std::size_t(s.neighbour[side])];
            // s's local row q is global row s.local_begin + q, which `from` holds at q + (s.local_begin -
            // from.local_begin): negative for the neighbour above, so the pointer is formed on the address.
            const std::ptrdiff_t shift
                = std::ptrdiff_t(s.strip.local_begin - from.strip.local_begin) * std::ptrdiff_t(layer_stride);
            for (int buffer : { 0, 1 }) {
                const auto base = reinterpret_cast<std::uintptr_t>(from.field->buffer(buffer));
                s.field->set_neighbour_rows(side, buffer, reinterpret_cast<const void*>(base + std::uintptr_t(shift)));
            }
        }
}

void poison_ghost_rows(StripState& s, const HaloRows& rows) {
    unsigned char* current = s.field->buffer(s.field->current_buffer());
    for (int side : { kBelow, kAbove }) {
        if (s.neighbour[side] < 0) continue;
        if (rows.box_axis >= 0) {
            cudaPitchedPtr at = pitched(s, s.field->current_buffer(), rows.element_bytes);
            const cudaPos pos = layer_at(rows, rows.ghost_row(s, side));
            at.ptr = static_cast<unsigned char*>(at.ptr) + pos.x + pos.y * at.pitch;
            cuda_check(cudaMemset3DAsync(at, 0xFF, layer_extent(rows), s.field->stream()), "poison");
        } else {
            cuda_check(cudaMemsetAsync(
                           current + rows.ghost_row(s, side) * rows.row_bytes, 0xFF, rows.bytes(), s.field->stream()),
                "poison");
        }
    }
    cuda_check(cudaStreamSynchronize(s.field->stream()), "poison");
}

bool harvest_strip_timer(const StripState& s, StripTimer& t) {
    if (!t.pending) return false;
    const bool exchanges = s.neighbour[kBelow] >= 0 || s.neighbour[kAbove] >= 0;
    // Every end event must have completed: the send and the receive run on other streams than the
    // compute, so one finished event says nothing about the others (seen as "device not ready").
    if (cudaEventQuery(t.compute_end) != cudaSuccess) return false;
    if (exchanges && (cudaEventQuery(t.send_end) != cudaSuccess || cudaEventQuery(t.receive_end) != cudaSuccess))
        return false;
    float compute = 0.0f, sending = 0.0f, receiving = 0.0f;
    cuda_check(cudaEventElapsedTime(&compute, t.compute_begin, t.compute_end), "cudaEventElapsedTime");
    if (exchanges) {
        cuda_check(cudaEventElapsedTime(&sending, t.send_begin, t.send_end), "cudaEventElapsedTime");
        cuda_check(cudaEventElapsedTime(&receiving, t.receive_begin, t.receive_end), "cudaEventElapsedTime");
    }
    t.compute_ms = double(compute) / t.steps;
    t.exchange_ms = (double(sending) + double(receiving)) / t.steps_per_trade;
    t.pending = false;
    return true;
}

} // namespace ss
