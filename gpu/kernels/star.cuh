// SPDX-License-Identifier: MIT
// Star stencil kernels, compiled at run time by NVRTC. The generated preamble defines:
//   T (float|double), idx_t, R (radius), CF (coarsening in x), DIMS (2|3), VARIANT (0 base, 1 smem,
//   2 smem_padded, 3 stream: gpu/kernels/stream.cuh and stream_forward.cuh follow, 4 uncoalesced, 5 temporal:
//   gpu/kernels/temporal.cuh follows), RULE_WAVE, HAS_CENTRE, W_CENTRE, weight(d), and for stream MAX_HALO, PIPE,
//   STREAM_FWD, XB and ROLES (the 3D layout) and, once the block is chosen, SBX, SBY, SMINB; REMOTE (0|1, remote
//   halo mode) and with it SPLIT (the axis strips are cut along), and SS_ENTRY, the entry point's name
//   (gpu/plan/kernel_choice.cpp: one per kernel, so profilers tell them apart; the host looks it up by that name).
// Update: out = W_CENTRE*u + sum_d weight(d) * (sum of the 2*DIMS neighbours at distance d)
//         [- out (= u(t-1)) for the wave]. Cells within R of the border are never written (Dirichlet).
// Thesis listings 3.1-3.14 use this structure; the slow axis (y in 2D, z in 3D) is updated in [lo, hi)
// so that a multi-GPU strip can compute its own rows.

#define SLOW_STRIDE(nx, ny) (DIMS == 3 ? idx_t(nx) * idx_t(ny) : idx_t(nx))

// Remote halo mode (GPU-SM, seed 003): a strip's first and last R layers along the split axis SPLIT (0 x,
// 1 y, 2 z; the slow axis unless the placement names another) are its neighbours' cells, read straight from
// their buffers instead of from ghost copies. `below` and `above` point into those buffers shifted to this
// strip's numbering (the host passes `in` for a side without a neighbour; a neighbour's pitch equals the own,
// gpu/plan/strip_plan.cpp refuses unequal widths), so a load keeps its index and only the pointer is chosen by the
// cell it reads. Only loads that can reach beyond the own cells choose; SPLIT is a constant, so the choices
// along other axes fold away. Each kernel still adds the same operands in the same order.
#ifndef SPLIT
#define SPLIT (DIMS - 1)
#endif
#if REMOTE
#define REMOTE_PARAMS , const T* __restrict__ below, const T* __restrict__ above
#define PICK(axis, c, n) (SPLIT == (axis) ? ((c) < R ? below : (c) >= (n)-R ? above : in) : in)
#define PICK_LOW(axis, c) (SPLIT == (axis) && (c) < R ? below : in)
#define PICK_HIGH(axis, c, n) (SPLIT == (axis) && (c) >= (n)-R ? above : in)
#else
#define REMOTE_PARAMS
#define PICK(axis, c, n) in
#define PICK_LOW(axis, c) in
#define PICK_HIGH(axis, c, n) in
#endif
// Along the slow axis (y in 2D, z in 3D), and for a cell by all its coordinates.
#define SRC_LOW(row) PICK_LOW(DIMS - 1, row)
#define SRC_HIGH(row, n) PICK_HIGH(DIMS - 1, row, n)
#define SRC(row, n) PICK(DIMS - 1, row, n)
#define CELL_SRC(ci, cj, ck) (SPLIT == 0 ? PICK(0, ci, nx) : SPLIT == 1 ? PICK(1, cj, ny) : PICK(2, ck, nz))

// The host may specialise a kernel for its block (SBX, SBY, SBZ) and for the row and plane strides of its
// domain (SNX, SNY): conditions like "is this neighbour in the tile" and the neighbours' offsets then fold at
// compile time, which saves the registers that decide how many warps fit on an SM. Otherwise: run time.
// Every 3D kernel steps between planes by PLANE_STRIDE, never by nx * ny: nx, ny and nz bound the cells a launch sees,
// which a window narrows along y and z (CudaSimulation::launch_star_box), while the strides stay the field's.
// With the block known, telling the smem kernel that threadIdx lies inside it folds the "neighbour in the
// tile" tests of a coarsened thread's inner cells (x + l * BX + d < BX * CF), as in the thesis' unrolled
// kernels (listings 3.7-3.9): 2D smem CF 4 R8 then has the thesis' 84 global-load paths instead of 132 in its
// PTX, and ran 0.84x -> 0.97x the thesis' speed on the H100. base and smem_padded have no such tests; there
// the assumption only moved registers (3D smem_padded CF 2 R4: 1.04x -> 0.98x), so they do without it.
#if defined(SBX) && VARIANT != 3
#define BLK_X SBX
#define BLK_Y SBY
#define BLK_Z SBZ
#define BLOCK_BOUNDS __launch_bounds__(SBX* SBY* SBZ, SMINB)
#define ASSUME_IN_BLOCK()                                                                                              \
    __builtin_assume(threadIdx.x < SBX), __builtin_assume(threadIdx.y < SBY), __builtin_assume(threadIdx.z < SBZ)
