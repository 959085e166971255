// SPDX-License-Identifier: MIT
// The multi-GPU schedule. Each strip is a CudaSimulation on its own device with ghost rows of depth R;
// a step on strip s, run by its own host thread:
//   compute  on s's stream: the rows its neighbours need first (overlap on), then the interior;
//   send     overlap: on s's high-priority halo stream once the boundary rows are done; staged path:
//            copy those rows to pinned host memory; then record ready[parity];
//   -------- barrier: every strip's ready event of this step is recorded --------
//   receive  wait for the neighbours' ready events, then copy their rows into s's ghost rows (peer copy,
//            device copy, or from their pinned rows); overlap: the compute stream waits for it before
//            the next step. Overlap off, all of it is on the compute stream, after the kernels.
// Strips step in lockstep, so "parity" (which of the two buffers is current) is the same everywhere and
// double-buffers the ready events and pinned rows: a strip records ready[p] again only two steps later,
// after a barrier every reader of the old record has passed. The stream order and these events cover
// every read-after-write and write-after-read between strips (docs/ARCHITECTURE.md, "Multi-GPU").
// The temporal variant: ghost rows of depth G = R x depth; the compute is one launch over the whole strip as a
// domain of its own, fusing `depth` steps (level k is right on rows at least R x k from the strip's ghost edge,
// so its own rows are right after `depth` and its ghost rows hold junk), then the strips trade G rows. Step
// counts that are not multiples of the depth end with one-step launches, each followed by a trade. Overlap
// does not apply: the launch computes the rows the neighbours need together with the rest.
// Remote halo mode (GPU-SM) keeps this order with nothing to send or receive: a strip's kernel reads its
// neighbours' current buffers directly, records ready[parity] after it, and the neighbours wait for that
// event before their next step, which reads its new rows and overwrites the buffer it has just read.
#include "gpu/backends/cuda/multi_gpu_simulation.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/cuda_simulation.h"
#include "gpu/backends/cuda/display_range.h"
#include "gpu/backends/cuda/halo_exchange.h"
#include "gpu/backends/cuda/strip_display.h"
#include "gpu/backends/cuda/strip_workers.h"

#include <algorithm>

namespace ss {
namespace {

class MultiGpuSimulation final : public Simulation {
public:
    MultiGpuSimulation(const StencilConfig& c, const std::vector<DeviceInfo>& devices)
        : m_config(c)
        , m_plan(plan_strips(c)) {
        try {
            build(devices);
        } catch (...) {
            release();
            throw;
        }
    }
    ~MultiGpuSimulation() override { release(); }

    const StencilConfig& config() const override { return m_config; }
    const KernelResources& resources() const override { return m_strips.front().field->resources(); }
    long long iteration() const override { return m_iteration; }

    void upload(const std::vector<double>& field) override {
        if (std::int64_t(field.size()) != m_config.problem.size.cells())
            throw CudaError("upload: field size does not match the domain");
        load(field.data(), nullptr, 0);
    }

    FieldState save_state() override {
        FieldState s { download(), {}, m_iteration };
        if (m_config.problem.stencil == StencilKind::Star && m_config.problem.rule == UpdateRule::Wave)
            s.previous = gather(true);
        return s;
    }

    void restore_state(const FieldState& state) override {
        const std::size_t cells = std::size_t(m_config.problem.size.cells());
        if (state.current.size() != cells || (!state.previous.empty() && state.previous.size() != cells))
            throw CudaError("restore_state: field size does not match the domain");
        load(state.current.data(), state.previous.empty() ? nullptr : state.previous.data(), state.iteration);
    }

    void step_async(int n) override {
        if (n <= 0) return;
        m_workers->run([&](int i) {
            StripState& s = m_strips[i];
            cuda_check(cudaSetDevice(s.field->device()), "cudaSetDevice");
            for (int done = 0, k = 0; done < n; done += k) {
                k = launch_steps(n - done);
                step_strip(s, k, done + k == n);
            }
        });
        m_iteration += n;
    }

