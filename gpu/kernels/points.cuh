// SPDX-License-Identifier: MIT
// Point stencils (issue 34): any set of (offset, weight) points, compiled at run time by NVRTC. It follows
// gpu/kernels/star.cuh (interior, finish, fma_rn, the block and stride macros, ss_inject) and the generated
// point_sum (gpu/backends/cuda/point_kernel_source.cpp): every point's product added in the shape's canonical order,
// its offset and weight literals in the text, so the loads' offsets fold into immediates as the star's do.
// Update: out = sum_i w_i * in[x + d_i] (the jacobi form). Cells within R of the border are never written
// (Dirichlet), and the kernels take the star kernels' arguments, so the CUDA backend launches them as it launches
// those. Both kernels add the same products in the same order: their results agree bitwise. Remote halo mode
// (REMOTE 1): a load of a cell within R of the window's edge along SPLIT reads the neighbour's buffer (star.cuh's
// CELL_SRC; it is `in` otherwise), the sum unchanged.

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
#if REMOTE // each operand from the buffer that holds it (point_sum picks per point)
        finish(out, idx, point_sum(in, below, above, idx, sy, sz, i, j, k, nx, ny, nz));
#else
        finish(out, idx, point_sum(in, idx, sy, sz));
#endif
    }
}
#endif

#if VARIANT == 7 // smem: the block's tile with an R-wide halo on every side, the corners too, in shared memory
// A star reads only the tile's cross; a point stencil may read any cell within R (a box reads the corners), so the
// whole padded tile is loaded: the block's threads walk its rows together, a warp along x (coalesced), whatever the
// block's shape (unlike the star's smem_padded, no block dim needs to reach R). point_sum_tile is generated like
// point_sum, with the tile's strides.
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    const int BX = BLK_X, BY = BLK_Y, BZ = DIMS == 3 ? BLK_Z : 1;
    const int px = BX * CF + 2 * R, py = BY + 2 * R, pz = DIMS == 3 ? BZ + 2 * R : 1;
    const int tsy = px, tsz = px * py;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
    // The tile's first cell in the domain (it may lie outside: such cells are not loaded, and no interior cell
    // reads them).
    const int gx = int(blockIdx.x) * BX * CF - R, gy = int(blockIdx.y) * BY - R;
    const int gz = DIMS == 3 ? int(blockIdx.z) * BZ - R : 0;
    const int row_thread = int(threadIdx.y) + (DIMS == 3 ? int(threadIdx.z) * BY : 0);
    // ss:mark smem tile
    for (int row = row_thread; row < py * pz; row += BY * BZ) {
        const int ty = row % py, tz = row / py;
        const int j = gy + ty, k = gz + tz;
        if (j < 0 || j >= ny || (DIMS == 3 && (k < 0 || k >= nz))) continue;
        const idx_t base = j * sy + (DIMS == 3 ? k * sz : 0);
        for (int tx = int(threadIdx.x); tx < px; tx += BX) {
            const int i = gx + tx;
#if REMOTE // the cell from the buffer that holds it
            if (i >= 0 && i < nx) tile[tx + ty * tsy + tz * tsz] = CELL_SRC(i, j, k)[base + i];
#else
            if (i >= 0 && i < nx) tile[tx + ty * tsy + tz * tsz] = in[base + i];
#endif
        }
    }
    __syncthreads();
    // ss:end
    const int i0 = threadIdx.x + blockIdx.x * BX * CF;
    const int j = threadIdx.y + blockIdx.y * BY;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * BZ : 0;
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BX;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        const int s = (threadIdx.x + R + l * BX) + (threadIdx.y + R) * tsy + (DIMS == 3 ? (threadIdx.z + R) * tsz : 0);
        finish(out, idx, point_sum_tile(tile, s, tsy, tsz));
    }
}
#endif
