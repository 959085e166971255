// SPDX-License-Identifier: MIT
// Fourth-order diffusion (HPC4WC study, sec. 4-5), compiled at run time by NVRTC. The preamble defines
// T, idx_t and ALPHA. Each of the nz layers is an independent periodic (nx+4) x (ny+4) plane whose
// 2-wide halo is refreshed by ss_diffusion_halo before every step; interior cells sit at [2, n+2).
// The ladder: naive = lap -> lap -> euler (3 kernels), merged = lap -> lap+euler (writes lap2 too),
// notemp = lap -> lap+euler (lap2 kept in a register), smem = one kernel, both Laplacians in shared memory.

#define HALO 2

__device__ __forceinline__ T lap(const T* f, idx_t i, int px) {
    return T(-4) * f[i] + f[i - 1] + f[i + 1] + f[i - px] + f[i + px];
}

// One thread per halo cell of a layer (grid.y = layer): copy from the opposite side of the domain.
extern "C" __global__ void ss_diffusion_halo(T* f, int nx, int ny) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int t = threadIdx.x + blockIdx.x * blockDim.x;
    const int count = 4 * px + 4 * ny;
    if (t >= count) return;
    int x, y;
    if (t < 2 * px) { // two rows at the top
        y = t / px, x = t % px;
    } else if (t < 4 * px) { // two rows at the bottom
        y = ny + HALO + (t - 2 * px) / px, x = (t - 2 * px) % px;
    } else { // two columns on each side of the interior rows
        const int m = t - 4 * px, c = m % 4;
        y = HALO + m / 4, x = c < 2 ? c : nx + c;
    }
    const int sx = ((x - HALO) % nx + nx) % nx + HALO, sy = ((y - HALO) % ny + ny) % ny + HALO;
    const idx_t layer = idx_t(blockIdx.y) * px * py;
    f[layer + idx_t(y) * px + x] = f[layer + idx_t(sy) * px + sx];
}

// tmp = lap(in) over the interior and a 1-wide ring around it (what the second Laplacian reads).
extern "C" __global__ void ss_diffusion_lap_ring(const T* __restrict__ in, T* __restrict__ tmp, int nx, int ny) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int x = 1 + threadIdx.x + blockIdx.x * blockDim.x, y = 1 + threadIdx.y + blockIdx.y * blockDim.y;
    if (x > nx + 2 || y > ny + 2) return;
    const idx_t i = idx_t(blockIdx.z) * px * py + idx_t(y) * px + x;
    tmp[i] = lap(in, i, px);
}

__device__ __forceinline__ bool diff_interior(int x, int y, int nx, int ny) {
    return x < nx + HALO && y < ny + HALO;
}

// naive, step 2: lap2 = lap(tmp) on the interior.
extern "C" __global__ void ss_diffusion_naive_lap(const T* __restrict__ tmp, T* __restrict__ lap2, int nx, int ny) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int x = HALO + threadIdx.x + blockIdx.x * blockDim.x, y = HALO + threadIdx.y + blockIdx.y * blockDim.y;
    if (!diff_interior(x, y, nx, ny)) return;
    const idx_t i = idx_t(blockIdx.z) * px * py + idx_t(y) * px + x;
    lap2[i] = lap(tmp, i, px);
}

// naive, step 3: the explicit Euler step.
extern "C" __global__ void ss_diffusion_naive_euler(
    const T* __restrict__ in, const T* __restrict__ lap2, T* __restrict__ out, int nx, int ny) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int x = HALO + threadIdx.x + blockIdx.x * blockDim.x, y = HALO + threadIdx.y + blockIdx.y * blockDim.y;
    if (!diff_interior(x, y, nx, ny)) return;
    const idx_t i = idx_t(blockIdx.z) * px * py + idx_t(y) * px + x;
    out[i] = in[i] - ALPHA * lap2[i];
}

