// SPDX-License-Identifier: MIT
// Star stencil kernels, compiled at run time by NVRTC. The generated preamble defines:
//   T (float|double), idx_t, R (radius), CF (coarsening in x), DIMS (2|3), VARIANT (0 base, 1 smem,
//   2 smem_padded, 3 stream, 4 uncoalesced, 5 temporal: gpu/kernels/temporal.cuh follows), RULE_WAVE, HAS_CENTRE,
//   W_CENTRE, weight(d), and for stream MAX_HALO, PIPE, STREAM_FWD and XB (the 3D layout) and, once the block is
//   chosen, SBX, SBY, SMINB; REMOTE (0|1, remote halo mode) and with it SPLIT (the axis strips are cut along).
// Update: out = W_CENTRE*u + sum_d weight(d) * (sum of the 2*DIMS neighbours at distance d)
//         [- out (= u(t-1)) for the wave]. Cells within R of the border are never written (Dirichlet).
// Thesis listings 3.1-3.14 use this structure; the slow axis (y in 2D, z in 3D) is updated in [lo, hi)
// so that a multi-GPU strip can compute its own rows.

#define SLOW_STRIDE(nx, ny) (DIMS == 3 ? idx_t(nx) * idx_t(ny) : idx_t(nx))

// Remote halo mode (GPU-SM, seed 003): a strip's first and last R layers along the split axis SPLIT (0 x,
// 1 y, 2 z; the slow axis unless the placement names another) are its neighbours' cells, read straight from
// their buffers instead of from ghost copies. `below` and `above` point into those buffers shifted to this
// strip's numbering (the host passes `in` for a side without a neighbour; a neighbour's pitch equals the own,
// gpu/multi_gpu.cpp refuses unequal widths), so a load keeps its index and only the pointer is chosen by the
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
extern "C" __global__ void BLOCK_BOUNDS ss_star(
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
}
#endif

#if VARIANT == 4 // uncoalesced (teaching): base with the thread mapping turned around. Thread x walks the slow
// axis (y in 2D, z in 3D) and the last block dim walks x, so a warp's 32 loads hit 32 different rows or
// planes: one sector fetched per 4 useful bytes instead of one per 32. Coarsening does not apply (CF = 1).
extern "C" __global__ void ss_star(
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
    const idx_t sy = nx, sz = idx_t(nx) * ny;
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
extern "C" __global__ void BLOCK_BOUNDS ss_star(
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
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * BLK_X;
        const int s = threadIdx.x + l * BLK_X + ty * tsy + tz * tsz;
        if (i < nx && in_domain_yz) tile[s] = CELL_SRC(i, j, k)[i + j * sy + (DIMS == 3 ? k * sz : 0)];
    }
    __syncthreads();
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
}
#endif

#if VARIANT == 2 // smem_padded (listings 3.10-3.14): tile + R-wide padding; every operand from shared memory
extern "C" __global__ void BLOCK_BOUNDS ss_star(
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
}
#endif

#if VARIANT == 3 // stream: 2.5D blocking (Micikevicius 2009). Tile the fast plane (3D) or row (2D) and march
// along the slow axis; the 2R+1 values along it live in registers, the plane with its x/y halo in shared
// memory. Both are fetched PIPE planes ahead so that enough bytes are in flight to cover DRAM latency:
// the column values into a register ring, the halo by cp.async straight into a ring of PIPE+1 tiles.
// Each block marches `chunk` planes from lo + blockIdx.(z|y) * chunk. The halo cells of a tile are
// numbered once; thread t copies items t, t+T, ... (MAX_HALO and PIPE come from the preamble).

__device__ __forceinline__ void copy_async(T* dst, const T* src) {
#if __CUDA_ARCH__ >= 800
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"(sizeof(T)));
#else
    *dst = *src;
#endif
}
__device__ __forceinline__ void commit_copies() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
__device__ __forceinline__ void wait_copies_all() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::);
#endif
}
__device__ __forceinline__ void wait_copies_but_newest() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PIPE - 1));
#endif
}

#ifdef SBX // specialised for its block: the halo map and index arithmetic fold at compile time
#define STREAM_BX SBX
#define STREAM_BY SBY
#define STREAM_BOUNDS __launch_bounds__(SBX* SBY, SMINB)
#else
#define STREAM_BX blockDim.x
#define STREAM_BY blockDim.y
#define STREAM_BOUNDS
#endif

