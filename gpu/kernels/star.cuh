// SPDX-License-Identifier: MIT
// Star stencil kernels, compiled at run time by NVRTC. The generated preamble defines:
//   T (float|double), idx_t, R (radius), CF (coarsening in x), DIMS (2|3), VARIANT (0 base, 1 smem,
//   2 smem_padded, 3 stream), RULE_WAVE, HAS_CENTRE, W_CENTRE and weight(d).
// Update: out = W_CENTRE*u + sum_d weight(d) * (sum of the 2*DIMS neighbours at distance d)
//         [- out (= u(t-1)) for the wave]. Cells within R of the border are never written (Dirichlet).
// Thesis listings 3.1-3.14 use this structure; the slow axis (y in 2D, z in 3D) is updated in [lo, hi)
// so that a multi-GPU strip can compute its own rows.

#define SLOW_STRIDE(nx, ny) (DIMS == 3 ? idx_t(nx) * idx_t(ny) : idx_t(nx))

__device__ __forceinline__ void finish(T* __restrict__ out, idx_t idx, T acc)
{
#if RULE_WAVE
    out[idx] = acc - out[idx];
#else
    out[idx] = acc;
#endif
}

__device__ __forceinline__ bool interior(int i, int j, int k, int nx, int ny, int lo, int hi)
{
#if DIMS == 3
    return i >= R && i < nx - R && j >= R && j < ny - R && k >= lo && k < hi;
#else
    return i >= R && i < nx - R && j >= lo && j < hi;
#endif
}

__device__ __forceinline__ T centre_term(T c)
{
#if HAS_CENTRE
    return W_CENTRE * c;
#else
    return T(0);
#endif
}

#if VARIANT == 0 // base (listings 3.1-3.4): every operand from global memory
extern "C" __global__ void ss_star(const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo,
    int hi, int chunk)
{
    const int i0 = threadIdx.x + blockIdx.x * blockDim.x * CF;
    const int j = threadIdx.y + blockIdx.y * blockDim.y;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * blockDim.z : 0;
    const idx_t sy = nx, sz = idx_t(nx) * ny;
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * blockDim.x;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        T acc = centre_term(in[idx]);
#pragma unroll
        for (int d = 1; d <= R; ++d) {
            T pair = in[idx - d] + in[idx + d] + in[idx - d * sy] + in[idx + d * sy];
#if DIMS == 3
            pair += in[idx - d * sz] + in[idx + d * sz];
#endif
            acc += weight(d) * pair;
        }
        finish(out, idx, acc);
    }
}
#endif

#if VARIANT == 1 // smem, the hybrid (listings 3.5-3.9): a block-sized tile, halo operands from global
extern "C" __global__ void ss_star(const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo,
    int hi, int chunk)
{
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    const int W = blockDim.x * CF, BY = blockDim.y, BZ = DIMS == 3 ? blockDim.z : 1;
    const int i0 = threadIdx.x + blockIdx.x * blockDim.x * CF;
    const int j = threadIdx.y + blockIdx.y * blockDim.y;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * blockDim.z : 0;
    const int ty = threadIdx.y, tz = DIMS == 3 ? threadIdx.z : 0;
    const idx_t sy = nx, sz = idx_t(nx) * ny;
    const int tsy = W, tsz = W * BY;
    const bool in_domain_yz = j < ny && (DIMS == 2 || k < nz);
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * blockDim.x;
        const int s = threadIdx.x + l * blockDim.x + ty * tsy + tz * tsz;
        if (i < nx && in_domain_yz) tile[s] = in[i + j * sy + (DIMS == 3 ? k * sz : 0)];
    }
    __syncthreads();
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = i0 + l * blockDim.x, tx = threadIdx.x + l * blockDim.x;
        if (!interior(i, j, k, nx, ny, lo, hi)) continue;
        const idx_t idx = i + j * sy + (DIMS == 3 ? k * sz : 0);
        const int s = tx + ty * tsy + tz * tsz;
        T acc = centre_term(tile[s]);
#pragma unroll
        for (int d = 1; d <= R; ++d) {
            T pair = (tx >= d ? tile[s - d] : in[idx - d]) + (tx + d < W ? tile[s + d] : in[idx + d]);
            pair += (ty >= d ? tile[s - d * tsy] : in[idx - d * sy]) + (ty + d < BY ? tile[s + d * tsy] : in[idx + d * sy]);
#if DIMS == 3
            pair += (tz >= d ? tile[s - d * tsz] : in[idx - d * sz]) + (tz + d < BZ ? tile[s + d * tsz] : in[idx + d * sz]);
#endif
            acc += weight(d) * pair;
        }
        finish(out, idx, acc);
    }
}
#endif

