// SPDX-License-Identifier: MIT
// Temporal blocking (EBISU, seed 002: SM tiling, the choice it makes for 2D), compiled at run time by NVRTC
// after star.cuh (which supplies centre_term, weight and ss_inject). The preamble adds DEPTH (steps fused
// per launch), the layout knobs TEMPORAL_AHEAD, TEMPORAL_FAST, TEMPORAL_ADJACENT_ROWS and TEMPORAL_SYNC_ROWS, and
// once the block is chosen TBX, TBY (and TMINB when set).
//
// One launch advances the field by DEPTH steps. A block owns an overlapped tile of the fast plane (2D: a
// row segment of BX * CF cells, 3D: BX x BY * CF cells; thread (x, y) owns cells x + l * BX in 2D and rows
// y * CF + l in 3D) and streams it along the slow axis. Stage s (1..DEPTH) is one time step: it receives
// the planes of stage s-1 one by one and, R planes later, hands the finished plane to stage s+1; stage 0
// is the input from DRAM and stage DEPTH goes back to DRAM. So each cell is read and written once per
// DEPTH steps: EBISU's circular multi-queue with one queue per step, the queue's elements being planes.
// Like the forward 3D stream kernel, stage s keeps no plane values along the slow axis but 2R pending
// sums per cell: when plane t arrives with value v, its in-plane part goes into plane t's sum, weight(d) * v
// into the sums of planes t - R .. t + R, and plane t - R is complete. The in-plane neighbours come from
// a shared-memory copy of the plane: two slots alternate, each holding TEMPORAL_SYNC_ROWS planes (2D: rows), so
// one barrier per stage and slot suffices, and a thread works through the slot's planes between two barriers.
// The tile's outer R * DEPTH cells on each side are computed redundantly from incomplete neighbours and
// never written: after stage s only cells at least R * s from the tile's edge are valid, and the block
// writes its core. Cells outside the domain hold zeros; the Dirichlet border keeps its input value at
// every stage (read again from `in`, which no block writes).
// Each block streams `chunk` planes of the update range [lo, hi) from lo + blockIdx.(y|z) * chunk, plus
// R * DEPTH planes before and after them that only feed the pipeline.
#if VARIANT == 5

#ifdef TBX // specialised for its block: tile geometry and index arithmetic fold at compile time
#define TEMPORAL_BX TBX
#define TEMPORAL_BY TBY
#ifdef TMINB
#define TEMPORAL_BOUNDS __launch_bounds__(TBX* TBY, TMINB)
#else
#define TEMPORAL_BOUNDS __launch_bounds__(TBX* TBY)
#endif
#else
#define TEMPORAL_BX int(blockDim.x)
#define TEMPORAL_BY int(blockDim.y)
#define TEMPORAL_BOUNDS
#endif
#ifndef TEMPORAL_AHEAD
#define TEMPORAL_AHEAD 1 // input planes loaded ahead of the one entering stage 1 (temporal_loads_ahead)
#endif
#ifndef TEMPORAL_FAST
#define TEMPORAL_FAST 1 // tiles clear of the Dirichlet border skip its per-cell test
#endif
#ifndef TEMPORAL_ADJACENT_ROWS
#define TEMPORAL_ADJACENT_ROWS 1 // 3D: a thread owns CF adjacent rows (else rows BY apart)
#endif
#ifndef TEMPORAL_SYNC_ROWS
#define TEMPORAL_SYNC_ROWS 1 // planes (2D: rows) a stage takes between two barriers (temporal_sync_rows)
#endif
// A point stencil run as a star (gpu/plan/axis_star_plan.h) weighs each direction's points with its own
// weight_xm/xp/ym/yp/zm/zp(d): AXIS_WEIGHTS 1 where both sides of an axis weigh the same (the pair is added first,
// as the star's), 2 where they differ. The star's one weight(d) serves every direction otherwise.
#ifndef AXIS_WEIGHTS
#define AXIS_WEIGHTS 0
#endif
#if AXIS_WEIGHTS && DIMS == 3
#define WEIGHT_SLOW_MINUS(d) weight_zm(d)
#define WEIGHT_SLOW_PLUS(d) weight_zp(d)
#elif AXIS_WEIGHTS
#define WEIGHT_SLOW_MINUS(d) weight_ym(d)
#define WEIGHT_SLOW_PLUS(d) weight_yp(d)
#else
#define WEIGHT_SLOW_MINUS(d) weight(d)
#define WEIGHT_SLOW_PLUS(d) weight(d)
#endif
// acc + w * x, the FMA spelled out (star.cuh's fma_rn), and w * x rounded on its own. Products several sums share (the
// same weight on both sides of an axis, the slow axis' weights mirrored about a pending plane) ptxas fuses into some
// sums and not others, differently for texts compiled for other extents (a strip's) or taking more planes per
// barrier, which then differ from one GPU's in the last bit.
#define WEIGHED_ADD(acc, w, x) fma_rn((w), (x), (acc))
#define WEIGHED(w, x) product_rn((w), (x))

