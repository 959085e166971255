// SPDX-License-Identifier: MIT
#include "gpu/backends/cuda/cuda_simulation.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/display_range.h"
#include "gpu/backends/cuda/kernel_compiler.h"
#include "gpu/backends/cuda/kernel_source.h"
#include "gpu/backends/cuda/staged_upload.h"
#include "gpu/backends/cuda/temporal_steps.h"
#include "gpu/plan/strip_plan.h"
#include "gpu/problem/physics.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace ss {
namespace {

std::string limiter_name(const DeviceInfo& d, const cudaFuncAttributes& a, int threads, std::int64_t smem) {
    const int warps = (threads + d.warp_size - 1) / d.warp_size;
    struct Limit {
        const char* name;
        std::int64_t blocks;
    };
    const std::int64_t regs_per_warp = ((std::int64_t(a.numRegs) * d.warp_size + 255) / 256) * 256;
    const std::int64_t smem_block = smem + a.sharedSizeBytes + 1024; // the runtime reserves 1 KiB per block
    const Limit limits[] = {
        { "threads", (d.max_threads_per_sm / d.warp_size) / std::max(warps, 1) },
        { "blocks", d.max_blocks_per_sm },
        { "registers", regs_per_warp > 0 ? d.regs_per_sm / (regs_per_warp * warps) : d.max_blocks_per_sm },
        { "shared memory", smem_block > 1024 ? d.smem_per_sm / smem_block : d.max_blocks_per_sm },
    };
    return std::min_element(std::begin(limits), std::end(limits), [](auto& x, auto& y) {
        return x.blocks < y.blocks;
    })->name;
}

} // namespace