    // Strips one after another, each waited for, then the exchanges: nothing runs beside a replayed kernel.
    void step_for_profiling(int n) override {
        for (int done = 0, k = 0; done < n; done += k, m_iteration += k) {
            k = launch_steps(n - done);
            on_each_strip([&](StripState& s) {
                CudaSimulation& f = *s.field;
                if (temporal())
                    f.launch_temporal(k, f.stream());
                else
                    m_plan.ghost_depth == 0 ? f.launch_step()
                                            : f.launch_star_rows(rows_begin(s), rows_end(s), f.stream());
                f.finish_step(k);
                f.synchronize();
            });
            if (m_plan.ghost_depth == 0) continue;
            on_each_strip([&](StripState& s) { send(s, s.field->stream(), false); });
            on_each_strip([&](StripState& s) { receive(s, s.field->stream(), false); });
            synchronize();
        }
        set_device(0);
    }
    template <class Work> void on_each_strip(Work work) { // in strip order, on this thread
        for (std::size_t i = 0; i < m_strips.size(); ++i) set_device(i), work(m_strips[i]);
    }

    StepTiming step(int n) override {
        // Fork from and join into the first strip's stream, so that one pair of events times all GPUs.
        set_device(0);
        cuda_check(cudaEventRecord(m_start, first_stream()), "cudaEventRecord");
        for (std::size_t i = 1; i < m_strips.size(); ++i) {
            set_device(i);
            cuda_check(cudaStreamWaitEvent(m_strips[i].field->stream(), m_start, 0), "cudaStreamWaitEvent");
        }
        step_async(n);
        join_into_first();
        cuda_check(cudaEventRecord(m_stop, first_stream()), "cudaEventRecord");
        cuda_check(cudaEventSynchronize(m_stop), "stencil steps");
        float ms = 0.0f;
        cuda_check(cudaEventElapsedTime(&ms, m_start, m_stop), "cudaEventElapsedTime");
        harvest_timers();
        return { double(ms), n };
    }

    void synchronize() override {
        for (std::size_t i = 0; i < m_strips.size(); ++i) {
            set_device(i);
            cuda_check(cudaStreamSynchronize(m_strips[i].halo), "synchronize");
            m_strips[i].field->synchronize();
        }
    }

    std::uint64_t enqueue_marker() override {
        join_into_first();
        cudaEvent_t& e = m_markers[m_next_marker % kMarkers];
        if (!e) cuda_check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
        cuda_check(cudaEventRecord(e, first_stream()), "cudaEventRecord");
        return m_next_marker++;
    }

    void wait_marker(std::uint64_t marker) override {
        if (marker + kMarkers < m_next_marker) return; // long done: its event was reused
        cuda_check(cudaEventSynchronize(m_markers[marker % kMarkers]), "wait_marker");
    }

    std::vector<double> download() override { return gather(false); }

    std::vector<float> download_slice(SliceAxis axis, int index) override {
        return gather_slice(m_config, m_strips, axis, index);
    }

    // The plane lands on the first strip's GPU (the one that owns the GL context): strip_display.cpp.
    bool slice_to_device(SliceAxis axis, int index, float* device_out, int step) override {
        gather_slice_to_device(m_config, m_strips, remote(), axis, index, device_out, std::max(step, 1));
        return true;
    }

    // On the first GPU, where slice_to_device gathers the plane: after the strips' copies have joined.
    bool queue_display_range(
        const float* device_values, std::size_t count, unsigned* device_scratch, unsigned* host_out) override {
        join_into_first(); // leaves the first GPU current
        cuda_check(
            queue_display_range_on(device_values, count, device_scratch, host_out, first_stream()), "display range");
        return true;
    }