// The 2D and 3D kernels below repeat the pipeline skeleton (halo fetch, column preload, ring advance,
// queue shift) on purpose: moving it into __forceinline__ helpers was measured on the H100 (2026-11-22)
// to change register allocation, 3D R4 CF4 64x4 went from 265 to 244 GCells/s (64 -> 74 registers at CF2).
#if DIMS == 2
// 2D: a block of BX threads covers W = BX * CF cells of a row (x-coarsening as in the thesis) and marches
// along y. The row with its x halo lives in shared memory.
extern "C" __global__ void STREAM_BOUNDS ss_star(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    const int BX = STREAM_BX, W = BX * CF, px = W + 2 * R;
    const int s_begin = lo + blockIdx.y * chunk;
    const idx_t ss = nx;
    const int x0 = blockIdx.x * W;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return;
    T* tiles = reinterpret_cast<T*>(smem_raw); // PIPE + 1 rows of px
    const int tile_size = px;

    // Halo map: the left and right R cells of the row.
    const int t = threadIdx.x;
    int h_src[MAX_HALO], h_dst[MAX_HALO];
#pragma unroll
    for (int k = 0; k < MAX_HALO; ++k) {
        const int item = t + k * BX;
        const int c = (item < R ? 0 : W + R) + item % R;
        const int gx = x0 - R + c;
        const bool ok = item < 2 * R && gx >= 0 && gx < nx;
        h_src[k] = ok ? gx : -1;
        h_dst[k] = ok ? c : -1;
    }
    auto fetch_halo = [&](int plane, int buffer) {
        if (plane < s_end) {
#pragma unroll
            for (int k = 0; k < MAX_HALO; ++k)
                if (h_src[k] >= 0)
                    copy_async(
                        tiles + buffer * tile_size + h_dst[k], PICK(0, h_src[k], nx) + h_src[k] + idx_t(plane) * ss);
        }
        commit_copies(); // an empty group past the end keeps the group count uniform
    };

    T q[CF][2 * R + 1]; // q[l][m]: value at row (s - R + m) of this thread's column l
    T ring[PIPE][CF]; // column values of rows s + R + 1 .. s + R + PIPE, in flight
    bool col_ok[CF];
    idx_t col[CF];
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = x0 + threadIdx.x + l * BX;
        col_ok[l] = i < nx;
        col[l] = i;
#pragma unroll
        for (int m = 0; m < 2 * R; ++m)
            q[l][m] = col_ok[l] ? CELL_SRC(i, s_begin - R + m, 0)[col[l] + (s_begin - R + m) * ss] : T(0);
#pragma unroll
        for (int p = 0; p < PIPE; ++p)
            ring[p][l] = col_ok[l] && s_begin + p < s_end
                ? CELL_SRC(i, s_begin + R + p, 0)[col[l] + (s_begin + R + p) * ss]
                : T(0);
    }
#pragma unroll
    for (int p = 0; p < PIPE; ++p) fetch_halo(s_begin + p, p);

    int buffer = 0; // tile of row s: (s - s_begin) mod (PIPE + 1)
    for (int s0 = s_begin; s0 < s_end; s0 += PIPE) {
#pragma unroll
        for (int p = 0; p < PIPE; ++p) { // unrolled so that ring[p] is a fixed register
            const int s = s0 + p;
            if (s >= s_end) break; // uniform across the block
            T* tile = tiles + buffer * tile_size;
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                q[l][2 * R] = ring[p][l];
                ring[p][l] = col_ok[l] && s + PIPE < s_end
                    ? CELL_SRC(int(col[l]), s + R + PIPE, 0)[col[l] + (s + R + PIPE) * ss]
                    : T(0);
                tile[R + threadIdx.x + l * BX] = q[l][R];
            }
            wait_copies_but_newest(); // this row's halo has landed
            __syncthreads(); // ... for every thread; and row s-1's tile is free again
            fetch_halo(s + PIPE, buffer == 0 ? PIPE : buffer - 1);
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const int i = x0 + threadIdx.x + l * BX;
                if (i < R || i >= nx - R) continue;
                const int c = R + threadIdx.x + l * BX;
                T acc = centre_term(q[l][R]);
#pragma unroll
                for (int d = 1; d <= R; ++d) acc += weight(d) * (tile[c - d] + tile[c + d] + q[l][R - d] + q[l][R + d]);
                finish(out, col[l] + idx_t(s) * ss, acc);
            }
#pragma unroll
            for (int l = 0; l < CF; ++l)
#pragma unroll
                for (int m = 0; m < 2 * R; ++m) q[l][m] = q[l][m + 1];
            buffer = buffer == PIPE ? 0 : buffer + 1;
        }
    }
    wait_copies_all();
}
#elif STREAM_FWD
// 3D, forward-accumulating (chosen by the host: fp32 from R2 on, see stream_layout in launch_policy.h).
// A block of BX x BY threads covers a tile of W = BX * XB columns x H = BY * CF rows; each thread owns XB
// adjacent columns (read as one XB-wide vector) of CF consecutive rows, so its x and its y neighbours
// overlap: per cell it reads about (2R + XB) / XB x values and (2R + CF) / CF y values from shared memory,
// XB at a time (R16, XB 2, CF 2: ~1.1 instead of ~1.6 shared-memory wavefronts per cell).
// The z part is spread forward instead of gathered: when plane t arrives, its value v adds weight(|d|) * v
// to the pending sums of planes t - R .. t + R, the x/y part goes to plane t's own sum, and plane t - R is
// complete. That keeps the same 2R registers per cell as a queue of values, but every operand of plane t
// now comes from plane t's tile, which cp.async fills whole (interior and halo, no corners): no register
// ring of loads in flight and no per-item halo addresses (the copy map is two bit masks). Every cell adds
// its terms in the same order (z from plane t - R up, x then y at plane t) wherever its block or strip starts.
struct __align__(XB * sizeof(T)) xvec {
    T v[XB];
};

