// SPDX-License-Identifier: MIT
#include "gpu/backends/fault_injection.h"

#include "gpu/plan/knobs.h"

#include <stdexcept>

namespace ss {
namespace {

class FaultInjectingSimulation final : public Simulation {
public:
    FaultInjectingSimulation(std::unique_ptr<Simulation> inner, long long fail_after)
        : m_inner(std::move(inner))
        , m_fail_after(fail_after) { }

    const StencilConfig& config() const override { return m_inner->config(); }
    const KernelResources& resources() const override { return m_inner->resources(); }
    void upload(const std::vector<double>& field) override { m_inner->upload(field); }
    StepTiming step(int n) override {
        check(n);
        return m_inner->step(n);
    }
    void step_async(int n) override {
        check(n);
        m_inner->step_async(n);
    }
    void synchronize() override { m_inner->synchronize(); }
    std::uint64_t enqueue_marker() override { return m_inner->enqueue_marker(); }
    void wait_marker(std::uint64_t marker) override { m_inner->wait_marker(marker); }
    std::vector<double> download() override { return m_inner->download(); }
    std::vector<float> download_slice(SliceAxis axis, int index) override {
        return m_inner->download_slice(axis, index);
    }
    bool slice_to_device(SliceAxis axis, int index, float* out, int step) override {
        return m_inner->slice_to_device(axis, index, out, step);
    }
    bool queue_display_range(const float* values, std::size_t count, unsigned* scratch, unsigned* host) override {
        return m_inner->queue_display_range(values, count, scratch, host);
    }
    void inject(int x, int y, int z, int radius_cells, double value) override {
        m_inner->inject(x, y, z, radius_cells, value);
    }
    long long iteration() const override { return m_inner->iteration(); }
    void poison_output() override { m_inner->poison_output(); }
    MultiGpuStats multi_gpu_stats() const override { return m_inner->multi_gpu_stats(); }
    FieldState save_state() override { return m_inner->save_state(); }
    void restore_state(const FieldState& s) override { m_inner->restore_state(s); }

private:
    void check(int n) {
        m_steps += n;
        if (m_steps > m_fail_after)
            throw std::runtime_error("the device stopped answering after " + std::to_string(m_fail_after)
                + " steps (injected by STENCILSCOPE_INJECT_FAULT_AFTER)");
    }

    std::unique_ptr<Simulation> m_inner;
    long long m_fail_after;
    long long m_steps = 0;
};

} // namespace

std::unique_ptr<Simulation> with_fault_injection(std::unique_ptr<Simulation> sim) {
    const long long after = knob_integer(Knob::InjectFaultAfter); // read at each creation: tests set it mid-run
    if (!sim || after <= 0) return sim;
    return std::make_unique<FaultInjectingSimulation>(std::move(sim), after);
}

bool injected_allocation_failure(const StencilConfig& c, std::string* why) {
    const long long limit = knob_integer(Knob::InjectAllocationFailureCells);
    if (limit <= 0 || c.problem.size.cells() <= limit) return false;
    if (why) *why = "out of memory allocating the field (injected: more than " + std::to_string(limit) + " cells)";
    return true;
}

} // namespace ss
