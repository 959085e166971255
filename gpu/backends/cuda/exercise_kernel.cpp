// SPDX-License-Identifier: MIT
// A student's kernel on the device (gpu/backends/exercise_kernel.h). It is built without the process's
// module cache and the disk cache (kernel_compiler.h): every attempt differs and none is worth keeping.
#include "gpu/backends/exercise_kernel.h"

#include "gpu/backends/cuda/cuda_check.h"
#include "gpu/backends/cuda/kernel_compiler.h"
#include "gpu/problem/cuda_support.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

namespace ss {
namespace {

constexpr std::string_view kLogPrefix = "kernel compilation failed: "; // kernel_compiler.cpp's CudaError

// A field on the device with guard cells before and after it (stray indices of a wrong kernel land there).
class GuardedField {
public:
    GuardedField(std::int64_t cells, std::size_t element, std::int64_t guard)
        : m_cells(cells)
        , m_element(element)
        , m_guard(guard) {
        cuda_check(cudaMalloc(&m_base, std::size_t(cells + 2 * guard) * element), "cudaMalloc");
        cuda_check(cudaMemset(m_base, 0, std::size_t(cells + 2 * guard) * element), "cudaMemset");
    }
    ~GuardedField() { cudaFree(m_base); }
    GuardedField(const GuardedField&) = delete;
    GuardedField& operator=(const GuardedField&) = delete;
    void* data() const { return static_cast<char*>(m_base) + m_guard * m_element; }
    void upload(const std::vector<unsigned char>& bytes) {
        cuda_check(cudaMemcpy(data(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "upload");
    }
    void poison() { cuda_check(cudaMemset(data(), 0xFF, std::size_t(m_cells) * m_element), "poison"); } // NaN
    std::vector<double> download() const {
        std::vector<unsigned char> bytes(std::size_t(m_cells) * m_element);
        cuda_check(cudaMemcpy(bytes.data(), data(), bytes.size(), cudaMemcpyDeviceToHost), "download");
        std::vector<double> out(static_cast<std::size_t>(m_cells));
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (m_element == sizeof(float)) {
                float v;
                std::memcpy(&v, &bytes[i * sizeof v], sizeof v);
                out[i] = v;
            } else {
                std::memcpy(&out[i], &bytes[i * sizeof(double)], sizeof(double));
            }
        }
        return out;
    }

private:
    void* m_base = nullptr;
    std::int64_t m_cells;
    std::size_t m_element;
    std::int64_t m_guard;
};

std::vector<unsigned char> as_bytes(const std::vector<double>& values, std::size_t element) {
    std::vector<unsigned char> bytes(values.size() * element);
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (element == sizeof(float)) {
            const float v = float(values[i]);
            std::memcpy(&bytes[i * sizeof v], &v, sizeof v);
        } else {
            std::memcpy(&bytes[i * sizeof(double)], &values[i], sizeof(double));
        }
    }
    return bytes;
}

struct Launcher {
    const void* kernel;
    int nx, ny;
    void operator()(const GuardedField& in, GuardedField& out) const {
        const void* from = in.data();
        void* to = out.data();
        int x = nx, y = ny;
        void* args[] = { &from, &to, &x, &y };
        const dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
        cuda_check(cudaLaunchKernel(kernel, grid, block, args, 0, nullptr), "the kernel's launch");
    }
};

std::int64_t guard_cells(const StencilConfig& c) {
    return std::int64_t(c.problem.size.nx) * 4 * std::max(c.problem.radius, 1) + 1024; // a few rows either side
}

} // namespace

ExerciseCompile compile_exercise_kernel(const std::string& source, int cc_major, int cc_minor) {
    ExerciseCompile c;
    if (const std::string missing = nvrtc_unavailable_reason(); !missing.empty()) {
        c.nvrtc_missing = true;
        c.log = missing;
        return c;
    }
    std::string log = nvrtc_compile_errors(source, cc_major, cc_minor);
    if (log.rfind(kLogPrefix, 0) == 0) log.erase(0, kLogPrefix.size());
    c.compiled = log.empty();
    c.log = std::move(log);
    return c;
}

ExerciseKernelRun run_exercise_kernel(const ExerciseKernelRequest& q) {
    ExerciseKernelRun r;
    r.compile = compile_exercise_kernel(q.source, q.cc_major, q.cc_minor);
    if (!r.compile.compiled) return r;
    try {
        cuda_check(cudaSetDevice(q.device), "cudaSetDevice");
        const std::vector<char> image = nvrtc_compile_image(q.source, q.cc_major, q.cc_minor);
        cudaLibrary_t library = nullptr;
        cuda_check(cudaLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
            "cudaLibraryLoadData");
        const CompiledModule module(library, 0.0, false); // unloads the library when done
        const void* kernel = nullptr;
        try {
            kernel = module.kernel(q.entry.c_str());
        } catch (const CudaError&) {
            r.compile.compiled = false;
            r.compile.log = "the text has no kernel named " + q.entry + " (keep extern \"C\" and the name)";
            return r;
        }
        const std::size_t element = element_size(q.check.problem.precision);
        const std::int64_t cells = q.check.problem.size.cells();
        const std::vector<unsigned char> initial = as_bytes(q.initial, element);
        GuardedField a(cells, element, guard_cells(q.check)), b(cells, element, guard_cells(q.check));
        const Launcher check { kernel, q.check.problem.size.nx, q.check.problem.size.ny };
        a.upload(initial);
        b.poison();
        check(a, b);
        cuda_check(cudaDeviceSynchronize(), "the kernel");
        r.one_step = b.download();
        a.upload(initial);
        b.upload(initial);
        for (int s = 0; s < q.steps; ++s) s % 2 ? check(b, a) : check(a, b);
        cuda_check(cudaDeviceSynchronize(), "the kernel");
        r.after_steps = q.steps % 2 ? b.download() : a.download();

        const std::int64_t timed_cells = q.timed.problem.size.cells();
        GuardedField c(timed_cells, element, guard_cells(q.timed)), d(timed_cells, element, guard_cells(q.timed));
        const Launcher timed { kernel, q.timed.problem.size.nx, q.timed.problem.size.ny };
        cudaEvent_t start = nullptr, stop = nullptr;
        cuda_check(cudaEventCreate(&start), "cudaEventCreate");
        cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
        const std::unique_ptr<CUevent_st, decltype(&cudaEventDestroy)> own_start(start, cudaEventDestroy),
            own_stop(stop, cudaEventDestroy);
        std::vector<double> ms;
        for (int run = 0; run <= q.repeats; ++run) { // run 0 warms up
            cuda_check(cudaEventRecord(start), "cudaEventRecord");
            for (int s = 0; s < q.timed_steps; ++s) s % 2 ? timed(d, c) : timed(c, d);
            cuda_check(cudaEventRecord(stop), "cudaEventRecord");
            cuda_check(cudaEventSynchronize(stop), "the timed kernel");
            float elapsed = 0.0f;
            cuda_check(cudaEventElapsedTime(&elapsed, start, stop), "cudaEventElapsedTime");
            if (run > 0) ms.push_back(double(elapsed) / std::max(q.timed_steps, 1));
        }
        std::sort(ms.begin(), ms.end());
        r.ms_per_step = ms.empty() ? 0.0 : ms[ms.size() / 2];
    } catch (const std::exception& e) {
        r.error = e.what();
        (void)cudaGetLastError();
    }
    return r;
}

} // namespace ss