#else
#define BLK_X int(blockDim.x)
#define BLK_Y int(blockDim.y)
#define BLK_Z int(blockDim.z)
#define BLOCK_BOUNDS
#define ASSUME_IN_BLOCK() (void)0
#endif
#ifdef SNX
#define ROW_STRIDE(nx) idx_t(SNX)
#define PLANE_STRIDE(nx, ny) (idx_t(SNX) * idx_t(SNY))
#else
#define ROW_STRIDE(nx) idx_t(nx)
#define PLANE_STRIDE(nx, ny) (idx_t(nx) * idx_t(ny))
#endif

__device__ __forceinline__ void finish(T* __restrict__ out, idx_t idx, T acc) {
#if RULE_WAVE
    out[idx] = acc - out[idx];
#else
    out[idx] = acc;
#endif
}

__device__ __forceinline__ bool interior(int i, int j, int k, int nx, int ny, int lo, int hi) {
#if DIMS == 3
    return i >= R && i < nx - R && j >= R && j < ny - R && k >= lo && k < hi;
#else
    return i >= R && i < nx - R && j >= lo && j < hi;
#endif
}

// The centre product is rounded on its own (mul.rn is never fused): in `W_CENTRE * c + w1 * pair` either
// product could become the FMA, and the compiler's choice follows the code's shape (remote mode's edge branch
// hoists the centre term and fused the other one), which would break bitwise equality between kernels.
__device__ __forceinline__ float product_rn(float a, float b) {
    return __fmul_rn(a, b);
}
__device__ __forceinline__ double product_rn(double a, double b) {
    return __dmul_rn(a, b);
}

// acc + w * x rounded once. Where several sums share a product (the same weight and value: uniform weights, or
// the z weights mirrored about a pending plane) the compiler keeps it as mul + add without a rounding mode, and
// ptxas may fuse them or not per compilation: kernels compiled for different domain sizes (strips) then differ
// in the last bit. Spelling the FMA out pins every cell's arithmetic.
__device__ __forceinline__ float fma_rn(float w, float x, float acc) {
    return __fmaf_rn(w, x, acc);
}
__device__ __forceinline__ double fma_rn(double w, double x, double acc) {
    return __fma_rn(w, x, acc);
}

__device__ __forceinline__ T centre_term(T c) {
#if HAS_CENTRE
    return product_rn(W_CENTRE, c);
#else
    return T(0);
#endif
}

#if VARIANT == 0 // base (listings 3.1-3.4): every operand from global memory
#if REMOTE
// One cell's sum in remote mode. Choosing a pointer for each of the 2R slow-axis loads costs a compare and two
// selects per load (R16 2D: 1.43x the time per step on the H100), so only cells within R of a strip edge choose
// (EDGE); a warp shares its row, so the branch between the two does not diverge. Same operands, same order.
template <bool EDGE>
__device__ __forceinline__ T remote_cell(const T* __restrict__ in, const T* __restrict__ below,
    const T* __restrict__ above, idx_t idx, int row, int rows, idx_t sy, idx_t sz) {
    T acc = centre_term(in[idx]);
#pragma unroll
    for (int d = 1; d <= R; ++d) {
        const T* low = EDGE && row - d < R ? below : in;
        const T* high = EDGE && row + d >= rows - R ? above : in;
        const T *xl = SPLIT == 0 ? low : in, *xh = SPLIT == 0 ? high : in; // only the split axis' loads choose
        const T *yl = SPLIT == 1 ? low : in, *yh = SPLIT == 1 ? high : in;
#if DIMS == 3
        const T *zl = SPLIT == 2 ? low : in, *zh = SPLIT == 2 ? high : in;
        T pair = xl[idx - d] + xh[idx + d] + yl[idx - d * sy] + yh[idx + d * sy];
        pair += zl[idx - d * sz] + zh[idx + d * sz];
#else
        T pair = xl[idx - d] + xh[idx + d] + yl[idx - d * sy] + yh[idx + d * sy];
#endif
        acc += weight(d) * pair;
    }
    return acc;
}
#endif
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    const int i0 = threadIdx.x + blockIdx.x * BLK_X * CF;
    const int j = threadIdx.y + blockIdx.y * BLK_Y;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * BLK_Z : 0;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
    // ss:mark coarsening
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BLK_X;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
#if REMOTE
        const int row = SPLIT == 0 ? i : SPLIT == 1 ? j : k, rows = SPLIT == 0 ? nx : SPLIT == 1 ? ny : nz;
        const T acc = row < 2 * R || row >= rows - 2 * R ? remote_cell<true>(in, below, above, idx, row, rows, sy, sz)
                                                         : remote_cell<false>(in, below, above, idx, row, rows, sy, sz);
