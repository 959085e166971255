// SPDX-License-Identifier: MIT
// A 1 G-cell field took ~3 s through one pageable 4 GiB vector per upload, most of it spent touching that
// vector's pages; a bench sweep uploads the field once per configuration.
#include "gpu/backends/cuda/staged_upload.h"

#include "gpu/backends/cuda/cuda_check.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace ss {

bool upload_staged(const double* host, void* device, std::size_t cells, std::size_t es, cudaStream_t stream) {
    constexpr std::size_t kChunkCells = std::size_t(1) << 23;
    const std::size_t chunk = std::min(cells, kChunkCells);
    struct Staging {
        void* buffer[2] = {};
        cudaEvent_t copied[2] = {};
        ~Staging() {
            for (int b = 0; b < 2; ++b) {
                if (copied[b]) cudaEventSynchronize(copied[b]), cudaEventDestroy(copied[b]);
                if (buffer[b]) cudaFreeHost(buffer[b]);
            }
        }
    } staging;
    for (int b = 0; b < 2; ++b) {
        if (cudaHostAlloc(&staging.buffer[b], chunk * es, cudaHostAllocDefault) != cudaSuccess) {
            cudaGetLastError(); // no pinned memory to spare: the caller takes the plain path
            return false;
        }
        cuda_check(cudaEventCreateWithFlags(&staging.copied[b], cudaEventDisableTiming), "cudaEventCreate");
    }
    const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    auto* dst = static_cast<unsigned char*>(device);
    for (std::size_t first = 0, b = 0; first < cells; first += chunk, b ^= 1) {
        const std::size_t n = std::min(chunk, cells - first);
        cuda_check(cudaEventSynchronize(staging.copied[b]), "upload"); // the buffer's previous copy is done
        auto* out = static_cast<unsigned char*>(staging.buffer[b]);
        auto convert = [&](std::size_t lo, std::size_t hi) {
            if (es == 8) {
                std::memcpy(out + lo * 8, host + first + lo, (hi - lo) * 8);
                return;
            }
            for (std::size_t i = lo; i < hi; ++i) {
                const float f = float(host[first + i]);
                std::memcpy(out + i * 4, &f, 4);
            }
        };
        std::vector<std::thread> threads;
        for (unsigned w = 1; w < workers; ++w) threads.emplace_back(convert, n * w / workers, n * (w + 1) / workers);
        convert(0, n / workers);
        for (std::thread& t : threads) t.join();
        cuda_check(cudaMemcpyAsync(dst + first * es, out, n * es, cudaMemcpyHostToDevice, stream), "upload");
        cuda_check(cudaEventRecord(staging.copied[b], stream), "cudaEventRecord");
    }
    cuda_check(cudaStreamSynchronize(stream), "upload");
    return true;
}

std::vector<unsigned char> to_element_type(const double* v, std::size_t n, std::size_t es) {
    std::vector<unsigned char> out(n * es);
    if (es == 8)
        std::memcpy(out.data(), v, out.size());
    else
        for (std::size_t i = 0; i < n; ++i) {
            const float f = float(v[i]);
            std::memcpy(out.data() + i * 4, &f, 4);
        }
    return out;
}

void to_double(const std::vector<unsigned char>& bytes, std::size_t es, double* out) {
    const std::size_t n = bytes.size() / es;
    if (es == 8)
        std::memcpy(out, bytes.data(), bytes.size());
    else
        for (std::size_t i = 0; i < n; ++i) {
            float f;
            std::memcpy(&f, bytes.data() + i * 4, 4);
            out[i] = f;
        }
}

} // namespace ss