__device__ __forceinline__ void copy_async_to(unsigned dst, const T* src) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(sizeof(T)));
#else
    *reinterpret_cast<T*>(__cvta_shared_to_generic(dst)) = *src;
#endif
}

// Whole 16-byte chunks of a tile row per copy from R8 on (CV cells each): a quarter of the copy instructions and of
// their address and mask work in fp32 (R16 two roles: 30 instead of 102 cp.async in the PTX), measured 2-7 points
// of the roofline better at R8 and R16 (fp32 and fp64) on the H100, and 5 points worse at R4 (docs/PERFORMANCE.md).
// Every chunk then lies wholly in or out of the domain and of the tile's columns: the row pitch (SNX), the tile's
// width and its left margin are multiples of CV. Strips that choose a source per cell (remote, cut along x or y)
// copy cell by cell.
#if defined(SBX) && !(REMOTE && SPLIT != 2) && R >= 8
#define STREAM_CV                                                                                                      \
    (SNX % (16 / int(sizeof(T))) == 0 && (SBX * XB) % (16 / int(sizeof(T))) == 0                                       \
                && ((R + XB - 1) / XB * XB) % (16 / int(sizeof(T))) == 0                                               \
            ? 16 / int(sizeof(T))                                                                                      \
            : 1)
#else
#define STREAM_CV 1
#endif
__device__ __forceinline__ void copy_async_chunk(unsigned dst, const T* src) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
#else
    *reinterpret_cast<uint4*>(__cvta_shared_to_generic(dst)) = *reinterpret_cast<const uint4*>(src);
#endif
}

#if ROLES == 2
// 3D, forward, two roles (STENCILSCOPE_STREAM_FWD=2, see stream_layout: its barriers are reached from two loops). The
// block's lower half of thread rows (the past role) and its upper half (the future role) own the same XB x CF cells per
// thread, and each keeps R pending sums per cell instead of 2R, so twice the warps hold the same cells in flight:
//   past:   the z terms of planes o - R .. o - 1, then the centre and the x part of plane o; hands the sum over
//           through shared memory (two slots, by plane parity, so the plane's barrier orders them);
//   future: the y part of plane o, then (one plane later) the handed-over sum plus y, the z terms of planes
//           o + 1 .. o + R, and the store.
// Every cell adds its terms in that order, wherever its block or strip starts. The tile copy is the forward
// kernel's, by all threads of the block.
extern "C" __global__ void STREAM_BOUNDS ss_star(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    const int BX = STREAM_BX, BY = STREAM_BY, GY = BY / 2, W = BX * XB, H = GY * CF;
    const int OFF = (R + XB - 1) / XB * XB, px = W + 2 * OFF, rows = H + 2 * R, tile_size = rows * px;
    const int x0 = blockIdx.x * W, y0 = blockIdx.y * H;
    const int s_begin = lo + blockIdx.z * chunk;
    const int s_end = min(s_begin + chunk, hi), t_end = s_end + R;
    if (s_begin >= s_end) return;
    const idx_t ss = idx_t(nx) * ny;
    const int tx = threadIdx.x, ty = threadIdx.y, role = ty / GY;
    const int cx = XB * tx, row0 = CF * (ty - role * GY);
    T* tiles = reinterpret_cast<T*>(smem_raw); // PIPE + 1 planes of rows x px, then the two handover slots
    T* handover = tiles + (PIPE + 1) * tile_size + row0 * W + cx; // slot 0 of the thread's first cell

    constexpr int CV = STREAM_CV; // cells per copy
    const int KR = (rows + BY - 1) / BY, KC = (px / CV + BX - 1) / BX;
    auto item_ok = [&](int kr, int kc, bool interior_only) {
        const int row = ty + kr * BY, c = (tx + kc * BX) * CV, gy = y0 - R + row, gx = x0 - OFF + c;
        const bool xin = c >= OFF && c < OFF + W, yin = row >= R && row < R + H;
        const bool xhalo = c + CV > OFF - R && c < OFF + W + R;
        return row < rows && xhalo && (interior_only ? xin && yin : xin || yin) && gx >= 0 && gx < nx && gy >= 0
            && gy < ny;
    };
    unsigned long long full = 0, inner = 0;
#pragma unroll
    for (int kr = 0; kr < KR; ++kr)
#pragma unroll
        for (int kc = 0; kc < KC; ++kc)
            if (kr * KC + kc < 64) {
                full |= (unsigned long long)item_ok(kr, kc, false) << (kr * KC + kc);
                inner |= (unsigned long long)item_ok(kr, kc, true) << (kr * KC + kc);
            }
    const unsigned smem_base
        = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw)) + (ty * px + tx * CV) * sizeof(T);
    const idx_t src0 = idx_t(y0 - R + ty) * nx + (x0 - OFF + tx * CV);
    const idx_t row_step = idx_t(BY) * nx;
    auto fetch = [&](int plane, int buffer) {
        if (plane < t_end) {
            const bool interior_only = plane < s_begin || plane >= s_end;
            const unsigned long long m = interior_only ? inner : full;
            const unsigned dst = smem_base + buffer * tile_size * sizeof(T);
#if REMOTE && SPLIT != 2
            const idx_t first = idx_t(plane) * ss + src0;
#pragma unroll
            for (int kr = 0; kr < KR; ++kr)
#pragma unroll
                for (int kc = 0; kc < KC; ++kc) {
                    const int bit = kr * KC + kc;
                    if (bit < 64 ? (m >> bit & 1) != 0 : item_ok(kr, kc, interior_only))
                        copy_async_to(dst + (kr * BY * px + kc * BX) * sizeof(T),
                            CELL_SRC(x0 - OFF + tx + kc * BX, y0 - R + ty + kr * BY, plane)
                                + (first + kr * row_step + kc * BX));
                }
#else
            const T* src = SRC(plane, nz) + (idx_t(plane) * ss + src0);
#pragma unroll
            for (int kr = 0; kr < KR; ++kr, src += row_step)
#pragma unroll
                for (int kc = 0; kc < KC; ++kc) {
                    const int bit = kr * KC + kc;
                    if (bit < 64 ? (m >> bit & 1) != 0 : item_ok(kr, kc, interior_only)) {
                        if constexpr (CV > 1)
                            copy_async_chunk(dst + (kr * BY * px + kc * BX * CV) * sizeof(T), src + kc * BX * CV);
                        else
                            copy_async_to(dst + (kr * BY * px + kc * BX) * sizeof(T), src + kc * BX);
                    }
                }
#endif
        }
        commit_copies();
    };

    bool cell_interior[CF][XB];
    const idx_t col0 = x0 + cx + idx_t(y0 + row0) * nx;
