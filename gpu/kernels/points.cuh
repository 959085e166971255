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

#if VARIANT == 8 // stream: 2.5D, the block's tile marching along the slow axis (y in 2D, z in 3D)
// A star's stream keeps the 2R+1 values of its column in registers because it reads only the column off its plane; a
// point stencil may read any cell of the 2R+1 planes around its own (a box reads them all), so the planes themselves
// are kept: a ring of 2R+2 tiles in shared memory, each the block's cells with an R-wide halo along the plane's axes.
// While plane s is computed from 2R+1 slots, the planes after it travel from DRAM through registers (up to four
// ahead, with a known block) and plane s+R+1 goes into the spare slot: the loads' latency hides behind several
// planes' sums, and one barrier per plane suffices (the slot written in step s was last read in step s-1). Every plane
// is loaded once per block (the chunk's first 2R twice: the warm-up). point_sum_ring is generated like point_sum: the
// same products in the same order, so the result is bitwise base's; `plane[m]` is the ring offset of the plane m - R
// away along the marching axis.
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    T* ring = reinterpret_cast<T*>(smem_raw);
    constexpr int SLOTS = POINT_FORWARD ? 2 : 2 * R + 2;
    const int BX = BLK_X, BY = DIMS == 3 ? BLK_Y : 1;
    const int px = BX * CF + 2 * R, py = DIMS == 3 ? BY + 2 * R : 1, tile_size = px * py;
    const int s_begin = lo + int(DIMS == 3 ? blockIdx.z : blockIdx.y) * chunk;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return; // uniform across the block: no barrier is left waiting
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny);
    // The tile's first cell along x and (3D) y; cells outside the domain are not loaded, and no interior cell reads
    // them.
    const int gx = int(blockIdx.x) * BX * CF - R, gy = DIMS == 3 ? int(blockIdx.y) * BY - R : 0;
    const int row_thread = DIMS == 3 ? int(threadIdx.y) : 0;
    // Plane s (a row in 2D) into ring slot `slot`, the block's threads walking its rows, a warp along x (coalesced).
    // ss:mark smem tile
    auto load_plane = [&](int s, int slot) {
        T* tile = ring + slot * tile_size;
        for (int row = row_thread; row < py; row += BY) {
            const int j = DIMS == 3 ? gy + row : s, k = DIMS == 3 ? s : 0;
            if (DIMS == 3 && (j < 0 || j >= ny)) continue;
            const idx_t base = j * sy + (DIMS == 3 ? k * sz : 0);
            for (int tx = int(threadIdx.x); tx < px; tx += BX) {
                const int i = gx + tx;
                if (i >= 0 && i < nx) tile[tx + row * px] = CELL_SRC(i, j, k)[base + i];
            }
        }
    };
#ifdef SBX // the block is known: each thread's share of a plane fits a fixed set of registers
    constexpr int QX = (SBX * CF + 2 * R + SBX - 1) / SBX, QY = DIMS == 3 ? (SBY + 2 * R + SBY - 1) / SBY : 1;
    // Planes in flight per thread: a box's sums are short, so one plane ahead leaves the loads' latency exposed
    // (box R1 2D: long-scoreboard stalls, DRAM at 59 % on an H200); a few ahead hide it, as long as registers last.
    constexpr int AHEAD = QX * QY <= 4 ? 4 : QX * QY <= 8 ? 2 : 1;
    T next[AHEAD][QY][QX];
    auto in_plane = [&](int qy, int qx, int s, int& j, int& k, int& i) {
        const int row = row_thread + qy * BY, tx = int(threadIdx.x) + qx * BX;
        j = DIMS == 3 ? gy + row : s, k = DIMS == 3 ? s : 0, i = gx + tx;
        return row < py && tx < px && i >= 0 && i < nx && (DIMS == 2 || (j >= 0 && j < ny));
    };
    auto fetch = [&](int s, T(&q)[QY][QX]) {
#pragma unroll
        for (int qy = 0; qy < QY; ++qy)
#pragma unroll
            for (int qx = 0; qx < QX; ++qx) {
                int j, k, i;
                if (in_plane(qy, qx, s, j, k, i)) q[qy][qx] = CELL_SRC(i, j, k)[i + j * sy + (DIMS == 3 ? k * sz : 0)];
            }
    };
    auto store = [&](int s, const T(&q)[QY][QX], int slot) {
        T* tile = ring + slot * tile_size;
#pragma unroll
        for (int qy = 0; qy < QY; ++qy)
#pragma unroll
            for (int qx = 0; qx < QX; ++qx) {
                int j, k, i;
                if (in_plane(qy, qx, s, j, k, i))
                    tile[int(threadIdx.x) + qx * BX + (row_thread + qy * BY) * px] = q[qy][qx];
            }
    };
