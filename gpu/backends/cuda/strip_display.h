// SPDX-License-Identifier: MIT
// The display plane of a multi-GPU run, gathered from its strips, and the host copies between the global field
// and a strip's box. A plane meets the split axis in one of three ways: normal to it (one strip holds the plane),
// along its rows v (each strip gives a band of rows) or along its columns u (each strip gives a band of columns,
// strips cut along x or y in 3D): the parts land on the first strip's GPU.
#pragma once

#include "gpu/backends/cuda/halo_exchange.h"

#include <vector>

namespace ss {

// The plane as download_slice returns it, from the strips' own cells.
std::vector<float> gather_slice(const StencilConfig&, std::vector<StripState>& strips, SliceAxis, int index);
// Queues the k x k averaged plane into `device_out` on the first strip's GPU (on the strips' streams). Each strip
// averages the output cells whose block starts in its layers, reading on into its ghost layers (`remote`: its
// ghost layers are never filled, so only its own).
void gather_slice_to_device(
    const StencilConfig&, std::vector<StripState>& strips, bool remote, SliceAxis, int index, float* device_out, int k);

// Host copies of a box: layers [first, first + count) along `axis` of a dense field of extent `e` (x fastest).
std::vector<double> extract_layers(const double* field, const Extent& e, int axis, int first, int count);
// Layers [local_first, local_first + count) of a dense box of extent `local` into layers [first, first + count) of
// the dense field of extent `e`.
void insert_layers(const double* box, const Extent& local, int axis, int local_first, int first, int count,
    double* field, const Extent& e);

} // namespace ss