#pragma unroll
    for (int l = 0; l < CF; ++l)
#pragma unroll
        for (int e = 0; e < XB; ++e) {
            const int i = x0 + cx + e, j = y0 + row0 + l;
            cell_interior[l][e] = i >= R && i < nx - R && j >= R && j < ny - R;
        }
#pragma unroll
    for (int p = 0; p < PIPE; ++p) fetch(s_begin - R + p, p);

    // Both roles pass the same barriers, one per plane, from their own loops (warp-uniform roles).
    int buffer = 0;
    if (role == 0) {
        T past[CF][XB][R]; // past[l][e][k]: plane t + k's sum of the z terms of planes before t
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int e = 0; e < XB; ++e)
#pragma unroll
                for (int k = 0; k < R; ++k) past[l][e][k] = T(0);
        for (int t = s_begin - R; t < t_end; ++t) {
            const T* tile = tiles + buffer * tile_size + (R + row0) * px + cx;
            wait_copies_but_newest();
            __syncthreads();
            fetch(t + PIPE, buffer == 0 ? PIPE : buffer - 1);
            T v[CF][XB];
            if (t >= s_begin && t < s_end) { // plane t is updated: hand over its z-past + centre + x sum
#pragma unroll
                for (int l = 0; l < CF; ++l) {
                    T xs[2 * OFF + XB];
#pragma unroll
                    for (int u = 0; u < (2 * OFF + XB) / XB; ++u) {
                        const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + u * XB);
#pragma unroll
                        for (int e = 0; e < XB; ++e) xs[u * XB + e] = a.v[e];
                    }
                    xvec h;
#pragma unroll
                    for (int e = 0; e < XB; ++e) {
                        v[l][e] = xs[OFF + e];
                        T a = past[l][e][0] + centre_term(v[l][e]);
#pragma unroll
                        for (int d = 1; d <= R; ++d) a = fma_rn(weight(d), xs[OFF + e - d] + xs[OFF + e + d], a);
                        h.v[e] = a;
                    }
                    *reinterpret_cast<xvec*>(handover + (t & 1) * W * H + l * W) = h;
                }
            } else {
#pragma unroll
                for (int l = 0; l < CF; ++l) {
                    const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + OFF);
#pragma unroll
                    for (int e = 0; e < XB; ++e) v[l][e] = a.v[e];
                }
            }
            // plane t is the neighbour at distance k of plane t + k (k = 1 .. R); moving on to plane t + 1 is
            // written as past k = past k + 1 + w * v, one FMA per pending sum.
#pragma unroll
            for (int l = 0; l < CF; ++l)