#else // any block: each plane goes straight to its slot
    constexpr int AHEAD = 1;
#endif
    // ss:end
    // ss:mark plane loop
#if POINT_FORWARD
    // Forward sums: acc[l][m] is the sum of the output plane t - R + m while plane t arrives; point_forward adds plane
    // t's points to every sum that takes them, each operand loaded once (a box reads its 2R+1 planes' cells 2R+1
    // times less often than from the ring). Output plane t - R is then complete: written, and the sums shift. Two
    // slots: plane t is read from one while plane t + 1 is stored into the other.
    const int t_first = s_begin - R, t_last = s_end - 1 + R;
    T acc[CF][2 * R + 1];
#pragma unroll
    for (int l = 0; l < CF; ++l)
#pragma unroll
        for (int m = 0; m < 2 * R + 1; ++m) acc[l][m] = T(0);
    load_plane(t_first, 0);
#ifdef SBX
#pragma unroll
    for (int q = 0; q < AHEAD; ++q)
        if (t_first + 1 + q <= t_last) fetch(t_first + 1 + q, next[q]);
#endif
    __syncthreads();
    int slot = 0; // plane t's
    const int j0 = DIMS == 3 ? int(blockIdx.y) * BY + int(threadIdx.y) : 0;
    for (int t0 = t_first; t0 <= t_last; t0 += AHEAD) {
#pragma unroll
        for (int q = 0; q < AHEAD; ++q) { // next[q] holds plane t + 1
            const int t = t0 + q;
            if (t > t_last) break; // uniform across the block
            const T* tile = ring + slot * tile_size;
            const int o = t - R, j = DIMS == 3 ? j0 : o, k = DIMS == 3 ? o : 0;
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const int at = int(threadIdx.x) + R + l * BX + (DIMS == 3 ? (int(threadIdx.y) + R) * px : 0);
                point_forward(tile, at, px, tile[at], acc[l]);
                const int i = gx + R + int(threadIdx.x) + l * BX;
                if (o >= s_begin && interior(i, j, k, nx, ny, lo, hi))
                    finish(out, i + j * sy + (DIMS == 3 ? k * sz : 0), acc[l][0]);
#pragma unroll
                for (int m = 0; m < 2 * R; ++m) acc[l][m] = acc[l][m + 1];
                acc[l][2 * R] = T(0);
            }
            // Plane t + 1 into the other slot (plane t - 1's, read in step t - 1, before its barrier).
            if (t < t_last) {
#ifdef SBX
                store(t + 1, next[q], slot ^ 1);
                if (t + 1 + AHEAD <= t_last) fetch(t + 1 + AHEAD, next[q]);
#else
                load_plane(t + 1, slot ^ 1);
#endif
            }
            __syncthreads();
            slot ^= 1;
        }
    }
#else // the ring: each output plane's sum from its 2R+1 planes in shared memory
    for (int m = 0; m < 2 * R + 1; ++m) load_plane(s_begin - R + m, m);
#ifdef SBX
#pragma unroll
    for (int q = 0; q < AHEAD; ++q)
        if (s_begin + 1 + q < s_end) fetch(s_begin + R + 1 + q, next[q]);
