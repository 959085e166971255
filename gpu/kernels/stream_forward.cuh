// SPDX-License-Identifier: MIT
// The stream variant's 3D forward-accumulating kernels, one role and two, compiled at run time by NVRTC after
// star.cuh and stream.cuh (whose copy and barrier helpers they use).
#if VARIANT == 3 && DIMS == 3 && STREAM_FWD
// 3D, forward-accumulating (chosen by the host from R2 on, see stream_layout in launch_policy.h).
// A block of BX x BY threads covers a tile of W = BX * XB columns x H = BY / ROLES * CF rows; each thread owns XB
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

// LEAN_ADDR (the host's stream_lean_addresses): the copy destination and the store offset of a plane are computed
// once, behind an opaque move (of the offset, not the pointer: stores stay st.global), and rows are stored at the
// compile-time row stride (immediate offsets). Without it NVVM sinks their computation into every predicated copy and
// store (7 instructions per copy at fp64 R16 CF 2).
#ifndef STREAM_TC
#define STREAM_TC 0
#endif
#ifndef LEAN_ADDR
#define LEAN_ADDR 0
#endif
// An opaque copy: NVVM computes the value here, once, and cannot sink its computation into each predicated use.
template <typename V> __device__ __forceinline__ V computed_once(V v) {
    if constexpr (sizeof(V) == 8)
        asm volatile("mov.b64 %0, %0;" : "+l"(v));
    else
        asm volatile("mov.b32 %0, %0;" : "+r"(v));
    return v;
}
#if LEAN_ADDR
#define LEAN_ONCE(v) computed_once(v)
#define LEAN_NX ROW_STRIDE(nx)
#else
#define LEAN_ONCE(v) (v)
#define LEAN_NX nx
#endif

#if ROLES == 2
// The two roles reach the plane's barrier from their own loops. __syncthreads() is an aligned barrier, which
// every thread must reach at the same instruction (compute-sanitizer's synccheck reports "divergent threads"
// otherwise); barrier.sync without .aligned may be reached from different code as long as every thread arrives,
// with the same memory ordering.
__device__ __forceinline__ void role_barrier() {
    asm volatile("barrier.sync 0;\n" ::: "memory");
}
#endif

