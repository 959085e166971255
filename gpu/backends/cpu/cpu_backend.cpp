// SPDX-License-Identifier: MIT
#include "gpu/backends/cpu/cpu_backend.h"

#include "gpu/problem/physics.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>

namespace ss {
namespace {

// A pool of workers that lives for the process: starting threads every step capped small fields at
// ~10k steps/s. One parallel section runs at a time (a mutex serialises callers from several threads).
class WorkerPool {
public:
    static WorkerPool& instance() {
        static WorkerPool pool;
        return pool;
    }

    // Runs body(begin, end) over [0, n) split across the host's cores; returns when all are done.
    void run(int n, const std::function<void(int, int)>& body) {
        const int chunks = std::min(int(m_workers.size()) + 1, std::max(n, 1));
        if (chunks <= 1) {
            body(0, n);
            return;
        }
        std::lock_guard section(m_section);
        {
            std::lock_guard lock(m_mutex);
            m_body = &body;
            m_n = n;
            m_chunks = chunks;
            m_pending = chunks - 1;
            ++m_generation;
        }
        m_wake.notify_all();
        body(0, int(std::int64_t(n) / chunks));
        std::unique_lock lock(m_mutex);
        m_done.wait(lock, [this] { return m_pending == 0; });
        m_body = nullptr;
    }

    ~WorkerPool() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (auto& t : m_workers) t.join();
    }

private:
    WorkerPool() {
        const int count = std::clamp(int(std::thread::hardware_concurrency()), 1, 64) - 1;
        for (int i = 0; i < count; ++i) m_workers.emplace_back([this, i] { work(i + 1); });
    }

    void work(int index) {
        std::uint64_t seen = 0;
        while (true) {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
            if (index >= m_chunks) continue; // this section needs fewer workers
            const auto* body = m_body;
            const int n = m_n, chunks = m_chunks;
            lock.unlock();
            (*body)(int(std::int64_t(n) * index / chunks), int(std::int64_t(n) * (index + 1) / chunks));
            lock.lock();
            if (--m_pending == 0) m_done.notify_one();
        }
    }

    std::vector<std::thread> m_workers;
    std::mutex m_section, m_mutex;
    std::condition_variable m_wake, m_done;
    const std::function<void(int, int)>* m_body = nullptr;
    int m_n = 0, m_chunks = 0, m_pending = 0;
    std::uint64_t m_generation = 0;
    bool m_stop = false;
};

void parallel_for(int n, const std::function<void(int, int)>& body) {
    WorkerPool::instance().run(n, body);
}

template <typename T> class CpuSimulation final : public Simulation {
public:
    explicit CpuSimulation(const StencilConfig& c)
        : m_config(c)
        , m_weights(star_weights(c.problem.rule, c.problem.dims, c.problem.radius))
        , m_current(c.problem.size.cells(), T(0))
        , m_other(c.problem.size.cells(), T(0)) {
        m_resources.block = { 0, 0, 0 };
        m_resources.kernel = cpu_loop_choice();
        if (c.problem.stencil == StencilKind::Diffusion4) m_tmp.assign(c.problem.size.cells(), T(0));
    }

    const StencilConfig& config() const override { return m_config; }
    const KernelResources& resources() const override { return m_resources; }
    long long iteration() const override { return m_iteration; }

    void upload(const std::vector<double>& field) override {
        std::transform(field.begin(), field.end(), m_current.begin(), [](double v) { return T(v); });
        m_other = m_current; // Dirichlet border in both buffers; the wave starts at rest (u(t-1) = u(t))
        m_iteration = 0;
    }

    StepTiming step(int n) override {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i) {
            if (m_config.problem.stencil == StencilKind::Star)
                star_step();
            else if (m_config.problem.stencil == StencilKind::Points)
                points_step();
            else
                diffusion_step();
            std::swap(m_current, m_other);
            ++m_iteration;
        }
        const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
        return { ms.count(), n };
    }

    void poison_output() override { std::fill(m_other.begin(), m_other.end(), std::numeric_limits<T>::quiet_NaN()); }

    std::vector<double> download() override { return { m_current.begin(), m_current.end() }; }
    unsigned char* current_buffer() { return reinterpret_cast<unsigned char*>(m_current.data()); }