#pragma unroll
                for (int e = 0; e < XB; ++e) {
#pragma unroll
                    for (int k = 0; k + 1 < R; ++k) past[l][e][k] = fma_rn(weight(k + 1), v[l][e], past[l][e][k + 1]);
                    past[l][e][R - 1] = product_rn(weight(R), v[l][e]);
                }
            buffer = buffer == PIPE ? 0 : buffer + 1;
        }
    } else {
        T future[CF][XB][R - 1]; // future[l][e][i]: plane t - 2 - i's sum, all but the z terms from plane t on
        T y_part[CF][XB]; // plane t - 1's y part
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int e = 0; e < XB; ++e) {
                y_part[l][e] = T(0);
#pragma unroll
                for (int i = 0; i + 1 < R; ++i) future[l][e][i] = T(0);
            }
        for (int t = s_begin - R; t < t_end; ++t) {
            const T* tile = tiles + buffer * tile_size + (R + row0) * px + cx;
            wait_copies_but_newest();
            __syncthreads(); // ... also orders the past role's handover of plane t - 1 before its read here
            fetch(t + PIPE, buffer == 0 ? PIPE : buffer - 1);
            T v[CF][XB];
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + OFF);
#pragma unroll
                for (int e = 0; e < XB; ++e) v[l][e] = a.v[e];
            }
            // Plane t - 1: the handed-over sum plus its y part, then plane t as its neighbour at distance 1.
            T newest[CF][XB];
            const bool formed = t - 1 >= s_begin && t - 1 < s_end;
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                xvec h;
                if (formed) h = *reinterpret_cast<const xvec*>(handover + ((t - 1) & 1) * W * H + l * W);
#pragma unroll
                for (int e = 0; e < XB; ++e)
                    newest[l][e] = fma_rn(weight(1), v[l][e], formed ? h.v[e] + y_part[l][e] : T(0));
            }
            // Plane t - R is complete: store it.
            T* o = out + (idx_t(t - R) * ss + col0);
            const bool emit = t - R >= s_begin && t - R < s_end;
#pragma unroll
            for (int l = 0; l < CF; ++l)
#pragma unroll
                for (int e = 0; e < XB; ++e) {
                    const T done = fma_rn(weight(R), v[l][e], future[l][e][R - 2]);
                    if (emit && cell_interior[l][e]) finish(o, l * nx + e, done);
                }
                // Plane t - 1 - i is the neighbour at distance i + 1 of plane t: future i = future i - 1 + w * v.
#pragma unroll
            for (int l = 0; l < CF; ++l)