CudaSimulation::CudaSimulation(const KernelPlan& plan, bool allocate_field)
    : m_plan(plan)
    , m_es(element_size(plan.field.problem.precision)) {
    const StencilConfig& c = m_plan.field;
    const DeviceInfo& dev = m_plan.device;
    if (c.problem.stencil == StencilKind::Diffusion4) { // each layer carries its periodic halo
        m_pitch_y = c.problem.size.nx + 2 * kDiffusionHalo;
        m_pitch_z = m_pitch_y * (c.problem.size.ny + 2 * kDiffusionHalo);
        m_origin = kDiffusionHalo * m_pitch_y + kDiffusionHalo;
        m_elements = m_pitch_z * c.problem.size.nz;
    } else {
        m_pitch_y = c.problem.size.nx;
        m_pitch_z = std::int64_t(c.problem.size.nx) * c.problem.size.ny;
        m_elements = c.problem.size.cells();
    }
    cuda_check(cudaSetDevice(c.placement.device), "cudaSetDevice");
    m_res.kernel = m_plan.choice; // the entry kernel_source(m_plan) names
    m_res.from_cache = true; // until a module is built
    cudaFuncAttributes attr {};
    if (!try_occupancy_block(attr)) {
        if (has_dirichlet_border(c.problem.stencil)) { // star and point stencils: one kernel, the same arguments
            load_star_module(kernel_source(m_plan), attr);
        } else {
            bool cached = false;
            m_module = compile_module(kernel_source(m_plan), dev.cc_major, dev.cc_minor, &cached);
            m_res.compile_ms += cached ? 0.0 : m_module->compile_ms();
            m_res.from_cache = m_res.from_cache && cached;
            m_inject = m_module->kernel("ss_inject");
            m_slice = m_module->kernel("ss_slice_to_float");
            m_main = m_module->kernel(m_res.kernel.entry.c_str());
            const std::vector<std::string>& more = m_res.kernel.other_kernels; // the halo's, then the step's later
            m_halo = m_module->kernel(more.at(0).c_str());
            if (more.size() > 1) m_second = m_module->kernel(more[1].c_str());
            if (more.size() > 2) m_third = m_module->kernel(more[2].c_str());
            cuda_check(cudaFuncGetAttributes(&attr, m_main), "cudaFuncGetAttributes");
            cuda_check(cudaFuncSetAttribute(m_main, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(dev.smem_per_block_optin - attr.sharedSizeBytes)),
                "cudaFuncSetAttribute");
        }
        choose_block(attr);
        if (m_plan.specialise) {
            // The generic kernel only answered the occupancy question; launch bounds keep its blocks per SM.
            const int generic_blocks = blocks_per_sm_of(m_block);
            load_star_module(kernel_source(m_plan, &m_block, generic_blocks), attr);
        }
    }
    const bool temporal = has_dirichlet_border(c.problem.stencil) && c.policy.variant == Variant::Temporal;
    if (m_block.threads() > attr.maxThreadsPerBlock) // the compiled kernel's registers decide this
        throw CudaError("block " + format_block(m_block) + " has " + std::to_string(m_block.threads())
            + " threads but the kernel uses " + std::to_string(attr.numRegs)
            + " registers/thread, which allows at most " + std::to_string(attr.maxThreadsPerBlock));
    m_smem = dynamic_smem_bytes(c, m_block);
    int blocks_per_sm = 0;
    cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, m_main, m_block.threads(), m_smem),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const int warps = (m_block.threads() + dev.warp_size - 1) / dev.warp_size;
    m_res.block = m_block;
    m_res.registers = attr.numRegs;
    m_res.local_bytes = int(attr.localSizeBytes);
    m_res.static_smem = int(attr.sharedSizeBytes);
    m_res.dynamic_smem = int(m_smem);
    m_res.max_blocks_per_sm = blocks_per_sm;
    m_res.theoretical_occupancy
        = double(blocks_per_sm * warps) / (double(dev.max_threads_per_sm) / double(dev.warp_size));
    m_res.occupancy_limiter = limiter_name(dev, attr, m_block.threads(), m_smem);
    plan_grid(blocks_per_sm);
    if (temporal) m_temporal = std::make_unique<TemporalSteps>(m_plan, m_block, m_main, blocks_per_sm);
    if (m_temporal) {
        m_res.compile_ms += m_temporal->compile_ms();
        m_res.from_cache = m_res.from_cache && m_temporal->from_cache();
        m_grid = m_temporal->grid();
    }
    m_res.grid_blocks = int(std::int64_t(m_grid.x) * m_grid.y * m_grid.z);
    if (!allocate_field) return;
    try {
        allocate();
    } catch (...) { // a throwing constructor runs no destructor: free what was allocated
        release();
        throw;
    }
}

CudaSimulation::~CudaSimulation() {
    release();
}

void CudaSimulation::upload(const std::vector<double>& field) {
    if (std::int64_t(field.size()) != m_config.problem.size.cells())
        throw CudaError("upload: field size does not match the domain");
    upload_rows(field.data(), nullptr);
    m_iteration = 0;
}

void CudaSimulation::upload_rows(const double* current, const double* previous) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    const std::size_t cells = std::size_t(m_config.problem.size.cells());
    const bool dense = has_dirichlet_border(m_config.problem.stencil);
    for (const auto& [host, device] : { std::pair { current, m_in }, std::pair { previous, m_out } }) {
        if (!host) continue;
        if (!dense || !upload_staged(host, device, cells, m_es, m_stream))
            copy_rows(to_element_type(host, cells, m_es).data(), static_cast<unsigned char*>(device), 0, split_rows(),
                cudaMemcpyHostToDevice);
    }
    if (!previous && dense) // Dirichlet border in both buffers; the wave starts at rest
        cuda_check(cudaMemcpyAsync(m_out, m_in, m_elements * m_es, cudaMemcpyDeviceToDevice, m_stream), "copy");
    cuda_check(cudaStreamSynchronize(m_stream), "upload");
}

void CudaSimulation::launch_step() {
    if (has_dirichlet_border(m_config.problem.stencil))
        launch_star_rows(m_config.problem.radius, slow_extent(m_config.problem) - m_config.problem.radius, m_stream);
    else
        diffusion_step();
}

