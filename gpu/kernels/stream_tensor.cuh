// SPDX-License-Identifier: MIT
// The fp64 tensor-core part of the 3D forward stream kernel (STREAM_TC, chosen by the host: stream_layout in
// gpu/plan/launch_policy.h), compiled at run time by NVRTC before stream_forward.cuh, which uses it.
//
// A plane's x and y parts are band matrix products. For a warp's 8 x 8 cells (rows y, columns x) and the K = 8 + 2R
// tile columns (rows) k of their x (y) neighbourhood:
//   x part  D[y][x] = sum_k IN[y][k] * B[k][x],  B[k][x] = weight(|k - R - x|), 0 for the centre and beyond R
//   y part  E[y][x] = sum_k A[y][k] * IN[k][x],  A[y][k] = weight(|k - R - y|), the same band
// Each is K / 4 steps of mma.m8n8k4 in fp64 (DMMA): the H100's fp64 tensor cores do twice the FMAs of its fp64 pipe,
// and one instruction does 256 of them (8 x 8 outputs x 4 taps). In that instruction's fragments a lane holds
// A[lane / 4][lane % 4], B[lane % 4][lane / 4] and D[lane / 4][2 (lane % 4) + i]: the band's fragment is one value
// per step, the same for both parts, and the thread's two cells are adjacent in x (XB = 2, CF = 1).
// The products of zero band weights are exact zeros for finite values, so a cell's sum does not depend on them; its
// grouping into steps of 4 taps follows its column (row) mod 4 from the tile's origin, which the host keeps aligned
// to the domain's (strip_cut_unit). A NaN or infinity in the input reaches the 8 x 8 cells around it (0 x inf).
#if VARIANT == 3 && DIMS == 3 && STREAM_FWD && STREAM_TC
#define TC_K (8 + 2 * R) // band columns per 8 outputs (R even: a multiple of 4)
#define TC_STEPS (TC_K / 4)
static_assert(sizeof(T) == 8 && R % 2 == 0, "the tensor-core stream kernel is fp64 with an even radius");

// D = A B + D for one 8 x 8 x 4 step, the fragments as above. Before sm_80 (no DMMA) the same sums by shuffles.
__device__ __forceinline__ void mma_8x8x4(T& d0, T& d1, T a, T b) {
#if __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d0), "+d"(d1)
        : "d"(a), "d"(b));
#else
    const int lane = threadIdx.x & 31, row = lane >> 2, col = 2 * (lane & 3);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const T ak = __shfl_sync(0xffffffffu, a, row * 4 + k);
        const T b0 = __shfl_sync(0xffffffffu, b, col * 4 + k), b1 = __shfl_sync(0xffffffffu, b, col * 4 + 4 + k);
        d0 = __fma_rn(ak, b0, d0), d1 = __fma_rn(ak, b1, d1);
    }
#endif
}

// The lane's band value for each step: weight(|4 s + lane % 4 - R - lane / 4|), 0 at the centre and beyond R.
// Loaded from a table (32 x TC_STEPS after the tile ring; dynamic_smem_bytes counts it) that the first warp fills:
// computed in place, ptxas rematerialised the values in every plane (three instructions a step instead of a
// register), and the loop ran 17 % more instructions (8x32 R16: 45.7 against 42.6 % of the roofline with the table,
// H100).
__device__ __forceinline__ void band_fragment(T (&w)[TC_STEPS], T* table, int lane, bool first_warp) {
    if (first_warp)
#pragma unroll
        for (int s = 0; s < TC_STEPS; ++s) {
            const int d = 4 * s + (lane & 3) - R - (lane >> 2), dist = d < 0 ? -d : d;
            table[s * 32 + lane] = dist >= 1 && dist <= R ? weight(dist) : T(0);
        }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < TC_STEPS; ++s) w[s] = table[s * 32 + lane];
}

// The x and y parts of the warp's cells: `ax` is the lane's x operand at step 0 (tile row of its cells' row, first
// band column + lane % 4), `by` its y operand (first band row + lane % 4, its column lane / 4). Two independent
// chains (x into d, y into e) halve the DMMA latency each plane waits for (four chains measured no faster).
__device__ __forceinline__ void tc_xy_part(
    const T* ax, const T* by, int px, const T (&w)[TC_STEPS], T& d0, T& d1, T& e0, T& e1) {
#pragma unroll
    for (int s = 0; s < TC_STEPS; ++s) {
        mma_8x8x4(d0, d1, ax[4 * s], w[s]);
        mma_8x8x4(e0, e1, w[s], by[4 * s * px]);
    }
}
#endif