#endif
    __syncthreads();
    int head = 0; // the slot of plane s - R
    const int j0 = DIMS == 3 ? int(blockIdx.y) * BY + int(threadIdx.y) : 0;
    for (int s0 = s_begin; s0 < s_end; s0 += AHEAD) {
#pragma unroll
        for (int q = 0; q < AHEAD; ++q) { // next[q] holds plane s + R + 1
            const int s = s0 + q;
            if (s >= s_end) break; // uniform across the block
            int plane[2 * R + 1];
#pragma unroll
            for (int m = 0; m < 2 * R + 1; ++m) {
                const int slot = head + m;
                plane[m] = (slot < SLOTS ? slot : slot - SLOTS) * tile_size;
            }
            const int j = DIMS == 3 ? j0 : s, k = DIMS == 3 ? s : 0;
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const int i = gx + R + int(threadIdx.x) + l * BX;
                if (!interior(i, j, k, nx, ny, lo, hi)) continue;
                const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
                const int at = int(threadIdx.x) + R + l * BX + (DIMS == 3 ? (int(threadIdx.y) + R) * px : 0);
                finish(out, idx, point_sum_ring(ring, plane, at, px));
            }
            // Plane s + R + 1 into the slot plane s - R - 1 left (read last in step s - 1, before its barrier).
            if (s + 1 < s_end) {
                const int spare = head == 0 ? SLOTS - 1 : head - 1;
#ifdef SBX
                store(s + R + 1, next[q], spare);
                if (s + 1 + AHEAD < s_end) fetch(s + R + 1 + AHEAD, next[q]);
#else
                load_plane(s + R + 1, spare);
#endif
            }
            __syncthreads();
            head = head == SLOTS - 1 ? 0 : head + 1;
        }
    }
#endif
    // ss:end
}
#endif

#if VARIANT == 9 // temporal: DEPTH steps per launch, EBISU's temporal blocking for any set of points
#ifndef TEMPORAL_AHEAD
#define TEMPORAL_AHEAD 1 // input planes loaded ahead of the one entering stage 1 (temporal_loads_ahead)
#endif
#ifndef TEMPORAL_SYNC_ROWS
#define TEMPORAL_SYNC_ROWS 1 // forward sums: planes (2D: rows) a stage takes between two barriers (temporal_sync_rows)
#endif
// Cell l of the thread: its place in the tile, in the field, and in a plane of the tile (both kernels below).
#define PT_X(l) (DIMS == 3 ? int(threadIdx.x) : int(threadIdx.x) + (l)*BX)
#define PT_Y(l) (DIMS == 3 ? int(threadIdx.y) + (l)*BY : 0)
#define PT_GX(l) (x0 + PT_X(l))
#define PT_GY(l) (y0 + PT_Y(l))
#define PT_SIDX(l) ((DIMS == 3 ? (PT_Y(l) + R) * PW : 0) + PT_X(l) + R)
#define PT_GIDX(l) (idx_t(PT_GX(l)) + (DIMS == 3 ? idx_t(PT_GY(l)) * sy : idx_t(0)))
#define PT_IN(l) (PT_GX(l) >= 0 && PT_GX(l) < nx && (DIMS == 2 || (PT_GY(l) >= 0 && PT_GY(l) < ny)))
#define PT_INTERIOR(l) (PT_GX(l) >= R && PT_GX(l) < nx - R && (DIMS == 2 || (PT_GY(l) >= R && PT_GY(l) < ny - R)))
#define PT_CORE(l) (PT_X(l) >= HALO && PT_X(l) < TW - HALO && (DIMS == 2 || (PT_Y(l) >= HALO && PT_Y(l) < TH - HALO)))
#if POINT_FORWARD
// Forward sums (the star's temporal.cuh, for any set of points): stage s keeps no planes but, per cell, the 2R+1
// sums of the output planes the arriving plane feeds. Plane t arrives in shared memory (two slots alternate, each of
// TEMPORAL_SYNC_ROWS planes, so one barrier per stage and slot), point_forward adds each point's product to the sum of
// the plane it serves, each in-plane operand loaded once, and plane t - R is complete; the sums shift. Each sum gets
// its points in the shape's order (the planes arrive along the marching axis, the shape's slowest), so every fused
// step is bitwise base's step. Shared memory: two slots of planes, not DEPTH rings of 2R+1; registers: DEPTH x CF x
// (2R+1) sums.
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk) {
    extern __shared__ unsigned char smem_raw[];
    T* planes = reinterpret_cast<T*>(smem_raw); // two slots of K planes of PW x PH; the R-wide border stays zero
    const int BX = BLK_X, BY = DIMS == 3 ? BLK_Y : 1, HALO = R * DEPTH;
    const int TW = DIMS == 3 ? BX : BX * CF, TH = DIMS == 3 ? BY * CF : 1;
    const int PW = TW + 2 * R, PH = DIMS == 3 ? TH + 2 * R : 1, plane_size = PW * PH, K = TEMPORAL_SYNC_ROWS;
    const int n_slow = DIMS == 3 ? nz : ny;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny), ss = DIMS == 3 ? sz : sy;
    const int x0 = int(blockIdx.x) * (TW - 2 * HALO) - HALO;
    const int y0 = DIMS == 3 ? int(blockIdx.y) * (TH - 2 * HALO) - HALO : 0;
    const int s_begin = lo + int(DIMS == 3 ? blockIdx.z : blockIdx.y) * chunk;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return; // the whole block: no barrier is skipped
    for (int c = int(threadIdx.x + threadIdx.y * BX); c < 2 * K * plane_size; c += BX * BY) planes[c] = T(0);
    __syncthreads();
    // Block-uniform (temporal.cuh's TEMPORAL_FAST): a tile inside the field loads without a per-cell test, and one
    // clear of the Dirichlet border takes every cell's sum on interior planes. In fp32 only: an A/B in one run on an
    // H200 (2026-11-28) gave fp32 +6 % (2d9pt), +17 % (3d27pt), +15 % (poisson) and fp64 -7 % on all three.
    constexpr bool fast = sizeof(T) == 4;
    const bool tile_in = fast && x0 >= 0 && x0 + TW <= nx && (DIMS == 2 || (y0 >= 0 && y0 + TH <= ny));
    const bool tile_interior = fast && x0 >= R && x0 + TW <= nx - R && (DIMS == 2 || (y0 >= R && y0 + TH <= ny - R));
    T acc[DEPTH][CF][2 * R + 1]; // acc[s-1][l][m]: stage s's sum of plane t - R + m while plane t arrives