void CudaSimulation::launch_temporal(int steps, cudaStream_t stream) {
    if (!m_temporal || (steps != 1 && steps != m_temporal->depth()))
        throw CudaError("launch_temporal: " + std::to_string(steps) + " steps in one temporal launch");
    m_temporal->queue_launch(steps > 1, m_in, m_out, stream);
}

void CudaSimulation::launch_temporal_rows(int steps, int lo, int hi, cudaStream_t stream) {
    if (!m_temporal || (steps != 1 && steps != m_temporal->depth()))
        throw CudaError("launch_temporal_rows: " + std::to_string(steps) + " steps in one temporal launch");
    m_temporal->queue_launch_rows(steps > 1, lo, hi, m_in, m_out, stream);
}

void CudaSimulation::finish_step(int steps) {
    std::swap(m_in, m_out);
    m_iteration += steps;
}

void CudaSimulation::step_async(int n) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    if (m_temporal) { // depth steps per launch
        m_temporal->queue(n, m_in, m_out, m_stream);
        m_iteration += n;
        return;
    }
    for (int i = 0; i < n; ++i) {
        launch_step();
        finish_step();
    }
}

void CudaSimulation::poison_output() {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    cuda_check(cudaMemsetAsync(m_out, 0xFF, m_elements * m_es, m_stream), "poison"); // all-ones bits: NaN
    cuda_check(cudaStreamSynchronize(m_stream), "poison");
}

void CudaSimulation::synchronize() {
    cuda_check(cudaStreamSynchronize(m_stream), "synchronize");
}

std::uint64_t CudaSimulation::enqueue_marker() {
    cudaEvent_t& e = m_markers[m_next_marker % kMarkers];
    if (!e) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    cuda_check(cudaEventRecord(e, m_stream), "cudaEventRecord");
    return m_next_marker++;
}

void CudaSimulation::wait_marker(std::uint64_t marker) {
    if (marker + kMarkers < m_next_marker) return; // long done: its event was reused
    cuda_check(cudaEventSynchronize(m_markers[marker % kMarkers]), "wait_marker");
}

std::vector<double> CudaSimulation::download() {
    std::vector<double> out(std::size_t(m_config.problem.size.cells()));
    download_rows(0, split_rows(), out.data());
    return out;
}

void CudaSimulation::download_rows(int first, int rows, double* out, bool previous) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    std::vector<unsigned char> host(std::size_t(rows * row_cells()) * m_es);
    copy_rows(host.data(), static_cast<unsigned char*>(previous ? m_out : m_in), first, rows, cudaMemcpyDeviceToHost);
    to_double(host, m_es, out);
}

FieldState CudaSimulation::save_state() {
    FieldState s { download(), {}, m_iteration };
    if (m_config.problem.stencil == StencilKind::Star && m_config.problem.rule == UpdateRule::Wave) {
        s.previous.resize(s.current.size());
        download_rows(0, split_rows(), s.previous.data(), true);
    }
    return s;
}

void CudaSimulation::restore_state(const FieldState& state) {
    const std::size_t cells = std::size_t(m_config.problem.size.cells());
    if (state.current.size() != cells || (!state.previous.empty() && state.previous.size() != cells))
        throw CudaError("restore_state: field size does not match the domain");
    upload_rows(state.current.data(), state.previous.empty() ? nullptr : state.previous.data());
    m_iteration = state.iteration;
}