#else
        T acc = centre_term(in[idx]);
#pragma unroll
        for (int d = 1; d <= R; ++d) {
            T pair = in[idx - d] + in[idx + d] + in[idx - d * sy] + in[idx + d * sy];
#if DIMS == 3
            pair += in[idx - d * sz] + in[idx + d * sz];
#endif
            acc += weight(d) * pair;
        }
#endif
        finish(out, idx, acc);
    }
    // ss:end
}
#endif

#if VARIANT == 4 // uncoalesced (teaching): base with the thread mapping turned around. Thread x walks the slow
// axis (y in 2D, z in 3D) and the last block dim walks x, so a warp's 32 loads hit 32 different rows or
// planes: one sector fetched per 4 useful bytes instead of one per 32. Coarsening does not apply (CF = 1).
extern "C" __global__ void SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
#if DIMS == 3
    const int k = threadIdx.x + blockIdx.x * blockDim.x;
    const int j = threadIdx.y + blockIdx.y * blockDim.y;
    const int i = threadIdx.z + blockIdx.z * blockDim.z;
#else
    const int j = threadIdx.x + blockIdx.x * blockDim.x;
    const int i = threadIdx.y + blockIdx.y * blockDim.y;
    const int k = 0;
#endif
    if (!interior(i, j, k, nx, ny, lo, hi)) return;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
    const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
    T acc = centre_term(in[idx]);
#pragma unroll
    for (int d = 1; d <= R; ++d) {
#if DIMS == 3
        T pair = PICK_LOW(0, i - d)[idx - d] + PICK_HIGH(0, i + d, nx)[idx + d] + PICK_LOW(1, j - d)[idx - d * sy]
            + PICK_HIGH(1, j + d, ny)[idx + d * sy];
        pair += SRC_LOW(k - d)[idx - d * sz] + SRC_HIGH(k + d, nz)[idx + d * sz];
#else
        T pair = PICK_LOW(0, i - d)[idx - d] + PICK_HIGH(0, i + d, nx)[idx + d] + SRC_LOW(j - d)[idx - d * sy]
            + SRC_HIGH(j + d, ny)[idx + d * sy];
#endif
        acc += weight(d) * pair;
    }
    finish(out, idx, acc);
}
#endif

#if VARIANT == 1 // smem, the hybrid (listings 3.5-3.9): a block-sized tile, halo operands from global
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    ASSUME_IN_BLOCK();
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    const int W = BLK_X * CF, BY = BLK_Y, BZ = DIMS == 3 ? BLK_Z : 1;
    const int i0 = threadIdx.x + blockIdx.x * BLK_X * CF;
    const int j = threadIdx.y + blockIdx.y * BLK_Y;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * BLK_Z : 0;
    const int ty = threadIdx.y, tz = DIMS == 3 ? threadIdx.z : 0;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
    const int tsy = W, tsz = W * BY;
    const bool in_domain_yz = j < ny && (DIMS == 2 || k < nz);
    // ss:mark smem tile
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BLK_X;
        const int s = threadIdx.x + l * BLK_X + ty * tsy + tz * tsz;
        if (i < nx && in_domain_yz) tile[s] = CELL_SRC(i, j, k)[i + j * sy + (DIMS == 3 ? k * sz : 0)];
    }
    __syncthreads();
    // ss:end
    // ss:mark coarsening
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BLK_X, tx = threadIdx.x + l * BLK_X;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        const int s = tx + ty * tsy + tz * tsz;
        T acc = centre_term(tile[s]);
#pragma unroll
        for (int d = 1; d <= R; ++d) {
            T pair = (tx >= d ? tile[s - d] : PICK_LOW(0, i - d)[idx - d])
                + (tx + d < W ? tile[s + d] : PICK_HIGH(0, i + d, nx)[idx + d]);
#if DIMS == 3
            pair += (ty >= d ? tile[s - d * tsy] : PICK_LOW(1, j - d)[idx - d * sy])
                + (ty + d < BY ? tile[s + d * tsy] : PICK_HIGH(1, j + d, ny)[idx + d * sy]);
            pair += (tz >= d ? tile[s - d * tsz] : SRC_LOW(k - d)[idx - d * sz])
                + (tz + d < BZ ? tile[s + d * tsz] : SRC_HIGH(k + d, nz)[idx + d * sz]);
#else
            pair += (ty >= d ? tile[s - d * tsy] : SRC_LOW(j - d)[idx - d * sy])
                + (ty + d < BY ? tile[s + d * tsy] : SRC_HIGH(j + d, ny)[idx + d * sy]);
#endif
            acc += weight(d) * pair;
        }
        finish(out, idx, acc);
    }
    // ss:end
}
#endif