    void inject(int x, int y, int z, int radius, double value) override {
        synchronize(); // a neighbour may still be reading the rows (or the staged copies) it rewrites
        radius = std::max(radius, 0);
        if (m_config.problem.stencil == StencilKind::Diffusion4) { // a disc in one layer
            if (z < 0 || z >= m_config.problem.size.nz) return;
            StripState& s = owner(z);
            s.field->inject(x, y, z - s.strip.local_begin, radius, value);
            return;
        }
        const int axis = split_axis(m_config), centre = axis == 0 ? x : axis == 1 ? y : z;
        for (StripState& s : m_strips) {
            if (centre + radius < s.strip.update_begin || centre - radius >= s.strip.update_end) continue;
            const int shift = s.strip.local_begin; // each strip writes its own updated rows only
            s.field->inject(
                x - (axis == 0 ? shift : 0), y - (axis == 1 ? shift : 0), z - (axis == 2 ? shift : 0), radius, value);
        }
        exchange_only(); // the neighbours' ghost copies of the injected rows
        if (remote()) synchronize(); // nothing orders the neighbours' remote reads after the injection
    }

    void poison_output() override {
        synchronize();
        for (StripState& s : m_strips) { // remote mode: the ghost rows nothing may read, too
            s.field->poison_output();
            if (remote()) poison_ghost_rows(s, halo_rows());
        }
    }