// Two roles (ROLES == 2; chosen by the host where one role's 2R pending sums per cell would spill or, at R16, crowd
// the registers, see stream_layout; STENCILSCOPE_STREAM_FWD=2 forces it). The
// block's lower half of thread rows (the past role) and its upper half (the future role) own the same XB x CF cells per
// thread, and each keeps R pending sums per cell instead of 2R, so twice the warps hold the same cells in flight:
//   past:   the z terms of planes o - R .. o - 1, then the centre and the x part of plane o; hands the sum over
//           through shared memory (two slots, by plane parity, so the plane's barrier orders them);
//   future: the y part of plane o, then (one plane later) the handed-over sum plus y, the z terms of planes
//           o + 1 .. o + R, and the store.
// Every cell adds its terms in that order, wherever its block or strip starts. The tile copy is the forward
// kernel's, by the past role's threads.
extern "C" __global__ void STREAM_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk REMOTE_PARAMS) {
    extern __shared__ unsigned char smem_raw[];
    // GY thread rows own the tile's cells, CF rows each; with two roles both halves of the block own the same ones.
    const int BX = STREAM_BX, BY = STREAM_BY, GY = BY / ROLES, W = BX * XB, H = GY * CF;
    // Tile columns: OFF (R rounded up to XB) left of the interior, so that every thread's columns start on
    // an XB-aligned vector; only R of them (and R on the right) are halo.
    // With tensor cores the row pitch is 4 mod 16 cells: both DMMA operands then load without bank conflicts (the
    // host's stream_row_pitch sizes the shared memory with the same formula).
    const int OFF = (R + XB - 1) / XB * XB, px = W + 2 * OFF + (STREAM_TC ? (20 - (W + 2 * OFF) % 16) % 16 : 0),
              rows = H + 2 * R, tile_size = rows * px;
    const int x0 = blockIdx.x * W, y0 = blockIdx.y * H;
    const int s_begin = lo + blockIdx.z * chunk;
    const int s_end = min(s_begin + chunk, hi), t_end = s_end + R;
    if (s_begin >= s_end) return;
    const idx_t ss = PLANE_STRIDE(nx, ny); // stride along the marching axis (the field's: nx, ny may be a window's)
    const int tx = threadIdx.x, ty = threadIdx.y, role = ROLES == 2 ? ty / GY : 0;
#if STREAM_TC // each warp owns 8 x 8 cells, a lane two of them as in mma's accumulator (stream_tensor.cuh)
    const int lane = (ty * BX + tx) & 31, warp = (ty * BX + tx) >> 5;
    const int tile_x = 8 * (warp % (W / 8)), tile_y = 8 * (warp / (W / 8));
    const int cx = tile_x + 2 * (lane & 3), row0 = tile_y + (lane >> 2);
#else
    const int cx = XB * tx,
              row0 = CF * (ty - role * GY); // the thread's first x-window column (own columns: OFF + cx ..) and row
#endif
    T* tiles = reinterpret_cast<T*>(smem_raw); // PIPE + 1 planes of rows x px (two roles: then two handover slots)
#if ROLES == 2
    T* handover = tiles + (PIPE + 1) * tile_size + row0 * W + cx; // slot 0 of the thread's first cell
#endif

    // Copy map: thread (tx, ty) copies the tile items (ty + kr * CY, tx + kc * BX) of CV cells each that lie in the
    // domain and in the x or y halo or the interior (no corners); planes outside [s_begin, s_end) need only the
    // interior. The first 64 items' answers are bits of `full` and `inner`.
    // Copying thread rows CY: with two roles the roles wait for each other at every plane's barrier, and the future
    // role has more to do per cell (the stores and their addresses), so only the past role's GY thread rows copy
    // where that takes each of them at most 8 copies per plane; past that, all rows copy (measured on the H100 at
    // R8 and R16, fp32 and fp64: fp32 R16 CF 2 16x16 41.8 against 39.2 %, 32x8 CF 4 36.7 against 39.8 %).
    constexpr int CV = STREAM_CV; // cells per copy
    const int KC = (px / CV + BX - 1) / BX, KR_PAST = (rows + GY - 1) / GY; // (compile-time with SBX)
    const int CY = ROLES == 2 && KR_PAST * KC <= 8 ? GY : BY, KR = (rows + CY - 1) / CY;
    auto item_ok = [&](int kr, int kc, bool interior_only) {
        const int row = ty + kr * CY, c = (tx + kc * BX) * CV, gy = y0 - R + row, gx = x0 - OFF + c;
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
    const idx_t row_step = idx_t(CY) * nx;
    auto fetch = [&](int plane, int buffer) {
        if (plane < t_end) {
            const bool interior_only = plane < s_begin || plane >= s_end;
            const unsigned long long m = interior_only ? inner : full;
            const unsigned dst = LEAN_ONCE(unsigned(smem_base + buffer * tile_size * sizeof(T)));
#if REMOTE && SPLIT != 2 // the strips are boxes in the plane: each item's cell chooses its source
            const idx_t first = idx_t(plane) * ss + src0;
#pragma unroll
            for (int kr = 0; kr < KR; ++kr)
#pragma unroll
                for (int kc = 0; kc < KC; ++kc) {
                    const int bit = kr * KC + kc;
                    if (bit < 64 ? (m >> bit & 1) != 0 : item_ok(kr, kc, interior_only))
                        copy_async_to(dst + (kr * CY * px + kc * BX) * sizeof(T),
                            CELL_SRC(x0 - OFF + tx + kc * BX, y0 - R + ty + kr * CY, plane)
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
                            copy_async_chunk(dst + (kr * CY * px + kc * BX * CV) * sizeof(T), src + kc * BX * CV);
                        else
                            copy_async_to(dst + (kr * CY * px + kc * BX) * sizeof(T), src + kc * BX);
                    }
                }
#endif
        }
        commit_copies(); // an empty group past the end keeps the group count uniform
    };

#if ROLES != 2
    T acc[CF][XB][2 * R]; // acc[l][e][m]: pending sum of plane t - R + m, cell (row0 + l, OFF + cx + e)
#endif
    bool cell_interior[CF][XB];
    const idx_t col0 = x0 + cx + idx_t(y0 + row0) * nx; // the thread's first cell in a plane
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int j = y0 + row0 + l;
#pragma unroll
        for (int e = 0; e < XB; ++e) {
            const int i = x0 + cx + e;
            cell_interior[l][e] = i >= R && i < nx - R && j >= R && j < ny - R;
#if ROLES != 2
#pragma unroll
            for (int m = 0; m < 2 * R; ++m) acc[l][e][m] = T(0);
#endif
        }
    }
#if STREAM_TC
    // The band products read every cell of a tile row (column) window, weight 0 or not: cells the copies never
    // write (outside the domain) must hold finite values, zeros.
    for (int i = ty * BX + tx; i < (PIPE + 1) * tile_size; i += BX * BY) tiles[i] = T(0);
    __syncthreads();
    T band[TC_STEPS];
    band_fragment(band, tiles + (PIPE + 1) * tile_size, lane, warp == 0);
    const int ax_offset = (R + tile_y + (lane >> 2)) * px + OFF - R + tile_x + (lane & 3),
              by_offset = (tile_y + (lane & 3)) * px + OFF + tile_x + (lane >> 2);
#endif
    if (ty < CY)
#pragma unroll
        for (int p = 0; p < PIPE; ++p) fetch(s_begin - R + p, p);
#if ROLES == 2
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
            role_barrier();
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
            if (CY == BY) wait_copies_but_newest();
            role_barrier(); // ... plane t has landed; this also orders the past role's handover of plane t - 1
            if (CY == BY) fetch(t + PIPE, buffer == 0 ? PIPE : buffer - 1);
            T v[CF][XB];
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + OFF);
#pragma unroll
                for (int e = 0; e < XB; ++e) v[l][e] = a.v[e];
            }
            // Plane t - R is complete: store it.
            T* o = out + LEAN_ONCE(idx_t(t - R) * ss + col0);
            const bool emit = t - R >= s_begin && t - R < s_end;
