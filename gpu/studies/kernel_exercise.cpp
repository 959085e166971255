// SPDX-License-Identifier: MIT
#include "gpu/studies/kernel_exercise.h"

#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/create_simulation.h"
#include "gpu/backends/exercise_kernel.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/rates.h"
#include "gpu/studies/autotune.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <set>

namespace ss {
namespace {

// The shortest decimal that reads back as `v` (0.25, 0.083333333333333329): exact, and readable where it can be.
std::string exact_decimal(double v) {
    char buf[64];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

// The field the correctness check runs on: odd sizes, multiples of neither the block nor a warp.
StencilConfig check_config(const StencilConfig& c) {
    StencilConfig check = c;
    const int r = c.problem.radius;
    check.problem.size = Extent { 2 * r + 251, 2 * r + 133, 1 };
    return check;
}

// The cells a step updates (the border of width R stays fixed).
std::vector<double> interior(const StencilConfig& c, const std::vector<double>& f) {
    std::vector<double> out;
    const int r = c.problem.radius, nx = c.problem.size.nx, ny = c.problem.size.ny;
    for (int y = r; y < ny - r; ++y)
        for (int x = r; x < nx - r; ++x) out.push_back(f[std::size_t(y) * nx + x]);
    return out;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
    double most = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d = std::fabs(a[i] - b[i]);
        if (std::isnan(d)) return std::numeric_limits<double>::infinity(); // a cell never written, or NaN computed
        most = std::max(most, d);
    }
    return most;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// Checks the device's answers against the double-precision reference; fills the error figures and verdict.
void judge(const StencilConfig& check, const std::vector<double>& initial, int steps, const ExerciseKernelRun& run,
    KernelExerciseResult& out) {
    const std::vector<double> one = interior(check, cpu_reference(check, initial, 1));
    const std::vector<double> got_one = interior(check, run.one_step);
    const std::vector<double> many = cpu_reference(check, initial, steps);
    const double one_error = relative_l2_error(got_one, one), many_error = relative_l2_error(run.after_steps, many);
    out.relative_error = std::max(one_error, many_error);
    out.max_abs_error = std::max(max_abs_difference(got_one, one), max_abs_difference(run.after_steps, many));
    const double tolerance = exercise_tolerance(check.problem.precision);
    out.passed = one_error < tolerance && many_error < tolerance;
    const std::string bound = " (tolerance " + number(tolerance) + ")";
    if (out.passed)
        out.verdict = "matches the CPU reference: relative error " + number(out.relative_error) + bound;
    else if (!(one_error < tolerance))
        out.verdict = "one step differs from the CPU reference: relative error " + number(one_error) + bound
            + (std::isinf(one_error) ? "; some updated cells were never written or are NaN" : "");
    else
        out.verdict = "after " + std::to_string(steps)
            + " steps the field differs from the CPU reference: relative error " + number(many_error) + bound
            + " (is the border, R cells wide, left alone?)";
}

// The built-in base kernel (CF 1, heuristic block) on the same field, timed as autotune and experiments time.
double builtin_gcells_per_s(const StencilConfig& c, const DeviceCatalogue& catalogue, std::string& error) {
    StencilConfig base = c;
    base.policy = KernelPolicy {};
    base.policy.variant = Variant::Base;
    std::string why;
    if (Status s = can_implement(base, catalogue); !s) {
        error = s.reason;
        return 0.0;
    }
    auto sim = create_simulation(base, catalogue, &why);
    if (!sim) {
        error = why;
        return 0.0;
    }
    sim->upload(make_initial_field(base, InitialCondition::Random, 11));
    return gcells_per_s(base, median_ms_per_step(*sim, 10, 5));
}

} // namespace

StencilConfig exercise_config(const StencilConfig& window) {
    StencilConfig c;
    c.problem.stencil = StencilKind::Star;
    c.problem.rule = UpdateRule::Jacobi;
    c.problem.dims = 2;
    c.problem.radius = std::clamp(window.problem.radius, 1, 16);
    c.problem.precision = window.problem.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32;
    c.problem.size = window.problem.dims == 2 ? window.problem.size : Extent { 4096, 4096, 1 };
    c.placement.backend = Backend::Cuda;
    c.placement.device = window.placement.backend == Backend::Cuda ? window.placement.device : 0;
    return c;
}

std::string exercise_template(const StencilConfig& c) {
    const int r = c.problem.radius;
    const StarWeights w = star_weights(UpdateRule::Jacobi, 2, r);
    std::string s;
    s += "// Write the kernel: one step of the 2D star stencil of radius R, jacobi rule.\n";
    s += "// out(i, j) = sum over d = 1..R of weight(d) * (in(i-d, j) + in(i+d, j) + in(i, j-d) + in(i, j+d)).\n";
    s += "// The field is nx x ny values, x fastest. The border (R cells wide) is never written: it stays fixed.\n";
    s += "// The app launches 32x8 threads per block, enough blocks to cover nx x ny, and checks the result\n";
    s += "// against its CPU reference, then times it beside the built-in base kernel.\n";
    s += c.problem.precision == Precision::FP64 ? "typedef double T;\n" : "typedef float T;\n";
    s += "#define R " + std::to_string(r) + "\n\n";
    s += "// The app's weights (exact): 1 / (2 * dims * R) for every neighbour.\n";
    s += "__device__ __forceinline__ T weight(int d)\n{\n    switch (d) {\n";
    for (int d = 1; d <= r; ++d)
        s += "    case " + std::to_string(d) + ": return T(" + exact_decimal(w.neighbour[d]) + ");\n";
    s += "    }\n    return T(0);\n}\n\n";
    s += "extern \"C\" __global__ void " + std::string(kExerciseEntry) + "(const T* in, T* out, int nx, int ny)\n{\n";
    s += "    " + std::string(kExerciseBodyBegin) + "\n";
    s += "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n";
    s += "    const int j = blockIdx.y * blockDim.y + threadIdx.y;\n";
    s += "    if (i < R || i >= nx - R || j < R || j >= ny - R) return; // the border stays fixed\n";
    s += "    const long long idx = (long long)j * nx + i;\n";
    s += "    T acc = T(0);\n";
    s += "    for (int d = 1; d <= R; ++d)\n";
    s += "        acc += weight(d) * (in[idx - d] + in[idx + d] + in[idx - (long long)d * nx] + in[idx + (long long)d "
         "* nx]);\n";
    s += "    out[idx] = acc;\n";
    s += "    " + std::string(kExerciseBodyEnd) + "\n}\n";
    return s;
}

int exercise_body_line(const std::string& text) {
    std::size_t at = 0;
    for (int line = 1;; ++line) {
        const std::size_t end = text.find('\n', at);
        if (text.substr(at, end == std::string::npos ? std::string::npos : end - at).find(kExerciseBodyBegin)
            != std::string::npos)
            return line + 1;
        if (end == std::string::npos) return 0;
        at = end + 1;
    }
}

std::vector<int> compile_error_lines(const std::string& log) {
    static const std::regex blamed(R"(\((\d+)\): (catastrophic )?error)");
    std::set<int> lines;
    for (auto it = std::sregex_iterator(log.begin(), log.end(), blamed); it != std::sregex_iterator(); ++it)
        lines.insert(std::atoi((*it)[1].str().c_str()));
    return { lines.begin(), lines.end() };
}

KernelExerciseResult run_kernel_exercise(
    const StencilConfig& c, const std::string& text, const DeviceCatalogue& catalogue) {
    KernelExerciseResult out;
    out.config = c;
    const DeviceInfo* device = catalogue.find(c.placement.device);
    const int cc_major = device ? device->cc_major : 9, cc_minor = device ? device->cc_minor : 0;
    if (!device) {
        const ExerciseCompile compiled = compile_exercise_kernel(text, cc_major, cc_minor);
        out.compiled = compiled.compiled;
        out.log = compiled.log;
        if (!compiled.nvrtc_missing) out.error_lines = compile_error_lines(compiled.log);
        out.not_run = "the run needs a CUDA GPU: "
            + (catalogue.unavailable.empty() ? std::string("none was found") : catalogue.unavailable);
        return out;
    }
    out.device_name = device->name;
    ExerciseKernelRequest q;
    q.source = text;
    q.entry = kExerciseEntry;
    q.check = check_config(c);
    q.initial = make_initial_field(q.check, InitialCondition::Random, 42);
    if (c.problem.precision == Precision::FP32) // what the device holds, so that the reference starts there too
        for (double& v : q.initial) v = double(float(v));
    q.timed = c;
    q.device = c.placement.device, q.cc_major = cc_major, q.cc_minor = cc_minor;
    const ExerciseKernelRun run = run_exercise_kernel(q);
    out.compiled = run.compile.compiled;
    out.log = run.compile.log;
    if (!run.compile.nvrtc_missing) out.error_lines = compile_error_lines(run.compile.log);
    if (!out.compiled) return out;
    if (!run.error.empty()) {
        out.not_run = "the kernel failed on the GPU: " + run.error;
        out.verdict = out.not_run;
        return out;
    }
    out.ran = true;
    judge(q.check, q.initial, q.steps, run, out);
    out.ours_gcells_per_s = gcells_per_second(double(updated_cells(c)), 1, run.ms_per_step);
    try {
        out.builtin_gcells_per_s = builtin_gcells_per_s(c, catalogue, out.builtin_error);
    } catch (const std::exception& e) {
        out.builtin_error = e.what();
    }
    return out;
}

} // namespace ss