#pragma unroll
                for (int e = 0; e < XB; ++e) {
#pragma unroll
                    for (int i = R - 2; i >= 1; --i)
                        future[l][e][i] = fma_rn(weight(i + 1), v[l][e], future[l][e][i - 1]);
                    future[l][e][0] = newest[l][e];
                }
            // Plane t's y part, for the next plane's handover: rows row0 - R .. row0 + CF - 1 + R.
            if (t >= s_begin && t < s_end) {
#pragma unroll
                for (int l = 0; l < CF; ++l)
#pragma unroll
                    for (int e = 0; e < XB; ++e) y_part[l][e] = T(0);
#pragma unroll
                for (int m = -R; m < CF + R; ++m) {
                    xvec a;
                    if (m >= 0 && m < CF) {
#pragma unroll
                        for (int e = 0; e < XB; ++e) a.v[e] = v[m >= 0 && m < CF ? m : 0][e];
                    } else {
                        a = *reinterpret_cast<const xvec*>(tile + m * px + OFF);
                    }
#pragma unroll
                    for (int l = 0; l < CF; ++l) {
                        const int d = m > l ? m - l : l - m;
                        if (d >= 1 && d <= R)
#pragma unroll
                            for (int e = 0; e < XB; ++e) y_part[l][e] = fma_rn(weight(d), a.v[e], y_part[l][e]);
                    }
                }
            }
            buffer = buffer == PIPE ? 0 : buffer + 1;
        }
    }
    wait_copies_all();
}
#else // one role: each thread keeps the 2R pending sums of its cells
extern "C" __global__ void STREAM_BOUNDS ss_star(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    const int BX = STREAM_BX, BY = STREAM_BY, W = BX * XB, H = BY * CF;
    // Tile columns: OFF (R rounded up to XB) left of the interior, so that every thread's columns start on
    // an XB-aligned vector; only R of them (and R on the right) are halo.
    const int OFF = (R + XB - 1) / XB * XB, px = W + 2 * OFF, rows = H + 2 * R, tile_size = rows * px;
    const int x0 = blockIdx.x * W, y0 = blockIdx.y * H;
    const int s_begin = lo + blockIdx.z * chunk;
    const int s_end = min(s_begin + chunk, hi), t_end = s_end + R;
    if (s_begin >= s_end) return;
    const idx_t ss = idx_t(nx) * ny; // stride along the marching axis
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int cx = XB * tx, row0 = CF * ty; // the thread's first x-window column (own columns: OFF + cx ..) and row
    const T* tiles = reinterpret_cast<const T*>(smem_raw); // PIPE + 1 planes of rows x px

    // Copy map: thread (tx, ty) copies the tile items (ty + kr * BY, tx + kc * BX) of CV cells each that lie in the
    // domain and in the x or y halo or the interior (no corners); planes outside [s_begin, s_end) need only the
    // interior.
    // The first 64 items' answers are bits of `full` and `inner`.
    constexpr int CV = STREAM_CV; // cells per copy
    const int KR = (rows + BY - 1) / BY, KC = (px / CV + BX - 1) / BX;
    auto item_ok = [&](int kr, int kc, bool interior_only) {
        const int row = ty + kr * BY, c = (tx + kc * BX) * CV, gy = y0 - R + row, gx = x0 - OFF + c;
        const bool xin = c >= OFF && c < OFF + W, yin = row >= R && row < R + H;
        const bool xhalo = c + CV > OFF - R && c < OFF + W + R;
        return row < rows && xhalo && (interior_only ? xin && yin : xin || yin) && gx >= 0 && gx < nx && gy >= 0
            && gy < ny;
    };
    unsigned long long full = 0, inner = 0;
#pragma unroll
    for (int kr = 0; kr < KR; ++kr)
#pragma unroll
        for (int kc = 0; kc < KC; ++kc)
            if (kr * KC + kc < 64) {
                full |= (unsigned long long)item_ok(kr, kc, false) << (kr * KC + kc);
                inner |= (unsigned long long)item_ok(kr, kc, true) << (kr * KC + kc);
            }
    const unsigned smem_base
        = static_cast<unsigned>(__cvta_generic_to_shared(smem_raw)) + (ty * px + tx * CV) * sizeof(T);
    const idx_t src0 = idx_t(y0 - R + ty) * nx + (x0 - OFF + tx * CV); // may be negative: only items inside are read
    const idx_t row_step = idx_t(BY) * nx;
    auto fetch = [&](int plane, int buffer) {
        if (plane < t_end) {
            const bool interior_only = plane < s_begin || plane >= s_end;
            const unsigned long long m = interior_only ? inner : full;
            const unsigned dst = smem_base + buffer * tile_size * sizeof(T);
#if REMOTE && SPLIT != 2 // the strips are boxes in the plane: each item's cell chooses its source
            const idx_t first = idx_t(plane) * ss + src0;
#pragma unroll
            for (int kr = 0; kr < KR; ++kr)
#pragma unroll
                for (int kc = 0; kc < KC; ++kc) {
                    const int bit = kr * KC + kc;
                    if (bit < 64 ? (m >> bit & 1) != 0 : item_ok(kr, kc, interior_only))
                        copy_async_to(dst + (kr * BY * px + kc * BX) * sizeof(T),
                            CELL_SRC(x0 - OFF + tx + kc * BX, y0 - R + ty + kr * BY, plane)
                                + (first + kr * row_step + kc * BX));
                }
#else
            const T* src
                = SRC(plane, nz) + (idx_t(plane) * ss + src0); // then one pointer per row, immediate offsets along it
#pragma unroll
            for (int kr = 0; kr < KR; ++kr, src += row_step)
#pragma unroll
                for (int kc = 0; kc < KC; ++kc) {
                    const int bit = kr * KC + kc;
                    if (bit < 64 ? (m >> bit & 1) != 0 : item_ok(kr, kc, interior_only)) {
                        if constexpr (CV > 1)
                            copy_async_chunk(dst + (kr * BY * px + kc * BX * CV) * sizeof(T), src + kc * BX * CV);
                        else
                            copy_async_to(dst + (kr * BY * px + kc * BX) * sizeof(T), src + kc * BX);
                    }
                }
#endif
        }
        commit_copies(); // an empty group past the end keeps the group count uniform
    };

    T acc[CF][XB][2 * R]; // acc[l][e][m]: pending sum of plane t - R + m, cell (row0 + l, OFF + cx + e)
    bool cell_interior[CF][XB];
    const idx_t col0 = x0 + cx + idx_t(y0 + row0) * nx; // the thread's first cell in a plane
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int j = y0 + row0 + l;
#pragma unroll
        for (int e = 0; e < XB; ++e) {
            const int i = x0 + cx + e;
            cell_interior[l][e] = i >= R && i < nx - R && j >= R && j < ny - R;
#pragma unroll
            for (int m = 0; m < 2 * R; ++m) acc[l][e][m] = T(0);
        }
    }
#pragma unroll
    for (int p = 0; p < PIPE; ++p) fetch(s_begin - R + p, p);

    int buffer = 0; // tile of plane t: (t - s_begin + R) mod (PIPE + 1)
    for (int t = s_begin - R; t < t_end; ++t) {
        const T* tile = tiles + buffer * tile_size + (R + row0) * px + cx; // the thread's window, first row
        wait_copies_but_newest(); // this plane has landed
        __syncthreads(); // ... for every thread; and plane t-1's tile is free again
        fetch(t + PIPE, buffer == 0 ? PIPE : buffer - 1);
        T v[CF][XB]; // the thread's own values of plane t
        T sum[CF][XB]; // plane t's pending sums with its x and y parts
        if (t >= s_begin && t < s_end) { // plane t is updated: its x and y neighbours
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                T xs[2 * OFF + XB]; // columns cx .. cx + 2 OFF + XB - 1 of row row0 + l
#pragma unroll
                for (int u = 0; u < (2 * OFF + XB) / XB; ++u) {
                    const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + u * XB);
#pragma unroll
                    for (int e = 0; e < XB; ++e) xs[u * XB + e] = a.v[e];
                }
#pragma unroll
                for (int e = 0; e < XB; ++e) {
                    v[l][e] = xs[OFF + e];
                    T a = acc[l][e][R] + centre_term(v[l][e]); // rounded on its own, like every kernel's centre
#pragma unroll
                    for (int d = 1; d <= R; ++d) a = fma_rn(weight(d), xs[OFF + e - d] + xs[OFF + e + d], a);
                    sum[l][e] = a;
                }
            }
            // y neighbours: rows row0 - R .. row0 + CF - 1 + R, each read once for all CF x XB cells