std::vector<float> CudaSimulation::download_slice(SliceAxis axis, int index) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    const Extent e = m_config.problem.size;
    const auto* base = static_cast<const unsigned char*>(m_in) + m_origin * m_es;
    const std::size_t es = m_es, py = m_pitch_y * es, pz = m_pitch_z * es;
    std::vector<unsigned char> host;
    if (axis == SliceAxis::XY) {
        index = std::clamp(index, 0, e.nz - 1);
        host.resize(std::size_t(e.nx) * e.ny * es);
        cuda_check(cudaMemcpy2DAsync(host.data(), e.nx * es, base + index * pz, py, e.nx * es, e.ny,
                       cudaMemcpyDeviceToHost, m_stream),
            "slice");
    } else if (axis == SliceAxis::XZ) {
        index = std::clamp(index, 0, e.ny - 1);
        host.resize(std::size_t(e.nx) * e.nz * es);
        cuda_check(cudaMemcpy2DAsync(host.data(), e.nx * es, base + index * py, pz, e.nx * es, e.nz,
                       cudaMemcpyDeviceToHost, m_stream),
            "slice");
    } else {
        index = std::clamp(index, 0, e.nx - 1);
        host.resize(std::size_t(e.ny) * e.nz * es);
        for (int z = 0; z < e.nz; ++z)
            cuda_check(cudaMemcpy2DAsync(host.data() + std::size_t(z) * e.ny * es, es, base + index * es + z * pz, py,
                           es, e.ny, cudaMemcpyDeviceToHost, m_stream),
                "slice");
    }
    // on the simulation's stream: ordered after the queued steps
    cuda_check(cudaStreamSynchronize(m_stream), "slice");
    std::vector<double> values(host.size() / m_es);
    to_double(host, m_es, values.data());
    return { values.begin(), values.end() };
}

bool CudaSimulation::slice_to_device(SliceAxis axis, int index, float* device_out, int step) {
    const auto [nu, nv] = slice_size(m_config.problem.size, axis);
    slice_window_to_device(axis, index, 0, nu, 0, nv, device_out, step);
    return true; // queued: enqueue_marker() / synchronize() tell when it is done
}

bool CudaSimulation::max_projection_to_device(SliceAxis axis, float* device_out) {
    const Extent e = m_config.problem.size;
    if (m_config.problem.dims != 3) return false;
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    const auto [nu, nv] = slice_size(e, axis);
    // (u, v) as slice_window_to_device orders the plane; w runs along the normal
    long long su = 1, sv = m_pitch_y, sw = m_pitch_z;
    int nw = e.nz;
    if (axis == SliceAxis::XZ) sv = m_pitch_z, sw = m_pitch_y, nw = e.ny;
    if (axis == SliceAxis::YZ) su = m_pitch_y, sv = m_pitch_z, sw = 1, nw = e.nx;
    cuda_check(queue_max_projection_on(m_in, m_es == 8, m_origin, su, sv, sw, nu, nv, nw, device_out, m_stream),
        "max projection");
    return true;
}

bool CudaSimulation::queue_display_range(
    const float* device_values, std::size_t count, unsigned* device_scratch, unsigned* host_out) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    cuda_check(queue_display_range_on(device_values, count, device_scratch, host_out, m_stream), "display range");
    return true;
}

void CudaSimulation::slice_window_to_device(
    SliceAxis axis, int index, int u_first, int nu, int v_first, int v_rows, float* out, int step) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    const Extent e = m_config.problem.size;
    long long origin = m_origin, su = 1, sv = m_pitch_y;
    if (axis == SliceAxis::XY) origin += std::clamp(index, 0, e.nz - 1) * m_pitch_z;
    if (axis == SliceAxis::XZ) origin += std::clamp(index, 0, e.ny - 1) * m_pitch_y, sv = m_pitch_z;
    if (axis == SliceAxis::YZ) origin += std::clamp(index, 0, e.nx - 1), su = m_pitch_y, sv = m_pitch_z;
    origin += u_first * su + v_first * sv;
    int u = nu, v = v_rows, k = std::max(step, 1);
    void* args[] = { &m_in, &out, &origin, &su, &sv, &u, &v, &k };
    const int ou = (nu + k - 1) / k, ov = (v_rows + k - 1) / k;
    const dim3 block(32, 8), grid((ou + 31) / 32, (ov + 7) / 8);
    cuda_check(cudaLaunchKernel(m_slice, grid, block, args, 0, m_stream), "slice_to_device");
}