#pragma unroll
    for (int s = 0; s < DEPTH; ++s)
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int m = 0; m < 2 * R + 1; ++m) acc[s][l][m] = T(0);
    auto input = [&](T(&dst)[CF], int p) {
#pragma unroll
        for (int l = 0; l < CF; ++l)
            dst[l] = p >= 0 && p < n_slow && (tile_in || PT_IN(l)) ? in[PT_GIDX(l) + idx_t(p) * ss] : T(0);
    };
    const int p_first = s_begin - HALO, p_end = s_end + HALO;
    // The planes travel in chunks of K (temporal.cuh): a stage stores a chunk, waits at one barrier, then takes its
    // planes one by one. A last chunk reaching past p_end computes those planes from whatever their input slots still
    // hold (no load past p_end); their results are never stored.
    T ahead[TEMPORAL_AHEAD][K][CF]; // input chunks in flight
#pragma unroll
    for (int a = 0; a < TEMPORAL_AHEAD; ++a)
#pragma unroll
        for (int j = 0; j < K; ++j) input(ahead[a][j], p_first + a * K + j < p_end ? p_first + a * K + j : -1);
    int parity = 0; // which shared slot the next stage writes
    // ss:mark plane loop
    for (int p0 = p_first; p0 < p_end; p0 += TEMPORAL_AHEAD * K) {
#pragma unroll
        for (int a = 0; a < TEMPORAL_AHEAD; ++a) { // unrolled so that ahead[a] is a fixed register
            const int pc = p0 + a * K; // the chunk's first plane
            if (pc >= p_end) break; // uniform across the block
            T v[K][CF]; // stage s-1's values of the planes entering stage s
#pragma unroll
            for (int j = 0; j < K; ++j) {
#pragma unroll
                for (int l = 0; l < CF; ++l) v[j][l] = ahead[a][j][l];
                const int pn = pc + j + TEMPORAL_AHEAD * K;
                if (pn < p_end) input(ahead[a][j], pn);
            }
            // ss:mark temporal stages
#pragma unroll
            for (int s = 1; s <= DEPTH; ++s) {
                T* slot = planes + parity * (K * plane_size);
#pragma unroll
                for (int j = 0; j < K; ++j)
#pragma unroll
                    for (int l = 0; l < CF; ++l) slot[j * plane_size + PT_SIDX(l)] = v[j][l];
                __syncthreads(); // the chunk is complete; and the other slot is no longer read
#pragma unroll
                for (int j = 0; j < K; ++j) {
                    const T* plane = slot + j * plane_size;
                    const int q = pc + j - s * R; // the plane stage s completes now
                    const bool q_in = q >= 0 && q < n_slow, q_interior = q >= R && q < n_slow - R;
#pragma unroll
                    for (int l = 0; l < CF; ++l) {
                        // The cell's own operand from v, as stored, in fp32 only: an A/B on an H200 (2026-11-28) gave
                        // fp32 +0.3 % (2d9pt) to +3.7 % (poisson), fp64 -7.5 % (2d9pt), where it loads from the plane.
                        point_forward(
                            plane, PT_SIDX(l), PW, sizeof(T) == 4 ? v[j][l] : plane[PT_SIDX(l)], acc[s - 1][l]);
                        const T done = acc[s - 1][l][0];
#pragma unroll
                        for (int m = 0; m < 2 * R; ++m) acc[s - 1][l][m] = acc[s - 1][l][m + 1];
                        acc[s - 1][l][2 * R] = T(0);
                        // The Dirichlet border keeps its value (read again from `in`, which no block writes); cells
                        // outside the field hold zero.
                        v[j][l] = q_interior && (tile_interior || PT_INTERIOR(l)) ? done
                            : q_in && (tile_in || PT_IN(l))                       ? in[PT_GIDX(l) + idx_t(q) * ss]
                                                                                  : T(0);
                    }
                }
                parity ^= 1;
            }
            // ss:end
#pragma unroll
            for (int j = 0; j < K; ++j) {
                const int q = pc + j - HALO; // stage DEPTH's plane
                if (q >= s_begin && q < s_end) {
#pragma unroll
                    for (int l = 0; l < CF; ++l)
                        if (PT_CORE(l) && (tile_interior || PT_INTERIOR(l))) out[PT_GIDX(l) + idx_t(q) * ss] = v[j][l];
                }
            }
        }
    }
    // ss:end
    (void)nz;
}
#else
// Tiles and streaming as in temporal.cuh (the star's): a block owns an overlapped tile of the fast plane (2D: BX * CF
// cells of a row, thread x owning x, x + BX, ...; 3D: BX x BY * CF cells, thread (x, y) owning rows y, y + BY, ...),
// streams it along the slow axis, and stage s (1..DEPTH) is one time step; only the tile's core, R * DEPTH cells in
// from each side, is written. Where the star keeps pending sums per cell, a point stencil may read any cell of the
// 2R+1 planes around its own, so each stage keeps the planes it reads: ring s-1 holds stage s-1's last 2R+1 planes
// (ring 0 the input), each tile plane with an R-wide border of zeros, and stage s sums plane q = p - s R from it with
// point_sum_ring, in the shape's order, so every fused step is bitwise base's step. The Dirichlet border keeps its
// input value at every stage (read again from `in`, which no block writes); cells outside the field hold zero.
extern "C" __global__ void BLOCK_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk) {
    extern __shared__ unsigned char smem_raw[];
    T* rings = reinterpret_cast<T*>(smem_raw); // DEPTH rings of 2R+1 planes of PW x PH
    const int BX = BLK_X, BY = DIMS == 3 ? BLK_Y : 1, HALO = R * DEPTH, NP = 2 * R + 1;
    const int TW = DIMS == 3 ? BX : BX * CF, TH = DIMS == 3 ? BY * CF : 1;
    const int PW = TW + 2 * R, PH = DIMS == 3 ? TH + 2 * R : 1, plane_size = PW * PH;
    const int n_slow = DIMS == 3 ? nz : ny;
    const idx_t sy = ROW_STRIDE(nx), sz = PLANE_STRIDE(nx, ny), ss = DIMS == 3 ? sz : sy;
    const int x0 = int(blockIdx.x) * (TW - 2 * HALO) - HALO;
    const int y0 = DIMS == 3 ? int(blockIdx.y) * (TH - 2 * HALO) - HALO : 0;
    const int s_begin = lo + int(DIMS == 3 ? blockIdx.z : blockIdx.y) * chunk;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return; // the whole block: no barrier is skipped
    // Zeros: the planes' borders stay so, and the slots the pipeline has not filled yet feed only cells never written.
    for (int c = int(threadIdx.x + threadIdx.y * BX); c < DEPTH * NP * plane_size; c += BX * BY) rings[c] = T(0);
    __syncthreads();
    int slot = 0; // the ring slot every stage writes now: the input's count mod 2R+1
    // The input planes travel TEMPORAL_AHEAD planes ahead of the one entering stage 1 (as in temporal.cuh), so their
    // loads' latency hides behind the stages of the planes before them.
    auto input = [&](T(&dst)[CF], int p) {
#pragma unroll
        for (int l = 0; l < CF; ++l) dst[l] = p >= 0 && p < n_slow && PT_IN(l) ? in[PT_GIDX(l) + idx_t(p) * ss] : T(0);
    };
    const int p_first = s_begin - HALO, p_end = s_end + HALO;
    T ahead[TEMPORAL_AHEAD][CF]; // input planes p .. p + TEMPORAL_AHEAD - 1, in flight
#pragma unroll
    for (int k = 0; k < TEMPORAL_AHEAD; ++k)
        if (p_first + k < p_end) input(ahead[k], p_first + k);
    // ss:mark plane loop
    for (int p0 = p_first; p0 < p_end; p0 += TEMPORAL_AHEAD) {
#pragma unroll
        for (int k = 0; k < TEMPORAL_AHEAD; ++k) { // unrolled so that ahead[k] is a fixed register
            const int p = p0 + k;
            if (p >= p_end) break; // uniform across the block
            T v[CF]; // the plane entering the next stage, the thread's cells
#pragma unroll
            for (int l = 0; l < CF; ++l) v[l] = ahead[k][l];
            if (p + TEMPORAL_AHEAD < p_end) input(ahead[k], p + TEMPORAL_AHEAD);
            int plane[2 * R + 1]; // the slots of planes q - R .. q + R of each ring: the oldest first
#pragma unroll
            for (int m = 0; m < 2 * R + 1; ++m) {
                const int at = slot + 1 + m;
                plane[m] = (at < NP ? at : at < 2 * NP ? at - NP : at - 2 * NP) * plane_size;
            }
            // ss:mark temporal stages
#pragma unroll
            for (int s = 1; s <= DEPTH; ++s) {
                T* ring = rings + (s - 1) * NP * plane_size;
#pragma unroll
                for (int l = 0; l < CF; ++l) ring[slot * plane_size + PT_SIDX(l)] = v[l];
                __syncthreads(); // the plane is whole before any cell reads its neighbours
                const int q = p - s * R; // the plane stage s completes now
                const bool q_in = q >= 0 && q < n_slow, q_interior = q >= R && q < n_slow - R;
#pragma unroll
                for (int l = 0; l < CF; ++l)
                    v[l] = q_interior && PT_INTERIOR(l) ? point_sum_ring(ring, plane, PT_SIDX(l), PW)
                        : q_in && PT_IN(l) ? in[PT_GIDX(l) + idx_t(q) * ss]
                                           : T(0);
            }
            // ss:end
            const int q = p - HALO; // stage DEPTH's plane
            if (q >= s_begin && q < s_end) {
#pragma unroll
                for (int l = 0; l < CF; ++l)
                    if (PT_CORE(l) && PT_INTERIOR(l)) out[PT_GIDX(l) + idx_t(q) * ss] = v[l];
            }
            __syncthreads(); // every stage has read its oldest plane: the next input overwrites its slot
            slot = slot + 1 == NP ? 0 : slot + 1;
        }
    }
    // ss:end
    (void)nz;
}
#endif // POINT_FORWARD
#undef PT_X
#undef PT_Y
#undef PT_GX
#undef PT_GY
#undef PT_SIDX
#undef PT_GIDX
#undef PT_IN
#undef PT_INTERIOR
#undef PT_CORE
#endif
