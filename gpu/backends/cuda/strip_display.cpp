// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/strip_display.h"

#include "gpu/backends/cuda/cuda_check.h"

#include <algorithm>
#include <cstring>

namespace ss {
namespace {

StripState& owner(std::vector<StripState>& strips, int row) {
    for (StripState& s : strips)
        if (row < s.strip.end_row) return s;
    return strips.back();
}

float* scratch_of(StripState& s, std::size_t floats) {
    if (s.scratch_floats < floats) {
        if (s.scratch) cuda_check(cudaFree(s.scratch), "cudaFree");
        s.scratch = nullptr;
        cuda_check(cudaMalloc(reinterpret_cast<void**>(&s.scratch), floats * sizeof(float)), "cudaMalloc");
        s.scratch_floats = floats;
    }
    return s.scratch;
}

// `rows` x `width` floats (pitch `width`) from `src` on s's device into `dst` (pitch `pitch`) on `first`.
void copy_band(StripState& s, int first, float* dst, std::size_t pitch, const float* src, std::size_t width, int rows) {
    if (s.field->device() == first) {
        cuda_check(cudaMemcpy2DAsync(dst, pitch * sizeof(float), src, width * sizeof(float), width * sizeof(float),
                       std::size_t(rows), cudaMemcpyDeviceToDevice, s.field->stream()),
            "slice band");
        return;
    }
    cudaMemcpy3DPeerParms p {};
    p.dstPtr = make_cudaPitchedPtr(dst, pitch * sizeof(float), pitch, std::size_t(rows));
    p.dstDevice = first;
    p.srcPtr = make_cudaPitchedPtr(const_cast<float*>(src), width * sizeof(float), width, std::size_t(rows));
    p.srcDevice = s.field->device();
    p.extent = make_cudaExtent(width * sizeof(float), std::size_t(rows), 1);
    cuda_check(cudaMemcpy3DPeerAsync(&p, s.field->stream()), "slice band to the first GPU");
}

} // namespace

std::vector<float> gather_slice(const StencilConfig& c, std::vector<StripState>& strips, SliceAxis axis, int index) {
    const PlaneSplit how = plane_split(c, axis);
    if (how == PlaneSplit::Normal) {
        StripState& s = owner(strips, std::clamp(index, 0, split_extent(c) - 1));
        return s.field->download_slice(axis, std::clamp(index, 0, split_extent(c) - 1) - s.strip.local_begin);
    }
    const auto [nu, nv] = slice_size(c.problem.size, axis);
    std::vector<float> out(std::size_t(nu) * std::size_t(nv));
    for (StripState& s : strips) {
        const std::vector<float> part = s.field->download_slice(axis, index);
        const int skip = s.strip.first_row - s.strip.local_begin, count = s.strip.end_row - s.strip.first_row;
        if (how == PlaneSplit::AlongV) {
            std::copy_n(part.begin() + std::ptrdiff_t(skip) * nu, std::size_t(count) * nu,
                out.begin() + std::ptrdiff_t(s.strip.first_row) * nu);
            continue;
        }
        const std::size_t width = std::size_t(s.strip.local_rows());
        for (int v = 0; v < nv; ++v)
            std::copy_n(part.begin() + std::ptrdiff_t(v * width + skip), count,
                out.begin() + std::ptrdiff_t(std::size_t(v) * nu + s.strip.first_row));
    }
    return out;
}

void gather_slice_to_device(const StencilConfig& c, std::vector<StripState>& strips, bool remote, SliceAxis axis,
    int index, float* device_out, int k) {
    const PlaneSplit how = plane_split(c, axis);
    const auto [nu, nv] = slice_size(c.problem.size, axis);
    const int ou = (nu + k - 1) / k, ov = (nv + k - 1) / k, first = strips.front().field->device();
    if (how == PlaneSplit::Normal) {
        const int at = std::clamp(index, 0, split_extent(c) - 1);
        StripState& s = owner(strips, at);
        const int local_index = at - s.strip.local_begin;
        cuda_check(cudaSetDevice(s.field->device()), "cudaSetDevice");
        float* out = s.field->device() == first ? device_out : scratch_of(s, std::size_t(ou) * ov);
        s.field->slice_window_to_device(axis, local_index, 0, nu, 0, nv, out, k);
        if (out != device_out) copy_band(s, first, device_out, std::size_t(ou), out, std::size_t(ou), ov);
        return;
    }
    for (StripState& s : strips) {
        const int lo = (s.strip.first_row + k - 1) / k, hi = (s.strip.end_row + k - 1) / k;
        if (lo >= hi) continue;
        const int from = lo * k - s.strip.local_begin;
        const int held = remote ? s.strip.end_row : s.strip.local_end; // remote: ghost layers are never filled
        const int cells = std::min(held - lo * k, (hi - lo) * k);
        cuda_check(cudaSetDevice(s.field->device()), "cudaSetDevice");
        if (how == PlaneSplit::AlongV) { // a band of whole output rows: contiguous
            float* dst = device_out + std::size_t(lo) * ou;
            float* out = s.field->device() == first ? dst : scratch_of(s, std::size_t(hi - lo) * ou);
            s.field->slice_window_to_device(axis, index, 0, nu, from, cells, out, k);
            if (out != dst) copy_band(s, first, dst, std::size_t(ou), out, std::size_t(ou), hi - lo);
        } else { // a band of output columns: produced densely, then copied with the plane's pitch
            float* out = scratch_of(s, std::size_t(hi - lo) * ov);
            s.field->slice_window_to_device(axis, index, from, cells, 0, nv, out, k);
            copy_band(s, first, device_out + lo, std::size_t(ou), out, std::size_t(hi - lo), ov);
        }
    }
}

std::vector<double> extract_layers(const double* field, const Extent& e, int axis, int first, int count) {
    Extent box = e;
    extent_along(box, axis) = count;
    std::vector<double> out(std::size_t(box.cells()));
    std::size_t at = 0;
    for (int z = 0; z < box.nz; ++z)
        for (int y = 0; y < box.ny; ++y) {
            const int gz = axis == 2 ? z + first : z, gy = axis == 1 ? y + first : y, gx = axis == 0 ? first : 0;
            const double* row = field + (std::size_t(gz) * e.ny + gy) * e.nx + gx;
            std::memcpy(out.data() + at, row, std::size_t(box.nx) * sizeof(double));
            at += std::size_t(box.nx);
        }
    return out;
}

void insert_layers(const double* box, const Extent& local, int axis, int local_first, int first, int count,
    double* field, const Extent& e) {
    Extent part = local;
    extent_along(part, axis) = count;
    for (int z = 0; z < part.nz; ++z)
        for (int y = 0; y < part.ny; ++y) {
            const int lz = axis == 2 ? z + local_first : z, ly = axis == 1 ? y + local_first : y;
            const int gz = axis == 2 ? z + first : z, gy = axis == 1 ? y + first : y;
            const int lx = axis == 0 ? local_first : 0, gx = axis == 0 ? first : 0;
            std::memcpy(field + (std::size_t(gz) * e.ny + gy) * e.nx + gx,
                box + (std::size_t(lz) * local.ny + ly) * local.nx + lx, std::size_t(part.nx) * sizeof(double));
        }
}

} // namespace ss
