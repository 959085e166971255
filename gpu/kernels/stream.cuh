// SPDX-License-Identifier: MIT
// The stream variant's shared helpers, its 2D kernel and its 3D gathering kernel (R1), compiled at run time by
// NVRTC after star.cuh (its preamble, finish(), centre_term() and the remote-mode macros); the 3D forward kernels
// follow in stream_forward.cuh.
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
extern "C" __global__ void STREAM_BOUNDS SS_ENTRY(
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
    // ss:mark plane loop
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
    // ss:end
    wait_copies_all();
}
#elif !STREAM_FWD
// 3D: a block of BX x BY threads covers a tile of BX columns x H = BY * CF rows of the xy plane and marches
// along z. Each thread owns CF consecutive rows of one column (coarsening in y): the y neighbours of its
// CF cells overlap, so it reads 2R + CF tile values for them instead of 2R * CF, and the tile's halo is
// small next to its BX x H interior. Shared-memory bandwidth is what bounds large radii (4R reads per cell
// without this); the z neighbours stay in registers.
extern "C" __global__ void STREAM_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    const int BX = STREAM_BX, BY = STREAM_BY, H = BY * CF;
    const int px = BX + 2 * R, rows = H + 2 * R;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * H;
    const int s_begin = lo + blockIdx.z * chunk;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return;
    const idx_t ss = PLANE_STRIDE(nx, ny); // stride along the marching axis (the field's: nx, ny may be a window's)
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
    // ss:mark plane loop
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
    // ss:end
    wait_copies_all();
}
#endif
#endif // VARIANT == 3