// merged: second Laplacian and Euler in one kernel, still storing lap2 in global memory.
extern "C" __global__ void ss_diffusion_merged(
    const T* __restrict__ in, const T* __restrict__ tmp, T* __restrict__ lap2, T* __restrict__ out, int nx, int ny) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int x = HALO + threadIdx.x + blockIdx.x * blockDim.x, y = HALO + threadIdx.y + blockIdx.y * blockDim.y;
    if (!diff_interior(x, y, nx, ny)) return;
    const idx_t i = idx_t(blockIdx.z) * px * py + idx_t(y) * px + x;
    lap2[i] = lap(tmp, i, px);
    out[i] = in[i] - ALPHA * lap2[i];
}

// notemp: the second Laplacian never leaves a register.
extern "C" __global__ void ss_diffusion_notemp(
    const T* __restrict__ in, const T* __restrict__ tmp, T* __restrict__ out, int nx, int ny) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int x = HALO + threadIdx.x + blockIdx.x * blockDim.x, y = HALO + threadIdx.y + blockIdx.y * blockDim.y;
    if (!diff_interior(x, y, nx, ny)) return;
    const idx_t i = idx_t(blockIdx.z) * px * py + idx_t(y) * px + x;
    out[i] = in[i] - ALPHA * lap(tmp, i, px);
}

// smem: the input tile (+2 halo) and the first Laplacian (+1 halo) in shared memory; no temporary array.
extern "C" __global__ void ss_diffusion_smem(const T* __restrict__ in, T* __restrict__ out, int nx, int ny) {
    extern __shared__ unsigned char smem_raw[];
    const int BX = blockDim.x, BY = blockDim.y;
    const int tx_w = BX + 4, ty_w = BY + 4, lx_w = BX + 2, ly_w = BY + 2;
    T* s_in = reinterpret_cast<T*>(smem_raw);
    T* s_lap = s_in + tx_w * ty_w;
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const idx_t layer = idx_t(blockIdx.z) * px * py;
    const int x0 = blockIdx.x * BX, y0 = blockIdx.y * BY; // padded coordinates of the tile's halo corner
    const int tid = threadIdx.x + threadIdx.y * BX, nthreads = BX * BY;
    for (int t = tid; t < tx_w * ty_w; t += nthreads) {
        const int x = x0 + t % tx_w, y = y0 + t / tx_w;
        s_in[t] = (x < px && y < py) ? in[layer + idx_t(y) * px + x] : T(0);
    }
    __syncthreads();
    for (int t = tid; t < lx_w * ly_w; t += nthreads) {
        const int lx = t % lx_w, ly = t / lx_w;
        s_lap[t] = lap(s_in, (ly + 1) * tx_w + lx + 1, tx_w);
    }
    __syncthreads();
    const int x = HALO + x0 + threadIdx.x, y = HALO + y0 + threadIdx.y;
    if (!diff_interior(x, y, nx, ny)) return;
    const T l2 = lap(s_lap, (threadIdx.y + 1) * lx_w + threadIdx.x + 1, lx_w);
    out[layer + idx_t(y) * px + x] = s_in[(threadIdx.y + 2) * tx_w + threadIdx.x + 2] - ALPHA * l2;
}

// Overwrites a disc of cells in layer cz (the GUI's source injection); launched with grid.z = 1.
extern "C" __global__ void ss_inject(T* f, int nx, int ny, int nz, int cx, int cy, int cz, int r, double value) {
    const int px = nx + 2 * HALO, py = ny + 2 * HALO;
    const int i = cx - r + int(threadIdx.x + blockIdx.x * blockDim.x);
    const int j = cy - r + int(threadIdx.y + blockIdx.y * blockDim.y);
    const int k = cz + int(blockIdx.z);
    if (i < 0 || i >= nx || j < 0 || j >= ny || k < 0 || k >= nz) return;
    if ((i - cx) * (i - cx) + (j - cy) * (j - cy) <= r * r)
        f[idx_t(k) * px * py + idx_t(j + HALO) * px + i + HALO] = T(value);
}