    FieldState save_state() override {
        FieldState s { download(), {}, m_iteration };
        if (m_config.problem.stencil == StencilKind::Star && m_config.problem.rule == UpdateRule::Wave)
            s.previous.assign(m_other.begin(), m_other.end());
        return s;
    }

    void restore_state(const FieldState& state) override {
        upload(state.current);
        if (state.previous.size() == m_other.size())
            std::transform(
                state.previous.begin(), state.previous.end(), m_other.begin(), [](double v) { return T(v); });
        m_iteration = state.iteration;
    }

    std::vector<float> download_slice(SliceAxis axis, int index) override {
        const int nx = m_config.problem.size.nx, ny = m_config.problem.size.ny, nz = m_config.problem.size.nz;
        std::vector<float> out;
        auto at = [&](int x, int y, int z) { return float(m_current[(std::size_t(z) * ny + y) * nx + x]); };
        if (axis == SliceAxis::XY) {
            index = std::clamp(index, 0, nz - 1);
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x) out.push_back(at(x, y, index));
        } else if (axis == SliceAxis::XZ) {
            index = std::clamp(index, 0, ny - 1);
            for (int z = 0; z < nz; ++z)
                for (int x = 0; x < nx; ++x) out.push_back(at(x, index, z));
        } else {
            index = std::clamp(index, 0, nx - 1);
            for (int z = 0; z < nz; ++z)
                for (int y = 0; y < ny; ++y) out.push_back(at(index, y, z));
        }
        return out;
    }

    void inject(int cx, int cy, int cz, int radius, double value) override {
        const Extent e = m_config.problem.size;
        const int lo = has_dirichlet_border(m_config.problem.stencil) ? m_config.problem.radius : 0; // keep the border
        for (int z = std::max(cz - radius, 0); z <= std::min(cz + radius, e.nz - 1); ++z)
            for (int y = std::max(cy - radius, lo); y <= std::min(cy + radius, e.ny - 1 - lo); ++y)
                for (int x = std::max(cx - radius, lo); x <= std::min(cx + radius, e.nx - 1 - lo); ++x) {
                    if (m_config.problem.dims == 3 && (z < lo || z > e.nz - 1 - lo)) continue;
                    const int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
                    if (d2 <= radius * radius) m_current[(std::size_t(z) * e.ny + y) * e.nx + x] = T(value);
                }
    }