extern "C" __global__ void TEMPORAL_BOUNDS SS_ENTRY(
    const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo, int hi, int chunk) {
    // The field's extent comes as the constants SNX, SNY (the source is compiled per domain size: index arithmetic
    // folds into immediates and takes no registers); nx and ny are the same numbers.
    extern __shared__ unsigned char smem_raw[];
    const int BX = TEMPORAL_BX, BY = DIMS == 3 ? TEMPORAL_BY : 1;
    const int HALO = R * DEPTH;
#if DIMS == 3
    const int TW = BX, TH = BY * CF, PW = TW + 2 * R, PH = TH + 2 * R, n_slow = nz;
    const idx_t ss = idx_t(SNX) * SNY; // stride along the streaming axis
    const int y0 = int(blockIdx.y) * (TH - 2 * HALO) - HALO;
    const int s_begin = lo + int(blockIdx.z) * chunk;
#else
    const int TW = BX * CF, TH = 1, PW = TW + 2 * R, PH = 1, n_slow = SNY;
    const idx_t ss = SNX;
    const int y0 = 0;
    const int s_begin = lo + int(blockIdx.y) * chunk;
#endif
    const int x0 = int(blockIdx.x) * (TW - 2 * HALO) - HALO;
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return; // the whole block: no barrier is skipped
    const int plane_size = PW * PH, K = TEMPORAL_SYNC_ROWS;
    T* planes = reinterpret_cast<T*>(smem_raw); // two slots of K planes of PW x PH; the R-wide border stays zero
    const int tid = threadIdx.x + threadIdx.y * BX;
    for (int i = tid; i < 2 * K * plane_size; i += BX * BY) planes[i] = T(0);
    __syncthreads();

#if DIMS == 3 && TEMPORAL_ADJACENT_ROWS // cell l of a thread: x = X0 + l * XSTEP, y = Y0 + l * YSTEP in the tile
    const int X0 = threadIdx.x, Y0 = threadIdx.y * CF, XSTEP = 0, YSTEP = 1; // inner y neighbours from registers
#elif DIMS == 3
    const int X0 = threadIdx.x, Y0 = threadIdx.y, XSTEP = 0, YSTEP = BY;
#else
    const int X0 = threadIdx.x, Y0 = 0, XSTEP = BX, YSTEP = 0;
#endif
    // Per-cell figures from the thread's first cell plus compile-time steps: no per-cell arrays (registers
    // decide the occupancy, and occupancy the speed: docs/PERFORMANCE.md).
    const int gx0 = x0 + X0, gy0 = y0 + Y0;
    const int sidx0 = (DIMS == 3 ? (Y0 + R) * PW : 0) + X0 + R;
    const idx_t gidx0 = gx0 + (DIMS == 3 ? idx_t(gy0) * SNX : idx_t(0)); // outside the field for some cells: only
                                                                         // used where the cell is in
#define CELL_GX(l) (gx0 + (l)*XSTEP)
#define CELL_GY(l) (gy0 + (l)*YSTEP)
#define CELL_X(l) (X0 + (l)*XSTEP)
#define CELL_Y(l) (Y0 + (l)*YSTEP)
#define SIDX(l) (sidx0 + (l) * (XSTEP + YSTEP * PW))
#define GIDX(l) (gidx0 + idx_t((l) * (XSTEP + YSTEP * SNX)))
#define CELL_IN(l) (CELL_GX(l) >= 0 && CELL_GX(l) < SNX && (DIMS == 2 || (CELL_GY(l) >= 0 && CELL_GY(l) < SNY)))
#define CELL_INTERIOR(l)                                                                                               \
    (CELL_GX(l) >= R && CELL_GX(l) < SNX - R && (DIMS == 2 || (CELL_GY(l) >= R && CELL_GY(l) < SNY - R)))
#define CELL_CORE(l)                                                                                                   \
    (CELL_X(l) >= HALO && CELL_X(l) < TW - HALO && (DIMS == 2 || (CELL_Y(l) >= HALO && CELL_Y(l) < TH - HALO)))
    // The whole tile inside the field: its loads need no per-cell test.
    const bool tile_in = x0 >= 0 && x0 + TW <= SNX && (DIMS == 2 || (y0 >= 0 && y0 + TH <= SNY));
    // A tile clear of the border: on interior planes every cell takes the update (block-uniform).
    const bool tile_interior = x0 >= R && x0 + TW <= SNX - R && (DIMS == 2 || (y0 >= R && y0 + TH <= SNY - R));

    T acc[DEPTH][CF][2 * R]; // acc[s-1][l][m]: stage s's pending sum of plane t - R + m (t: its newest input)
#pragma unroll
    for (int s = 0; s < DEPTH; ++s)
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int m = 0; m < 2 * R; ++m) acc[s][l][m] = T(0);

    const int p_first = s_begin - HALO, p_end = s_end + HALO; // input planes, some outside the field
    // The planes travel in chunks of K: a stage stores a chunk's K planes, waits at one barrier, then takes them one
    // by one (in 2D a plane is a row, and K rows share a barrier). A last chunk reaching past p_end computes planes
    // of zeros whose results are never stored.
    T ring[TEMPORAL_AHEAD][K][CF]; // input chunks from pc .. in flight, TEMPORAL_AHEAD of them
