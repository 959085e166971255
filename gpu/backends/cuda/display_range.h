// SPDX-License-Identifier: MIT
// The colour range of a display slice, found on the GPU: the host reads two numbers, not rows.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace ss {

// Queues on `stream`: the smallest and largest finite values of `values[0, count)`, reduced into
// `device_scratch[0..1]` and copied to `host_out[0..1]` (pinned), as order-preserving integer encodings
// of the floats: decode_display_range turns them back once the stream has got that far.
cudaError_t queue_display_range_on(
    const float* values, std::size_t count, unsigned* device_scratch, unsigned* host_out, cudaStream_t stream);
// Queues on `stream`: out[u + v * nu] = the largest of field[origin + u * su + v * sv + w * sw] over w < nw, as float;
// `field` holds doubles when `fp64`, else floats.
cudaError_t queue_max_projection_on(const void* field, bool fp64, long long origin, long long su, long long sv,
    long long sw, int nu, int nv, int nw, float* out, cudaStream_t stream);
// {lo, hi} from the two encoded values; {0, 1} when no value was finite.
std::pair<float, float> decode_display_range(const unsigned encoded[2]);

} // namespace ss
