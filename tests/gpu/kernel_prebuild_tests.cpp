// SPDX-License-Identifier: MIT
// Issue 40, "ahead of the hand": kernels built in the background (KernelPrebuild) are in the process's kernel cache
// when the configuration is then created; a configuration nobody built ahead is built at creation.
#include "gpu_test_util.h"

#include "gpu/backends/kernel_prebuild.h"
#include "gpu/io/kernel_disk_cache.h"
#include "gpu/plan/knob_neighbours.h"

using namespace ss;

namespace {

StencilConfig small(int radius, Precision precision) {
    StencilConfig c;
    c.problem.radius = radius;
    c.problem.precision = precision;
    c.problem.size = { 97, 93, 1 };
    c.policy.variant = Variant::Smem;
    c.policy.cf = 2;
    return c;
}

TEST(KernelPrebuild, BuiltAheadIsFromTheCacheAndTheRestIsNot) {
    SKIP_WITHOUT_GPU();
    set_kernel_disk_cache_enabled(false); // only the process's cache: what this test built, or nothing
    const StencilConfig running = small(13, Precision::FP64);
    KernelPrebuild ahead(test::catalogue());
    ahead.replace(knob_neighbours(running));
    ahead.wait_idle();
    EXPECT_GE(ahead.built(), 3); // radius 12 and 14, CF 4 and 1, fp32: all runnable at this size

    std::string why;
    StencilConfig next = running;
    next.problem.radius = 14;
    auto built_ahead = create_simulation(next, test::catalogue(), &why);
    ASSERT_NE(built_ahead, nullptr) << why;
    EXPECT_TRUE(built_ahead->resources().from_cache);

    StencilConfig far = running;
    far.problem.radius = 11; // two turns away: nobody built it
    auto not_ahead = create_simulation(far, test::catalogue(), &why);
    ASSERT_NE(not_ahead, nullptr) << why;
    EXPECT_FALSE(not_ahead->resources().from_cache);
    set_kernel_disk_cache_enabled(true);
}

} // namespace