#pragma unroll
    for (int k = 0; k < TEMPORAL_AHEAD; ++k)
#pragma unroll
        for (int j = 0; j < K; ++j)
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const int p = p_first + k * K + j;
                ring[k][j][l]
                    = p < p_end && p >= 0 && p < n_slow && (tile_in || CELL_IN(l)) ? in[GIDX(l) + idx_t(p) * ss] : T(0);
            }

    int parity = 0; // which shared slot the next stage writes
    // ss:mark plane loop
    for (int p0 = p_first; p0 < p_end; p0 += TEMPORAL_AHEAD * K) {
#pragma unroll
        for (int k = 0; k < TEMPORAL_AHEAD; ++k) { // unrolled so that ring[k] is a fixed register
            const int pc = p0 + k * K; // the chunk's first plane
            if (pc >= p_end) break; // uniform across the block
            T v[K][CF]; // stage s-1's values of the planes entering stage s
#pragma unroll
            for (int j = 0; j < K; ++j)
#pragma unroll
                for (int l = 0; l < CF; ++l) {
                    v[j][l] = ring[k][j][l];
                    const int pn = pc + j + TEMPORAL_AHEAD * K;
                    ring[k][j][l] = pn < p_end && pn >= 0 && pn < n_slow && (tile_in || CELL_IN(l))
                        ? in[GIDX(l) + idx_t(pn) * ss]
                        : T(0);
                }
                // ss:mark temporal stages
#pragma unroll
            for (int s = 1; s <= DEPTH; ++s) {
                T* slot = planes + parity * (K * plane_size);
#pragma unroll
                for (int j = 0; j < K; ++j)
#pragma unroll
                    for (int l = 0; l < CF; ++l) slot[j * plane_size + SIDX(l)] = v[j][l];
                __syncthreads(); // the chunk is complete; and the other slot is no longer read
#pragma unroll
                for (int j = 0; j < K; ++j) {
                    const T* plane = slot + j * plane_size;
                    T(&vj)[CF] = v[j];
                    const int q = pc + j - s * R; // the plane stage s completes now
                    const bool q_in = q >= 0 && q < n_slow, q_interior = q >= R && q < n_slow - R;
                    T next[CF]; // v stays stage s-1's until every cell has read its y neighbours (3D)
#pragma unroll
                    for (int l = 0; l < CF; ++l) {
                        const int c = SIDX(l);
                        T sum = acc[s - 1][l][R] + centre_term(vj[l]);
#pragma unroll
                        for (int d = 1; d <= R; ++d) {
#if AXIS_WEIGHTS
                            const T x_low = plane[c - d], x_high = plane[c + d];
#if DIMS == 3 && TEMPORAL_ADJACENT_ROWS
                            const T y_low = l - d >= 0 ? vj[l - d >= 0 ? l - d : 0] : plane[c - d * PW];
                            const T y_high = l + d < CF ? vj[l + d < CF ? l + d : 0] : plane[c + d * PW];
#elif DIMS == 3
                            const T y_low = plane[c - d * PW], y_high = plane[c + d * PW];
#endif
#if AXIS_WEIGHTS == 2
                            sum = WEIGHED_ADD(sum, weight_xm(d), x_low);
                            sum = WEIGHED_ADD(sum, weight_xp(d), x_high);
#if DIMS == 3
                            sum = WEIGHED_ADD(sum, weight_ym(d), y_low);
                            sum = WEIGHED_ADD(sum, weight_yp(d), y_high);
#endif
#else
                            sum = WEIGHED_ADD(sum, weight_xm(d), x_low + x_high);
#if DIMS == 3
                            sum = WEIGHED_ADD(sum, weight_ym(d), y_low + y_high);
#endif
#endif
#else // the star: every pair at distance d weighs weight(d)
                            T pair = plane[c - d] + plane[c + d];
#if DIMS == 3 && TEMPORAL_ADJACENT_ROWS
                            pair += (l - d >= 0 ? vj[l - d >= 0 ? l - d : 0] : plane[c - d * PW])
                                + (l + d < CF ? vj[l + d < CF ? l + d : 0] : plane[c + d * PW]);
#elif DIMS == 3
                            pair += plane[c - d * PW] + plane[c + d * PW];
#endif
                            sum = WEIGHED_ADD(sum, weight(d), pair);
#endif
                        }
                        // Plane t - R completes with this plane R above it (the point at +R along the slow axis).
                        const T done = WEIGHED_ADD(acc[s - 1][l][0], WEIGHT_SLOW_PLUS(R), vj[l]);
                        // Moving on to the next plane: pending sum m takes sum m + 1 plus this plane's share, weighed
                        // by where this plane lies from the pending one's (above it: plus; below: minus).
#pragma unroll
                        for (int m = 0; m + 1 < 2 * R; ++m)
                            acc[s - 1][l][m] = m + 1 == R
                                ? sum
                                : WEIGHED_ADD(acc[s - 1][l][m + 1],
                                    m + 1 > R ? WEIGHT_SLOW_MINUS(m + 1 - R) : WEIGHT_SLOW_PLUS(R - m - 1), vj[l]);
                        acc[s - 1][l][2 * R - 1] = WEIGHED(WEIGHT_SLOW_MINUS(R), vj[l]);
                        next[l] = done;
                    }
#if TEMPORAL_FAST
                    if (!(tile_interior && q_interior))
#endif
                    { // the Dirichlet border keeps its value; cells outside the field hold zero
#pragma unroll
                        for (int l = 0; l < CF; ++l)
                            if (!(q_interior && CELL_INTERIOR(l)))
                                next[l] = q_in && CELL_IN(l) ? in[GIDX(l) + idx_t(q) * ss] : T(0);
                    }
#pragma unroll
                    for (int l = 0; l < CF; ++l) vj[l] = next[l];
                }
                parity ^= 1;
            }
            // ss:end
#pragma unroll
            for (int j = 0; j < K; ++j) {
                const int q = pc + j - HALO; // stage DEPTH's plane: DEPTH steps after the input
                if (q >= s_begin && q < s_end) {
#pragma unroll
                    for (int l = 0; l < CF; ++l)
                        if (CELL_CORE(l) && (tile_interior || CELL_INTERIOR(l))) out[GIDX(l) + idx_t(q) * ss] = v[j][l];
                }
            }
        }
    }
    // ss:end
}
#undef CELL_GX
#undef CELL_GY
#undef CELL_X
#undef CELL_Y
#undef SIDX
#undef GIDX
#undef CELL_IN
#undef CELL_INTERIOR
#undef CELL_CORE
#undef WEIGHT_SLOW_MINUS
#undef WEIGHT_SLOW_PLUS
#undef WEIGHED_ADD
#undef WEIGHED
#endif