#pragma unroll
            for (int m = -R; m < CF + R; ++m) {
                xvec a;
                if (m >= 0 && m < CF) {
#pragma unroll
                    for (int e = 0; e < XB; ++e) a.v[e] = v[m >= 0 && m < CF ? m : 0][e];
                } else {
                    a = *reinterpret_cast<const xvec*>(tile + m * px + OFF);
                }
#pragma unroll
                for (int l = 0; l < CF; ++l) {
                    const int d = m > l ? m - l : l - m;
                    if (d >= 1 && d <= R)
#pragma unroll
                        for (int e = 0; e < XB; ++e) sum[l][e] = fma_rn(weight(d), a.v[e], sum[l][e]);
                }
            }
        } else { // a plane before or after the updated ones: only its values, for the z sums
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + OFF);
#pragma unroll
                for (int e = 0; e < XB; ++e) v[l][e] = a.v[e], sum[l][e] = acc[l][e][R];
            }
        }
        // Plane t - R is complete: store it first (fewer registers live across the stores than interleaving).
        T* o = out + (idx_t(t - R) * ss + col0);
        const bool emit = t >= s_begin + R;
        T done[CF][XB];
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int e = 0; e < XB; ++e) done[l][e] = fma_rn(weight(R), v[l][e], acc[l][e][0]);
#pragma unroll
        for (int l = 0; l < CF; ++l) {
#pragma unroll
            for (int e = 0; e < XB; ++e)
                if (emit && cell_interior[l][e]) finish(o, l * nx + e, done[l][e]);
        }
        // z: plane t is the neighbour at distance |m - R| of the pending plane t - R + m. Adding it and moving on
        // to plane t + 1 is written as sum m = sum m + 1 + weight * v: one FMA per pending sum, no separate shift.
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int e = 0; e < XB; ++e) {
                const T x = v[l][e];
#pragma unroll
                for (int m = 0; m + 1 < 2 * R; ++m)
                    acc[l][e][m] = m + 1 == R ? sum[l][e]
                                              : fma_rn(weight(m + 1 > R ? m + 1 - R : R - m - 1), x, acc[l][e][m + 1]);
                acc[l][e][2 * R - 1] = product_rn(weight(R), x);
            }
        buffer = buffer == PIPE ? 0 : buffer + 1;
    }
    wait_copies_all();
}
#endif // ROLES
#else
// 3D: a block of BX x BY threads covers a tile of BX columns x H = BY * CF rows of the xy plane and marches
// along z. Each thread owns CF consecutive rows of one column (coarsening in y): the y neighbours of its
// CF cells overlap, so it reads 2R + CF tile values for them instead of 2R * CF, and the tile's halo is
// small next to its BX x H interior. Shared-memory bandwidth is what bounds large radii (4R reads per cell
// without this); the z neighbours stay in registers.
extern "C" __global__ void STREAM_BOUNDS ss_star(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    const int BX = STREAM_BX, BY = STREAM_BY, H = BY * CF;
    const int px = BX + 2 * R, rows = H + 2 * R;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * H;
    const int s_begin = lo + blockIdx.z * chunk;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return;
    const idx_t ss = idx_t(nx) * ny; // stride along the marching axis
    const int i = x0 + threadIdx.x, row0 = threadIdx.y * CF; // the thread's column and first tile row
    T* tiles = reinterpret_cast<T*>(smem_raw); // PIPE + 1 planes of rows x px
    const int tile_size = rows * px;

    // Halo map: top and bottom strips (R x BX), then left and right columns (H x R).
    const int t = threadIdx.x + threadIdx.y * BX, nthreads = BX * BY;
    const int strip = R * BX, side = R * H;
    const int halo_count = 2 * strip + 2 * side;
    int h_src[MAX_HALO], h_dst[MAX_HALO];
#if REMOTE && SPLIT != 2
    signed char h_side[MAX_HALO]; // strips that are boxes in the plane: 0 own cell, 1 below, 2 above
#endif
#pragma unroll
    for (int k = 0; k < MAX_HALO; ++k) {
        const int item = t + k * nthreads;
        int row = 0, c = 0;
        if (item < 2 * strip) {
            const int a = item % strip;
            row = (item < strip ? 0 : H + R) + a / BX, c = R + a % BX;
        } else {
            const int b = item - 2 * strip, a = b % side;
            row = R + a / R, c = (b < side ? 0 : BX + R) + a % R;
        }
        const int gx = x0 - R + c, gy = y0 - R + row;
        const bool ok = item < halo_count && gx >= 0 && gx < nx && gy >= 0 && gy < ny;
        h_src[k] = ok ? gx + gy * nx : -1;
        h_dst[k] = ok ? row * px + c : -1;
#if REMOTE && SPLIT != 2
        const int split_c = SPLIT == 0 ? gx : gy, split_n = SPLIT == 0 ? nx : ny;
        h_side[k] = split_c < R ? 1 : split_c >= split_n - R ? 2 : 0;
#endif
    }
    auto fetch_halo = [&](int plane, int buffer) {
        if (plane < s_end) {
#pragma unroll
            for (int k = 0; k < MAX_HALO; ++k) {
#if REMOTE && SPLIT != 2
                const T* from = h_side[k] == 1 ? below : h_side[k] == 2 ? above : in;
#else
                const T* from = in;
#endif
                if (h_src[k] >= 0)
                    copy_async(tiles + buffer * tile_size + h_dst[k], from + h_src[k] + idx_t(plane) * ss);
            }
        }
        commit_copies(); // an empty group past the end keeps the group count uniform
    };

    T q[CF][2 * R + 1]; // q[l][m]: value at plane (s - R + m) of this thread's cell in row row0 + l
    T ring[PIPE][CF]; // values of planes s + R + 1 .. s + R + PIPE, in flight
    bool cell_ok[CF], cell_interior[CF];
    idx_t col[CF];
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int j = y0 + row0 + l;
        cell_ok[l] = i < nx && j < ny;
        cell_interior[l] = i >= R && i < nx - R && j >= R && j < ny - R;
        col[l] = i + idx_t(j) * nx;
#pragma unroll
        for (int m = 0; m < 2 * R; ++m)
            q[l][m] = cell_ok[l] ? CELL_SRC(i, j, s_begin - R + m)[col[l] + (s_begin - R + m) * ss] : T(0);
#pragma unroll
        for (int p = 0; p < PIPE; ++p)
            ring[p][l] = cell_ok[l] && s_begin + p < s_end
                ? CELL_SRC(i, j, s_begin + R + p)[col[l] + (s_begin + R + p) * ss]
                : T(0);
    }
