// SPDX-License-Identifier: MIT
// Point stencils (issue 34): any set of (offset, weight) points, compiled at run time by NVRTC. It follows
// gpu/kernels/star.cuh (interior, finish, fma_rn, the block and stride macros, ss_inject) and the generated
// point_sum (gpu/backends/cuda/point_kernel_source.cpp): every point's product added in the shape's canonical order,
// its offset and weight literals in the text, so the loads' offsets fold into immediates as the star's do.
// Update: out = sum_i w_i * in[x + d_i] (the jacobi form). Cells within R of the border are never written
// (Dirichlet), and the kernel takes the star kernels' arguments, so the CUDA backend launches it as it launches them.

#if VARIANT == 6 // base: every operand from global memory, CF cells per thread along x
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    const int i0 = threadIdx.x + blockIdx.x * BLK_X * CF;
    const int j = threadIdx.y + blockIdx.y * BLK_Y;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * BLK_Z : 0;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BLK_X;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        finish(out, idx, point_sum(in, idx, sy, sz));
    }
}
#endif