void CudaSimulation::inject(int x, int y, int z, int radius, double value) {
    cuda_check(cudaSetDevice(m_config.placement.device), "cudaSetDevice");
    radius = std::max(radius, 0);
    const bool layered = m_config.problem.stencil == StencilKind::Diffusion4;
    const unsigned span = unsigned(2 * radius + 1);
    const dim3 block(16, 16, 1),
        grid((span + 15) / 16, (span + 15) / 16, (m_config.problem.dims == 3 && !layered) ? span : 1);
    int nx = m_config.problem.size.nx, ny = m_config.problem.size.ny, nz = m_config.problem.size.nz;
    void* args[] = { &m_in, &nx, &ny, &nz, &x, &y, &z, &radius, &value };
    cuda_check(cudaLaunchKernel(m_inject, grid, block, args, 0, m_stream), "inject");
    cuda_check(cudaStreamSynchronize(m_stream), "inject");
}

std::size_t CudaSimulation::row_bytes() const {
    return std::size_t(row_cells()) * m_es; // the star has no padding: a host row is a device row
}

int CudaSimulation::split_rows() const {
    return m_config.problem.stencil == StencilKind::Diffusion4 ? m_config.problem.size.nz
                                                               : slow_extent(m_config.problem);
}

void CudaSimulation::release() {
    cudaSetDevice(m_config.placement.device);
    if (m_stream) cudaStreamSynchronize(m_stream);
    for (void* p : { m_buffers[0], m_buffers[1], m_tmp, m_tmp2 })
        if (p) cudaFree(p);
    m_buffers[0] = m_buffers[1] = m_in = m_out = m_tmp = m_tmp2 = nullptr;
    for (cudaEvent_t e : { m_start, m_stop })
        if (e) cudaEventDestroy(e);
    for (cudaEvent_t e : m_launch_ends)
        if (e) cudaEventDestroy(e);
    m_launch_ends.clear();
    m_start = m_stop = nullptr;
    for (cudaEvent_t& e : m_markers) {
        if (e) cudaEventDestroy(e);
        e = nullptr;
    }
    if (m_stream) cudaStreamDestroy(m_stream);
    m_stream = nullptr;
}

void CudaSimulation::create_stream() {
    cuda_check(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaEventCreate(&m_start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&m_stop), "cudaEventCreate");
}

void CudaSimulation::allocate() {
    create_stream();
    const std::size_t bytes = m_elements * m_es;
    // Zeroed on the own stream and waited for: a plain cudaMemset runs on the legacy default stream, which a
    // non-blocking stream does not wait for, so the zeros could land after the upload or a step. With
    // several processes on one GPU the copy engine ran the upload while the memset waited for its time
    // slice, and a rank's field came back all zero (issue 22, docs/PERFORMANCE.md).
    auto alloc = [this, bytes](void** p) {
        cuda_check(cudaMalloc(p, bytes), "cudaMalloc");
        cuda_check(cudaMemsetAsync(*p, 0, bytes, m_stream), "cudaMemset");
    };
    alloc(&m_buffers[0]);
    alloc(&m_buffers[1]);
    m_in = m_buffers[0];
    m_out = m_buffers[1];
    if (m_config.problem.stencil == StencilKind::Diffusion4 && m_config.policy.variant != Variant::Smem) alloc(&m_tmp);
    if (m_config.policy.variant == Variant::Naive || m_config.policy.variant == Variant::Merged) alloc(&m_tmp2);
    cuda_check(cudaStreamSynchronize(m_stream), "cudaMemset"); // other streams (strips, halo) use them too
}

void CudaSimulation::launch(const void* kernel, dim3 grid, void** args, std::size_t smem, cudaStream_t stream) {
    cuda_check(
        cudaLaunchKernel(kernel, grid, dim3(m_block.x, m_block.y, m_block.z), args, smem, stream), "kernel launch");
}