#if VARIANT == 2 // smem_padded (listings 3.10-3.14): tile + R-wide padding; every operand from shared memory
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    const int BX = BLK_X, BY = BLK_Y, BZ = DIMS == 3 ? BLK_Z : 1;
    const int px = BX * CF + 2 * R, py = BY + 2 * R;
    const int i0 = threadIdx.x + blockIdx.x * BX * CF;
    const int j = threadIdx.y + blockIdx.y * BY;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * BZ : 0;
    const int ty = threadIdx.y, tz = DIMS == 3 ? threadIdx.z : 0;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
    const int tsy = px, tsz = px * py;
    const bool in_domain_yz = j < ny && (DIMS == 2 || k < nz);
    // ss:mark smem tile
    // Prefetch (listings 3.12/3.13): threads within R of a block face also fetch the padding beyond it,
    // which is why every block dim must be >= R.
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BX;
        if (!(i < nx && in_domain_yz)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        const int s = (threadIdx.x + R + l * BX) + (ty + R) * tsy + (DIMS == 3 ? (tz + R) * tsz : 0);
        const T* row_src = CELL_SRC(i, j, k); // the thread's cell may be a neighbour's
        // A load along the split axis chooses by the cell it reads; along the others it shares the thread's source.
#define ALONG_LOW(axis, c) (SPLIT == (axis) ? PICK_LOW(axis, c) : row_src)
#define ALONG_HIGH(axis, c, n) (SPLIT == (axis) ? PICK_HIGH(axis, c, n) : row_src)
        if (l == 0 && threadIdx.x < R && i >= R) tile[s - R] = ALONG_LOW(0, i - R)[idx - R];
        if (l == CF - 1 && threadIdx.x >= BX - R && i + R < nx) tile[s + R] = ALONG_HIGH(0, i + R, nx)[idx + R];
#if DIMS == 3
        if (ty < R && j >= R) tile[s - R * tsy] = ALONG_LOW(1, j - R)[idx - R * sy];
        if (ty >= BY - R && j + R < ny) tile[s + R * tsy] = ALONG_HIGH(1, j + R, ny)[idx + R * sy];
        if (tz < R && k >= R) tile[s - R * tsz] = ALONG_LOW(2, k - R)[idx - R * sz];
        if (tz >= BZ - R && k + R < nz) tile[s + R * tsz] = ALONG_HIGH(2, k + R, nz)[idx + R * sz];
        tile[s] = row_src[idx];
#else
        if (ty < R && j >= R) tile[s - R * tsy] = ALONG_LOW(1, j - R)[idx - R * sy];
        if (ty >= BY - R && j + R < ny) tile[s + R * tsy] = ALONG_HIGH(1, j + R, ny)[idx + R * sy];
        tile[s] = row_src[idx];
#endif
#undef ALONG_LOW
#undef ALONG_HIGH
    }
    __syncthreads();
    // ss:end
    // ss:mark coarsening
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BX;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        const int s = (threadIdx.x + R + l * BX) + (ty + R) * tsy + (DIMS == 3 ? (tz + R) * tsz : 0);
        T acc = centre_term(tile[s]);
#pragma unroll
        for (int d = 1; d <= R; ++d) {
            T pair = tile[s - d] + tile[s + d] + tile[s - d * tsy] + tile[s + d * tsy];
#if DIMS == 3
            pair += tile[s - d * tsz] + tile[s + d * tsz];
#endif
            acc += weight(d) * pair;
        }
        finish(out, idx, acc);
    }
    // ss:end
}
#endif

// Overwrites a disc (2D) or ball (3D) of interior cells: the GUI's source injection.
extern "C" __global__ void ss_inject(T* f, int nx, int ny, int nz, int cx, int cy, int cz, int r, double value) {
    const int i = cx - r + int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = cy - r + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = DIMS == 3 ? cz - r + int(blockIdx.z) : 0;
    if (i < R || i >= nx - R || j < R || j >= ny - R) return;
    if (DIMS == 3 && (k < R || k >= nz - R)) return;
    const int d2 = (i - cx) * (i - cx) + (j - cy) * (j - cy) + (DIMS == 3 ? (k - cz) * (k - cz) : 0);
    if (d2 <= r * r) f[i + idx_t(j) * nx + idx_t(k) * nx * ny] = T(value);
}
