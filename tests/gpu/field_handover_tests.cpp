// SPDX-License-Identifier: MIT
// Issue 40: a turned knob on one GPU hands the field over on the device (create_on_field) instead of a trip through
// the host. The run must go on exactly as the host path would have carried it: bitwise the same field after more
// steps, the wave's u(t-1) kept on a same-field move, the run restarted at rest from the current field otherwise.
#include "gpu_test_util.h"

using namespace ss;

namespace {

StencilConfig wave(Variant variant, int radius, Precision precision, int dims) {
    StencilConfig c;
    c.problem.rule = UpdateRule::Wave; // its second buffer is u(t-1): a lost or stale buffer shows
    c.problem.dims = dims;
    c.problem.radius = radius;
    c.problem.precision = precision;
    c.problem.size = dims == 2 ? Extent { 1030, 777, 1 } : Extent { 130, 97, 66 };
    c.policy.variant = variant;
    return c;
}

// Steps `from` a while, then moves it to `to` on the device and, separately, through the host as the engine did
// before; both go on for more steps and must agree bitwise.
void expect_handover_matches_host_path(const StencilConfig& from, const StencilConfig& to) {
    SCOPED_TRACE(describe(from) + " -> " + describe(to));
    const bool keep = same_field(from, to);
    auto on_device = test::make_with_random_field(from);
    auto on_host = test::make_with_random_field(from);
    ASSERT_TRUE(on_device && on_host);
    on_device->step(5);
    on_host->step(5);
    const LaunchPlan plan = make_launch_plan(to, test::catalogue());
    ASSERT_TRUE(plan.ok()) << plan.verdict.reason;

    std::string why;
    std::unique_ptr<Simulation> moved = create_on_field(plan, test::catalogue(), *on_device, keep, &why);
    ASSERT_NE(moved, nullptr) << (why.empty() ? "the handover did not apply" : why);
    on_device.reset(); // holds no field any more: dropping it must not free the moved buffers

    const FieldState saved = on_host->save_state();
    on_host.reset();
    std::unique_ptr<Simulation> restored = create_simulation(plan, test::catalogue(), &why);
    ASSERT_NE(restored, nullptr) << why;
    if (keep)
        restored->restore_state(saved);
    else
        restored->upload(saved.current);
    EXPECT_EQ(moved->iteration(), restored->iteration());

    moved->step(4);
    restored->step(4);
    const std::vector<double> a = moved->download(), b = restored->download();
    ASSERT_EQ(a.size(), b.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differing += a[i] != b[i] ? 1 : 0;
    EXPECT_EQ(differing, 0u);
}

TEST(FieldHandover, SameFieldOtherKernelKeepsTheWavesPreviousField) {
    SKIP_WITHOUT_GPU();
    expect_handover_matches_host_path(
        wave(Variant::Base, 2, Precision::FP64, 2), wave(Variant::Smem, 2, Precision::FP64, 2));
    expect_handover_matches_host_path(
        wave(Variant::Stream, 1, Precision::FP32, 3), wave(Variant::SmemPadded, 1, Precision::FP32, 3));
}

TEST(FieldHandover, OtherRadiusStartsAtRestFromTheCurrentField) {
    SKIP_WITHOUT_GPU();
    expect_handover_matches_host_path(
        wave(Variant::Base, 1, Precision::FP64, 2), wave(Variant::Stream, 4, Precision::FP64, 2));
    expect_handover_matches_host_path(
        wave(Variant::Smem, 4, Precision::FP32, 3), wave(Variant::Base, 2, Precision::FP32, 3));
}

TEST(FieldHandover, DoesNotApplyAcrossPrecisions) {
    SKIP_WITHOUT_GPU();
    auto running = test::make_with_random_field(wave(Variant::Base, 1, Precision::FP32, 2));
    ASSERT_NE(running, nullptr);
    const std::vector<double> before = running->download();
    std::string why;
    const LaunchPlan plan = make_launch_plan(wave(Variant::Base, 1, Precision::FP64, 2), test::catalogue());
    EXPECT_EQ(create_on_field(plan, test::catalogue(), *running, false, &why), nullptr);
    EXPECT_TRUE(why.empty()) << why;
    EXPECT_EQ(running->download(), before); // untouched, still runs
    running->step(1);
}

} // namespace
