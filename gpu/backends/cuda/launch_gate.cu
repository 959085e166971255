// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/launch_gate.h"

#include <atomic>

namespace ss {
namespace {

__global__ void hold_until_open(const volatile int* flag) {
    unsigned long long start = 0, now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    while (*flag == 0) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        if (now - start > 100000000ull) return; // 100 ms: never hang the stream
        __nanosleep(200);
    }
}

} // namespace

LaunchGate::~LaunchGate() {
    if (m_flag) cudaFreeHost(const_cast<int*>(m_flag));
}

bool LaunchGate::close(cudaStream_t stream) {
    if (!m_flag) {
        void* p = nullptr;
        if (cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        m_flag = static_cast<volatile int*>(p);
    }
    *m_flag = 0;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    hold_until_open<<<1, 1, 0, stream>>>(m_flag); // unified addressing: the host pointer is the device's
    if (cudaGetLastError() != cudaSuccess) {
        *m_flag = 1;
        return false;
    }
    return true;
}

void LaunchGate::open() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (m_flag) *m_flag = 1;
}

} // namespace ss
