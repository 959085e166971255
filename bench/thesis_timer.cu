// SPDX-License-Identifier: MIT
// Timing main for the thesis' kernels (github.com/mrfarstad/thesis), compiled OUTSIDE StencilScope's
// repository against a checkout of that code: nvcc -I<checkout> ... bench/thesis_timer.cu. It replaces the
// thesis' main.cu only to time the way `stencilscope-cli bench` does (one untimed run, then the median of
// REPEATS timed runs of ITERATIONS steps, CUDA events) without the thesis main's 4 GiB host field and
// copies per run; the kernels, their launch, the block heuristic and the shared-memory sizing are the
// thesis' own (its dispatch_kernels, which prints the block it chose); one "ms_per_step V" line per timed run.
#include "include/constants.h"
#include "include/stencil_error_checker.h"
#include "include/stencil_utils.h"
#include "src/stencil_dispatch.cu"
#include <stdio.h>

#ifndef REPEATS
#define REPEATS 3
#endif

// Deterministic values in [0, 1): the field's content does not change the work; zeros might be compressed.
__global__ void fill(float* f, unsigned long n) {
    for (unsigned long i = blockIdx.x * (unsigned long)blockDim.x + threadIdx.x; i < n;
         i += (unsigned long)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u;
        h ^= h >> 15;
        f[i] = (h & 0xffffu) * (1.0f / 65536.0f);
    }
}

int main() {
    float *u1, *u2;
    CU(cudaMalloc((void**)&u1, BYTES));
    CU(cudaMalloc((void**)&u2, BYTES));
    fill<<<4096, 256>>>(u1, SIZE);
    CU(cudaMemcpy(u2, u1, BYTES, cudaMemcpyDeviceToDevice));
    cudaEvent_t start, stop;
    CU(cudaEventCreate(&start));
    CU(cudaEventCreate(&stop));
    for (int r = 0; r <= REPEATS; ++r) { // r == 0: warm-up
        CU(cudaEventRecord(start));
        dispatch_kernels(u1, u2); // the thesis' launch loop: ITERATIONS kernels, heuristic block
        CU(cudaEventRecord(stop));
        CU(cudaEventSynchronize(stop));
        float ms = 0;
        CU(cudaEventElapsedTime(&ms, start, stop));
        if (r > 0) printf("ms_per_step %.6f\n", ms / ITERATIONS);
    }
    CU(cudaGetLastError());
    return 0;
}