    MultiGpuStats multi_gpu_stats() const override {
        harvest_timers();
        return strip_stats(m_config, m_strips, m_timers, halo_rows(), overlapped(), m_timed);
    }

private:
    void build(const std::vector<DeviceInfo>& devices) {
        const int n = int(m_plan.strips.size());
        m_strips.resize(std::size_t(n));
        m_timers.resize(std::size_t(n));
        for (int i = 0; i < n; ++i) {
            StripState& s = m_strips[i];
            s.strip = m_plan.strips[i];
            // Strips along the slow axis run the whole domain's text (same strides); box strips their own, and so
            // do temporal ones (its kernel takes the extent from compiled constants; its result does not depend on
            // a cell's place along the streaming axis, so any cut gives one GPU's bits).
            StencilConfig kernels
                = boxes() || temporal() ? strip_config(m_config, s.strip) : single_gpu_equivalent(m_config);
            if (remote()) kernels.placement.halo = HaloMode::Remote; // kernels that read the neighbours' rows
            kernels.placement.split = m_config.placement.split; // ... along this axis
            s.field = std::make_unique<CudaSimulation>(
                strip_config(m_config, s.strip), devices[std::size_t(s.strip.device)], kernels);
            if (m_plan.ghost_depth > 0) s.neighbour[kBelow] = i > 0 ? i - 1 : -1;
            if (m_plan.ghost_depth > 0) s.neighbour[kAbove] = i + 1 < n ? i + 1 : -1;
        }
        for (int i = 0; i < n; ++i) {
            StripState& s = m_strips[i];
            set_device(std::size_t(i));
            int least = 0, greatest = 0;
            cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
            cuda_check(cudaStreamCreateWithPriority(&s.halo, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
            for (cudaEvent_t* e : { &s.boundary_done, &s.received, &s.joined, &s.ready[0], &s.ready[1] })
                cuda_check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
            StripTimer& t = m_timers[std::size_t(i)];
            for (cudaEvent_t* e :
                { &t.compute_begin, &t.compute_end, &t.send_begin, &t.send_end, &t.receive_begin, &t.receive_end })
                cuda_check(cudaEventCreate(e), "cudaEventCreate");
            for (int side : { kBelow, kAbove })
                if (s.neighbour[side] >= 0)
                    s.path[side] = choose_halo_path(s, m_strips[s.neighbour[side]], m_config.placement.halo);
        }
        if (remote()) connect_neighbour_rows(m_strips, layer_stride());
        for (StripState& s : m_strips) // a strip stages what a neighbour receives staged
            for (int side : { kBelow, kAbove }) {
                if (s.neighbour[side] < 0 || m_strips[s.neighbour[side]].path[1 - side] != HaloPath::Staged) continue;
                s.sends_staged[side] = true;
                for (auto& parity : s.pinned)
                    cuda_check(
                        cudaHostAlloc(reinterpret_cast<void**>(&parity[side]), halo_bytes(), cudaHostAllocPortable),
                        "cudaHostAlloc");
            }
        set_device(0);
        cuda_check(cudaEventCreate(&m_start), "cudaEventCreate");
        cuda_check(cudaEventCreate(&m_stop), "cudaEventCreate");
        m_workers = std::make_unique<StripWorkers>(n);
    }

    void release() {
        m_workers.reset(); // joins the threads: nothing is queued any more
        for (std::size_t i = 0; i < m_strips.size(); ++i) {
            StripState& s = m_strips[i];
            if (!s.field) continue;
            set_device_nothrow(i);
            if (s.halo) {
                cudaStreamSynchronize(s.halo);
                cudaStreamDestroy(s.halo);
            }
            const StripTimer& t = m_timers[i];
            for (cudaEvent_t e : { s.boundary_done, s.received, s.joined, s.ready[0], s.ready[1], t.compute_begin,
                     t.compute_end, t.send_begin, t.send_end, t.receive_begin, t.receive_end })
                if (e) cudaEventDestroy(e);
            s.field->synchronize();
            for (auto& parity : s.pinned)
                for (unsigned char*& p : parity)
                    if (p) cudaFreeHost(p);
            if (s.scratch) cudaFree(s.scratch);
        }
        if (!m_strips.empty() && m_strips.front().field) set_device_nothrow(0);
        for (cudaEvent_t e : { m_start, m_stop })
            if (e) cudaEventDestroy(e);
        for (cudaEvent_t e : m_markers)
            if (e) cudaEventDestroy(e);
        m_strips.clear();
        m_timers.clear();
    }

    // Every strip takes its rows, ghosts included, straight from the global field: no exchange needed.
    void load(const double* current, const double* previous, long long iteration) {
        synchronize(); // neighbours may still be reading rows about to be overwritten
        m_workers->run([&](int i) {
            StripState& s = m_strips[i];
            if (boxes()) { // the strip's box, cut out on the host
                const Extent e = m_config.problem.size;
                const int axis = split_axis(m_config), first = s.strip.local_begin, count = s.strip.local_rows();
                const std::vector<double> now = extract_layers(current, e, axis, first, count);
                const std::vector<double> before
                    = previous ? extract_layers(previous, e, axis, first, count) : std::vector<double> {};
                s.field->upload_rows(now.data(), previous ? before.data() : nullptr);
            } else {
                const std::size_t offset = std::size_t(s.strip.local_begin) * row_cells();
                s.field->upload_rows(current + offset, previous ? previous + offset : nullptr);
            }
            s.field->set_iteration(iteration);
        });
        m_iteration = iteration;
        // Remote mode: a neighbour's first kernel reads these rows from another GPU, ordered by nothing but
        // the ready events of steps; the uploads (copies from pageable memory may still be in flight) must
        // be done first. Copy mode's first exchange is queued behind the upload on the same stream.
        if (remote()) synchronize();
    }

    // Steps the next launch takes: the temporal variant fuses its depth while as many remain, then single steps.
    int launch_steps(int remaining) const {
        const int depth = fused_steps(m_config.policy);
        return remaining >= depth ? depth : 1;
    }

    // ---- One launch (`steps` steps: one, or the temporal variant's fused depth) on one strip, on its worker thread.
    void step_strip(StripState& s, int steps, bool sample) {
        CudaSimulation& f = *s.field;
        StripTimer& timer = timer_of(s);
        cudaStream_t compute = f.stream();
        if (sample) timer.steps = steps, timer.steps_per_trade = fused_steps(m_config.policy);
        if (sample) cuda_check(cudaEventRecord(timer.compute_begin, compute), "cudaEventRecord");
        if (m_plan.ghost_depth == 0) { // diffusion layers: nothing to exchange
            f.launch_step();
            if (sample) record_sample_end(timer, timer.compute_end, compute);
            f.finish_step();
            return;
        }
        const int g = rows_begin(s), end = rows_end(s);
        const bool split = overlapped() && (s.neighbour[kBelow] >= 0 || s.neighbour[kAbove] >= 0);
        if (temporal()) { // the strip as a domain of its own: after `steps` steps its own rows are right
            f.launch_temporal(steps, compute);
        } else if (!split) {
            f.launch_star_rows(g, end, compute);
        } else { // the rows the neighbours need first, then the interior while they travel
            const int low = s.neighbour[kBelow] >= 0 ? std::min(2 * g, end) : g;
            const int high = s.neighbour[kAbove] >= 0 ? std::max(low, end - g) : end;
            if (low > g) f.launch_star_rows(g, low, compute);
            if (high < end) f.launch_star_rows(high, end, compute);
            cuda_check(cudaEventRecord(s.boundary_done, compute), "cudaEventRecord");
            if (high > low) f.launch_star_rows(low, high, compute);
        }
        if (sample) cuda_check(cudaEventRecord(timer.compute_end, compute), "cudaEventRecord");
        f.finish_step(steps);
        cudaStream_t exchange = overlapped() ? s.halo : compute;
        if (overlapped()) cuda_check(cudaStreamWaitEvent(exchange, s.boundary_done, 0), "cudaStreamWaitEvent");
        send(s, exchange, sample);
        m_workers->sync_point();
        receive(s, exchange, sample);
        if (overlapped()) {
            cuda_check(cudaEventRecord(s.received, exchange), "cudaEventRecord");
            cuda_check(cudaStreamWaitEvent(compute, s.received, 0), "cudaStreamWaitEvent");
        }
    }

    // The rows a strip's kernels update, in its row numbering: a box strip's whole slow axis.
    int rows_begin(const StripState& s) const {
        return boxes() ? m_plan.ghost_depth : s.strip.update_begin - s.strip.local_begin;
    }
    int rows_end(const StripState& s) const {
        return boxes() ? slow_extent(s.field->config().problem) - m_plan.ghost_depth
                       : rows_begin(s) + s.strip.updated_rows();
    }

    void send(StripState& s, cudaStream_t stream, bool sample) {
        send_halo(s, timer_of(s), halo_rows(), stream, sample);
    }
    void receive(StripState& s, cudaStream_t stream, bool sample) {
        receive_halo(s, m_strips, timer_of(s), halo_rows(), stream, sample);
    }

    // After inject: refresh every ghost copy of the current field, on the compute streams.
    void exchange_only() {
        if (m_plan.ghost_depth == 0) return;
        m_workers->run([&](int i) {
            StripState& s = m_strips[i];
            cuda_check(cudaSetDevice(s.field->device()), "cudaSetDevice");
            send(s, s.field->stream(), false);
            m_workers->sync_point();
            receive(s, s.field->stream(), false);
        });
    }

    StripTimer& timer_of(const StripState& s) { return m_timers[std::size_t(&s - m_strips.data())]; }
    void harvest_timers() const {
        for (std::size_t i = 0; i < m_strips.size(); ++i)
            if (harvest_strip_timer(m_strips[i], m_timers[i])) m_timed = true;
    }

    void join_into_first() {
        for (std::size_t i = 1; i < m_strips.size(); ++i) {
            set_device(i);
            cuda_check(cudaEventRecord(m_strips[i].joined, m_strips[i].field->stream()), "cudaEventRecord");
        }
        set_device(0);
        for (std::size_t i = 1; i < m_strips.size(); ++i)
            cuda_check(cudaStreamWaitEvent(first_stream(), m_strips[i].joined, 0), "cudaStreamWaitEvent");
    }

    std::vector<double> gather(bool previous) {
        std::vector<double> out(std::size_t(m_config.problem.size.cells()));
        m_workers->run([&](int i) {
            StripState& s = m_strips[i];
            const int skip = s.strip.first_row - s.strip.local_begin, count = s.strip.end_row - s.strip.first_row;
            if (!boxes()) {
                s.field->download_rows(
                    skip, count, out.data() + std::size_t(s.strip.first_row) * row_cells(), previous);
                return;
            }
            const Extent local = s.field->config().problem.size;
            std::vector<double> box(std::size_t(local.cells()));
            s.field->download_rows(0, slow_extent(local_problem(s)), box.data(), previous);
            insert_layers(box.data(), local, split_axis(m_config), skip, s.strip.first_row, count, out.data(),
                m_config.problem.size);
        });
        return out;
    }

    bool remote() const { return m_config.placement.halo == HaloMode::Remote; }
    // Remote mode has no copy to hide; box strips cannot compute their boundary first (check_strips refuses); a
    // temporal launch computes the whole strip (its ghost rows too), so its exchange follows it: overlap does not
    // apply.
    bool overlapped() const { return m_config.placement.overlap && !remote() && !boxes() && !temporal(); }
    bool temporal() const { return m_config.policy.variant == Variant::Temporal; }
    bool boxes() const { return !splits_slowest(m_config); } // strips along x, or y in 3D: boxes of the domain
    static const StencilProblem& local_problem(const StripState& s) { return s.field->config().problem; }
    StripState& owner(int row) {
        for (StripState& s : m_strips)
            if (row < s.strip.end_row) return s;
        return m_strips.back();
    }
    std::size_t row_cells() const { return std::size_t(m_config.problem.size.cells() / split_extent(m_config)); }
    std::size_t row_bytes() const { return m_strips.front().field->row_bytes(); }
    std::size_t halo_bytes() const { return halo_rows().bytes(); }
    HaloRows halo_rows() const {
        HaloRows rows { m_plan.ghost_depth, row_bytes() };
        if (!boxes()) return rows;
        rows.box_axis = split_axis(m_config);
        rows.layer = m_config.problem.size;
        extent_along(rows.layer, rows.box_axis) = m_plan.ghost_depth;
        rows.element_bytes = std::size_t(element_size(m_config.problem.precision));
        return rows;
    }
    // Bytes between consecutive layers along the split axis (remote strips have equal widths: check_strips).
    std::size_t layer_stride() const {
        if (!boxes()) return row_bytes();
        const std::size_t es = std::size_t(element_size(m_config.problem.precision));
        return split_axis(m_config) == 0 ? es : es * std::size_t(local_problem(m_strips.front()).size.nx);
    }
    cudaStream_t first_stream() const { return m_strips.front().field->stream(); }
    void set_device(std::size_t strip) const {
        cuda_check(cudaSetDevice(m_strips[strip].field->device()), "cudaSetDevice");
    }
    void set_device_nothrow(std::size_t strip) const { cudaSetDevice(m_strips[strip].field->device()); }

    StencilConfig m_config;
    StripPlan m_plan;
    std::vector<StripState> m_strips;
    mutable std::vector<StripTimer> m_timers; // per strip; harvesting them is not a change of state
    std::unique_ptr<StripWorkers> m_workers;
    cudaEvent_t m_start = nullptr, m_stop = nullptr;
    static constexpr int kMarkers = 4;
    cudaEvent_t m_markers[kMarkers] = {};
    std::uint64_t m_next_marker = 0;
    long long m_iteration = 0;
    mutable bool m_timed = false;
};

} // namespace

std::unique_ptr<Simulation> create_multi_gpu_simulation(
    const StencilConfig& c, const std::vector<DeviceInfo>& devices, std::string* why) {
    try {
        return std::make_unique<MultiGpuSimulation>(c, devices);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        cudaGetLastError(); // clear a sticky-free error so the next configuration can start
        return nullptr;
    }
}

} // namespace ss