private:
    void star_step() {
        const int nx = m_config.problem.size.nx, ny = m_config.problem.size.ny, nz = m_config.problem.size.nz,
                  r = m_config.problem.radius;
        const bool three = m_config.problem.dims == 3, wave = m_config.problem.rule == UpdateRule::Wave;
        const std::size_t sy = nx, sz = std::size_t(nx) * ny;
        const T* in = m_current.data();
        T* out = m_other.data();
        const int zlo = three ? r : 0, zhi = three ? nz - r : 1;
        parallel_for((zhi - zlo) * (ny - 2 * r), [&](int begin, int end) {
            for (int row = begin; row < end; ++row) {
                const int z = zlo + row / (ny - 2 * r), y = r + row % (ny - 2 * r);
                for (int x = r; x < nx - r; ++x) {
                    const std::size_t i = z * sz + y * sy + x;
                    T acc = T(m_weights.centre) * in[i];
                    for (int d = 1; d <= r; ++d) {
                        T pair = in[i - d] + in[i + d] + in[i - d * sy] + in[i + d * sy];
                        if (three) pair += in[i - d * sz] + in[i + d * sz];
                        acc += T(m_weights.neighbour[d]) * pair;
                    }
                    out[i] = wave ? acc - out[i] : acc;
                }
            }
        });
    }

    // A point stencil, jacobi form: out = sum_i w_i * in[x + d_i], the products added in the shape's (canonical)
    // order; cells within R of the border are never written (Dirichlet), as the star's.
    void points_step() {
        const int nx = m_config.problem.size.nx, ny = m_config.problem.size.ny, nz = m_config.problem.size.nz,
                  r = m_config.problem.radius;
        const bool three = m_config.problem.dims == 3;
        const std::size_t sy = nx, sz = std::size_t(nx) * ny;
        std::vector<std::ptrdiff_t> offsets;
        std::vector<T> weights;
        for (const StencilPoint& p : m_config.problem.shape->points) {
            offsets.push_back(
                p.dx + std::ptrdiff_t(p.dy) * std::ptrdiff_t(sy) + std::ptrdiff_t(p.dz) * std::ptrdiff_t(sz));
            weights.push_back(T(p.weight));
        }
        const T* in = m_current.data();
        T* out = m_other.data();
        const int zlo = three ? r : 0, zhi = three ? nz - r : 1;
        parallel_for((zhi - zlo) * (ny - 2 * r), [&](int begin, int end) {
            for (int row = begin; row < end; ++row) {
                const int z = zlo + row / (ny - 2 * r), y = r + row % (ny - 2 * r);
                for (int x = r; x < nx - r; ++x) {
                    const std::ptrdiff_t i = std::ptrdiff_t(z * sz + y * sy + x);
                    T acc = T(0);
                    for (std::size_t k = 0; k < offsets.size(); ++k) acc += weights[k] * in[i + offsets[k]];
                    out[i] = acc;
                }
            }
        });
    }

    // Fourth-order diffusion on independent periodic layers: out = in - alpha * lap(lap(in)).
    void diffusion_step() {
        const int nx = m_config.problem.size.nx, ny = m_config.problem.size.ny, nz = m_config.problem.size.nz;
        auto lap = [nx, ny](const T* f, int x, int y) {
            const int xm = (x + nx - 1) % nx, xp = (x + 1) % nx, ym = (y + ny - 1) % ny, yp = (y + 1) % ny;
            return T(-4) * f[std::size_t(y) * nx + x] + f[std::size_t(y) * nx + xm] + f[std::size_t(y) * nx + xp]
                + f[std::size_t(ym) * nx + x] + f[std::size_t(yp) * nx + x];
        };
        const std::size_t layer = std::size_t(nx) * ny;
        parallel_for(nz * ny, [&](int begin, int end) {
            for (int row = begin; row < end; ++row) {
                const int z = row / ny, y = row % ny;
                for (int x = 0; x < nx; ++x) m_tmp[z * layer + y * nx + x] = lap(m_current.data() + z * layer, x, y);
            }
        });
        parallel_for(nz * ny, [&](int begin, int end) {
            for (int row = begin; row < end; ++row) {
                const int z = row / ny, y = row % ny;
                for (int x = 0; x < nx; ++x) {
                    const std::size_t i = z * layer + y * nx + x;
                    m_other[i] = m_current[i] - T(kDiffusionAlpha) * lap(m_tmp.data() + z * layer, x, y);
                }
            }
        });
    }

    StencilConfig m_config;
    StarWeights m_weights;
    KernelResources m_resources;
    std::vector<T> m_current, m_other, m_tmp;
    long long m_iteration = 0;
};

} // namespace

std::unique_ptr<Simulation> create_cpu_simulation(const StencilConfig& c) {
    if (c.problem.precision == Precision::FP64) return std::make_unique<CpuSimulation<double>>(c);
    return std::make_unique<CpuSimulation<float>>(c);
}

unsigned char* cpu_current_buffer(Simulation& sim) {
    if (auto* f = dynamic_cast<CpuSimulation<float>*>(&sim)) return f->current_buffer();
    if (auto* d = dynamic_cast<CpuSimulation<double>*>(&sim)) return d->current_buffer();
    return nullptr;
}

std::vector<double> cpu_reference(const StencilConfig& config, const std::vector<double>& initial, int steps) {
    CpuSimulation<double> sim(config);
    sim.upload(initial);
    sim.step(steps);
    return sim.download();
}

} // namespace ss

namespace ss {
double relative_l2_error(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
    long double diff = 0, norm = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const long double d = (long double)a[i] - b[i];
        diff += d * d;
        norm += (long double)b[i] * b[i];
    }
    if (!std::isfinite(double(diff))) return std::numeric_limits<double>::infinity();
    if (norm == 0) return diff == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return double(std::sqrt(diff / norm));
}
} // namespace ss