void CudaSimulation::diffusion_step() {
    int nx = m_config.problem.size.nx, ny = m_config.problem.size.ny;
    const int nz = m_config.problem.size.nz;
    const int halo_cells = 4 * (nx + 4) + 4 * ny;
    void* halo_args[] = { &m_in, &nx, &ny };
    cuda_check(cudaLaunchKernel(m_halo, dim3((halo_cells + 255) / 256, nz), dim3(256), halo_args, 0, m_stream), "halo");
    const dim3 interior(m_grid.x, m_grid.y, m_grid.z);
    if (m_config.policy.variant == Variant::Smem) {
        void* args[] = { &m_in, &m_out, &nx, &ny };
        launch(m_main, interior, args, m_smem, m_stream);
        return;
    }
    const dim3 ring((nx + 2 + m_block.x - 1) / m_block.x, (ny + 2 + m_block.y - 1) / m_block.y, nz);
    void* ring_args[] = { &m_in, &m_tmp, &nx, &ny };
    launch(m_main, ring, ring_args, 0, m_stream);
    if (m_config.policy.variant == Variant::Naive) {
        void* lap_args[] = { &m_tmp, &m_tmp2, &nx, &ny };
        launch(m_second, interior, lap_args, 0, m_stream);
        void* euler_args[] = { &m_in, &m_tmp2, &m_out, &nx, &ny };
        launch(m_third, interior, euler_args, 0, m_stream);
    } else if (m_config.policy.variant == Variant::Merged) {
        void* args[] = { &m_in, &m_tmp, &m_tmp2, &m_out, &nx, &ny };
        launch(m_second, interior, args, 0, m_stream);
    } else {
        void* args[] = { &m_in, &m_tmp, &m_out, &nx, &ny };
        launch(m_second, interior, args, 0, m_stream);
    }
}

// Copies whole rows [first, first + rows) between a dense host array and the device layout.
void CudaSimulation::copy_rows(unsigned char* host, unsigned char* device, int first, int rows, cudaMemcpyKind kind) {
    const bool to_device = kind == cudaMemcpyHostToDevice;
    if (has_dirichlet_border(m_config.problem.stencil)) { // dense rows: one copy
        unsigned char* d = device + std::size_t(first) * row_bytes();
        const std::size_t bytes = std::size_t(rows) * row_bytes();
        cuda_check(cudaMemcpyAsync(to_device ? d : host, to_device ? host : d, bytes, kind, m_stream), "copy rows");
    } else { // diffusion layers: ny rows of nx cells inside the halo
        const Extent e = m_config.problem.size;
        const std::size_t es = m_es, row = e.nx * es, plane = row * e.ny;
        for (int z = 0; z < rows; ++z) {
            unsigned char* dev_plane = device + (m_origin + (first + z) * m_pitch_z) * es;
            unsigned char* host_plane = host + z * plane;
            if (to_device)
                cuda_check(
                    cudaMemcpy2DAsync(dev_plane, m_pitch_y * es, host_plane, row, row, e.ny, kind, m_stream), "upload");
            else
                cuda_check(cudaMemcpy2DAsync(host_plane, row, dev_plane, m_pitch_y * es, row, e.ny, kind, m_stream),
                    "download");
        }
    }
    cuda_check(cudaStreamSynchronize(m_stream), "copy");
}

std::unique_ptr<Simulation> create_cuda_simulation(const KernelPlan& plan, std::string* why) {
    try {
        return std::make_unique<CudaSimulation>(plan);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        cudaGetLastError(); // clear a sticky-free error so the next configuration can start
        return nullptr;
    }
}

bool prepare_cuda_kernels(const KernelPlan& plan, std::string* why) {
    try {
        const CudaSimulation kernels_only(
            plan, false); // the same sources as create_cuda_simulation: the same cache entries
        return true;
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return false; // no error is left sticky on this thread's side: nothing was launched
    }
}

} // namespace ss