#if VARIANT == 2 // smem_padded (listings 3.10-3.14): tile + R-wide padding; every operand from shared memory
extern "C" __global__ void ss_star(const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo,
    int hi, int chunk)
{
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    const int BX = blockDim.x, BY = blockDim.y, BZ = DIMS == 3 ? blockDim.z : 1;
    const int px = BX * CF + 2 * R, py = BY + 2 * R;
    const int i0 = threadIdx.x + blockIdx.x * BX * CF;
    const int j = threadIdx.y + blockIdx.y * BY;
    const int k = DIMS == 3 ? threadIdx.z + blockIdx.z * BZ : 0;
    const int ty = threadIdx.y, tz = DIMS == 3 ? threadIdx.z : 0;
    const idx_t sy = nx, sz = idx_t(nx) * ny;
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
        if (l == 0 && threadIdx.x < R && i >= R) tile[s - R] = in[idx - R];
        if (l == CF - 1 && threadIdx.x >= BX - R && i + R < nx) tile[s + R] = in[idx + R];
        if (ty < R && j >= R) tile[s - R * tsy] = in[idx - R * sy];
        if (ty >= BY - R && j + R < ny) tile[s + R * tsy] = in[idx + R * sy];
#if DIMS == 3
        if (tz < R && k >= R) tile[s - R * tsz] = in[idx - R * sz];
        if (tz >= BZ - R && k + R < nz) tile[s + R * tsz] = in[idx + R * sz];
#endif
        tile[s] = in[idx];
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

#if VARIANT == 3 // stream: 2.5D blocking (Micikevicius 2009). Tile the fast plane (3D) or row (2D), march
// along the slow axis; the 2R+1 values along it live in registers, the plane with its x/y halo in
// shared memory. Each block marches `chunk` planes starting at lo + blockIdx.(z|y) * chunk.
extern "C" __global__ void ss_star(const T* __restrict__ in, T* __restrict__ out, int nx, int ny, int nz, int lo,
    int hi, int chunk)
{
    extern __shared__ unsigned char smem_raw[];
    T* tile = reinterpret_cast<T*>(smem_raw);
    const int BX = blockDim.x, W = BX * CF, px = W + 2 * R;
    const int x0 = blockIdx.x * W;
#if DIMS == 3
    const int BY = blockDim.y, ty = threadIdx.y;
    const int y0 = blockIdx.y * BY, j = y0 + ty;
    const int s_begin = lo + blockIdx.z * chunk;
    const idx_t sy = nx, ss = idx_t(nx) * ny; // ss: stride along the marching axis
    const bool row_ok = j < ny;
    const bool row_interior = j >= R && j < ny - R;
#else
    const int ty = 0, j = 0;
    const int s_begin = lo + blockIdx.y * chunk;
    const idx_t sy = 0, ss = nx;
    const bool row_ok = true, row_interior = true;
#endif
    const int s_end = min(s_begin + chunk, hi);
    if (s_begin >= s_end) return;

    T q[CF][2 * R + 1]; // q[l][m]: value at slow coordinate (s - R + m) of this thread's column l
    bool col_ok[CF];
    idx_t col[CF];
#pragma unroll
    for (int l = 0; l < CF; ++l) {
        const int i = x0 + threadIdx.x + l * BX;
        col_ok[l] = row_ok && i < nx;
        col[l] = i + j * sy;
#pragma unroll
        for (int m = 0; m < 2 * R; ++m) q[l][m] = col_ok[l] ? in[col[l] + (s_begin - R + m) * ss] : T(0);
    }
    for (int s = s_begin; s < s_end; ++s) {
        const idx_t plane = idx_t(s) * ss;
#pragma unroll
        for (int l = 0; l < CF; ++l) q[l][2 * R] = col_ok[l] ? in[col[l] + plane + idx_t(R) * ss] : T(0);
        __syncthreads(); // the previous plane's readers are done
#pragma unroll
        for (int l = 0; l < CF; ++l) tile[(ty + (DIMS == 3 ? R : 0)) * px + R + threadIdx.x + l * BX] = q[l][R];
        if (row_ok) {
            for (int h = threadIdx.x; h < R; h += BX) { // x halo of this row
                const int il = x0 - R + h, ir = x0 + W + h;
                const int row = (ty + (DIMS == 3 ? R : 0)) * px;
                if (il >= 0) tile[row + h] = in[il + j * sy + plane];
                if (ir < nx) tile[row + R + W + h] = in[ir + j * sy + plane];
            }
        }
#if DIMS == 3
        for (int h = ty; h < R; h += BY) { // y halo of the tile
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const int i = x0 + threadIdx.x + l * BX;
                if (i >= nx) continue;
                const int jt = y0 - R + h, jb = y0 + BY + h;
                if (jt >= 0) tile[h * px + R + threadIdx.x + l * BX] = in[i + jt * sy + plane];
                if (jb < ny) tile[(BY + R + h) * px + R + threadIdx.x + l * BX] = in[i + jb * sy + plane];
            }
        }
#endif
        __syncthreads();
        if (row_interior) {
#pragma unroll
            for (int l = 0; l < CF; ++l) {
                const int i = x0 + threadIdx.x + l * BX;
                if (i < R || i >= nx - R) continue;
                const int t = (ty + (DIMS == 3 ? R : 0)) * px + R + threadIdx.x + l * BX;
                T acc = centre_term(q[l][R]);
#pragma unroll
                for (int d = 1; d <= R; ++d) {
                    T pair = tile[t - d] + tile[t + d];
#if DIMS == 3
                    pair += tile[t - d * px] + tile[t + d * px];
#endif
                    pair += q[l][R - d] + q[l][R + d];
                    acc += weight(d) * pair;
                }
                finish(out, col[l] + plane, acc);
            }
        }
#pragma unroll
        for (int l = 0; l < CF; ++l)
#pragma unroll
            for (int m = 0; m < 2 * R; ++m) q[l][m] = q[l][m + 1];
    }
}
#endif

// Overwrites a disc (2D) or ball (3D) of interior cells: the GUI's source injection.
extern "C" __global__ void ss_inject(T* f, int nx, int ny, int nz, int cx, int cy, int cz, int r, double value)
{
    const int i = cx - r + int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = cy - r + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = DIMS == 3 ? cz - r + int(blockIdx.z) : 0;
    if (i < R || i >= nx - R || j < R || j >= ny - R) return;
    if (DIMS == 3 && (k < R || k >= nz - R)) return;
    const int d2 = (i - cx) * (i - cx) + (j - cy) * (j - cy) + (DIMS == 3 ? (k - cz) * (k - cz) : 0);
    if (d2 <= r * r) f[i + idx_t(j) * nx + idx_t(k) * nx * ny] = T(value);
}
