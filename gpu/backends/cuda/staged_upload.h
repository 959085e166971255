// SPDX-License-Identifier: MIT
// Host doubles to a device field of the element type (float or double) and back.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace ss {

// Converts `cells` doubles to `element_size`-byte values (4: float, 8: double) into `device`, in chunks:
// a few host threads convert one chunk into a pinned buffer while the other buffer's copy runs on
// `stream`. Returns when the copies are done; false (nothing copied) when no pinned memory could be had.
bool upload_staged(const double* host, void* device, std::size_t cells, std::size_t element_size, cudaStream_t stream);

// The same conversion into one pageable vector, and back to doubles.
std::vector<unsigned char> to_element_type(const double* v, std::size_t n, std::size_t element_size);
void to_double(const std::vector<unsigned char>& bytes, std::size_t element_size, double* out);

} // namespace ss