#pragma unroll
    for (int p = 0; p < PIPE; ++p) fetch_halo(s_begin + p, p);

    int buffer = 0; // tile of plane s: (s - s_begin) mod (PIPE + 1)
    for (int s0 = s_begin; s0 < s_end; s0 += PIPE) {
#pragma unroll
        for (int p = 0; p < PIPE; ++p) { // unrolled so that ring[p] is a fixed register
            const int s = s0 + p;
            if (s >= s_end) break; // uniform across the block
            T* tile = tiles + buffer * tile_size;
            const int c0 = (R + row0) * px + R + threadIdx.x; // the thread's first cell in the tile
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                q[l][2 * R] = ring[p][l];
                ring[p][l] = cell_ok[l] && s + PIPE < s_end
                    ? CELL_SRC(i, y0 + row0 + l, s + R + PIPE)[col[l] + (s + R + PIPE) * ss]
                    : T(0);
                tile[c0 + l * px] = q[l][R];
            }
            wait_copies_but_newest(); // this plane's halo has landed
            __syncthreads(); // ... for every thread; and plane s-1's tile is free again
            fetch_halo(s + PIPE, buffer == 0 ? PIPE : buffer - 1);
            T acc[CF];
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                acc[l] = centre_term(q[l][R]);
#pragma unroll
                for (int d = 1; d <= R; ++d)
                    acc[l] += weight(d) * (tile[c0 + l * px - d] + tile[c0 + l * px + d] + q[l][R - d] + q[l][R + d]);
            }
            // y neighbours: tile rows row0 - R .. row0 + CF - 1 + R, each read once for all CF cells
#pragma unroll
            for (int m = -R; m < CF + R; ++m) {
                const T v = m >= 0 && m < CF ? q[m >= 0 && m < CF ? m : 0][R] : tile[c0 + m * px];
#pragma unroll
                for (int l = 0; l < CF; ++l) {
                    const int d = m > l ? m - l : l - m;
                    if (d >= 1 && d <= R) acc[l] = fma_rn(weight(d), v, acc[l]);
                }
            }
#pragma unroll
            for (int l = 0; l < CF; ++l)
                if (cell_interior[l]) finish(out, col[l] + idx_t(s) * ss, acc[l]);
#pragma unroll
            for (int l = 0; l < CF; ++l)
#pragma unroll
                for (int m = 0; m < 2 * R; ++m) q[l][m] = q[l][m + 1];
            buffer = buffer == PIPE ? 0 : buffer + 1;
        }
    }
    wait_copies_all();
}
#endif
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