#pragma unroll
            for (int l = 0; l < CF; ++l) {
#pragma unroll
                for (int e = 0; e < XB; ++e) {
                    const T done = fma_rn(weight(R), v[l][e], future[l][e][R - 2]);
                    if (emit && cell_interior[l][e]) finish(o, l * LEAN_NX + e, done);
                }
            }
            // Plane t - 1 - i is the neighbour at distance i + 1 of plane t: future i = future i - 1 + w * v. The
            // newest sum (plane t - 1: the handed-over sum plus its y part, then plane t at distance 1) is formed in
            // place afterwards: formed before the shift, it took a register of its own and ptxas rotated the whole
            // array with MOVs every plane (~12 per cell at R16 CF 4, 8 cells per thread).
#pragma unroll
            for (int l = 0; l < CF; ++l)
#pragma unroll
                for (int e = 0; e < XB; ++e)
#pragma unroll
                    for (int i = R - 2; i >= 1; --i)
                        future[l][e][i] = fma_rn(weight(i + 1), v[l][e], future[l][e][i - 1]);
            const bool formed = t - 1 >= s_begin && t - 1 < s_end;
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                xvec h;
                if (formed) h = *reinterpret_cast<const xvec*>(handover + ((t - 1) & 1) * W * H + l * W);
#pragma unroll
                for (int e = 0; e < XB; ++e)
                    future[l][e][0] = fma_rn(weight(1), v[l][e], formed ? h.v[e] + y_part[l][e] : T(0));
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
#else // one role: each thread keeps the 2R pending sums of its cells
    int buffer = 0; // tile of plane t: (t - s_begin + R) mod (PIPE + 1)
    // ss:mark plane loop
    for (int t = s_begin - R; t < t_end; ++t) {
        const T* tile = tiles + buffer * tile_size + (R + row0) * px + cx; // the thread's window, first row
        wait_copies_but_newest(); // this plane has landed
        __syncthreads(); // ... for every thread; and plane t-1's tile is free again
        fetch(t + PIPE, buffer == 0 ? PIPE : buffer - 1);
        T v[CF][XB]; // the thread's own values of plane t
        T sum[CF][XB]; // plane t's pending sums with its x and y parts
        if (t >= s_begin && t < s_end) { // plane t is updated: its x and y neighbours
#if STREAM_TC
            const xvec own = *reinterpret_cast<const xvec*>(tile + OFF);
            T d[2], e[2] = { T(0), T(0) };
#pragma unroll
            for (int c = 0; c < 2; ++c) v[0][c] = own.v[c], d[c] = acc[0][c][R] + centre_term(own.v[c]);
            const T* plane = tiles + buffer * tile_size;
            tc_xy_part(plane + ax_offset, plane + by_offset, px, band, d[0], d[1], e[0], e[1]);
#pragma unroll
            for (int c = 0; c < 2; ++c) sum[0][c] = d[c] + e[c];
#else
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
#endif
        } else { // a plane before or after the updated ones: only its values, for the z sums
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const xvec a = *reinterpret_cast<const xvec*>(tile + l * px + OFF);
#pragma unroll
                for (int e = 0; e < XB; ++e) v[l][e] = a.v[e], sum[l][e] = acc[l][e][R];
            }
        }
        // Plane t - R is complete: store it first (fewer registers live across the stores than interleaving).
        T* o = out + LEAN_ONCE(idx_t(t - R) * ss + col0);
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
                if (emit && cell_interior[l][e]) finish(o, l * LEAN_NX + e, done[l][e]);
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
    // ss:end
#endif // ROLES
    wait_copies_all();
}
#endif // VARIANT == 3 && DIMS == 3 && STREAM_FWD
