// SPDX-License-Identifier: MIT
// The lessons' deterministic claims on the device (resources/presets/*.json, each compared run's
// "expect"): shared memory per block, blocks per SM, theoretical occupancy and its limiter, spills,
// registers relative to another run, blocks refused, and for runs split over GPUs what crosses between the
// strips per step (ghost layers copied, or loaded from the neighbour: computed from the geometry). The claims
// are the H100's (228 KiB of shared memory per SM, 2048 threads): the test skips on other GPUs. A run asking
// for more GPUs than present runs its strips on one GPU (the testing hook), as bench/record_lessons.sh does.
// Rates are not claims: bench/record_lessons.sh records them.
#include "gpu/plan/strip_plan.h"
#include "gpu/plan/validation.h"
#include "gpu_test_util.h"
#include "session/setup_file.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <map>

using namespace ss;
using namespace ss::gui;

namespace {

bool is_h100_class(const DeviceCatalogue& c) {
    return c.has_cuda() && c.devices.front().cc_major == 9 && c.devices.front().smem_per_sm == 228 * 1024;
}

} // namespace

TEST(LessonClaims, HoldOnTheDevice) {
    SKIP_WITHOUT_GPU();
    if (!is_h100_class(test::catalogue()))
        GTEST_SKIP() << "the lessons' claims are an H100's; this is " << test::catalogue().devices.front().name;
    RunSettings current;
    current.config.placement.backend = Backend::Cuda;
    int checked = 0;
    for (const QString& path : lesson_paths()) {
        std::vector<LessonRun> runs;
        QString why;
        ASSERT_TRUE(read_lesson_runs(path, current, runs, &why)) << why.toStdString();
        std::map<QString, KernelResources> seen;
        std::map<QString, MultiGpuStats> crossed;
        for (const LessonRun& run : runs) {
            StencilConfig c = run.setup.settings.config;
            if (c.placement.gpus > test::catalogue().count()) { // every strip on one GPU
                c.placement.strips_per_device = c.placement.gpus;
                c.placement.gpus = 1;
            }
            const std::string where = path.toStdString() + ", " + run.label.toStdString();
            const QJsonObject& expect = run.expect;
            const Status can = can_implement(c, test::catalogue());
            if (expect.value(QStringLiteral("refused")).toBool()) {
                EXPECT_FALSE(can.ok) << where << ": the lesson says this block is refused";
                ++checked;
                continue;
            }
            ASSERT_TRUE(can.ok) << where << ": " << can.reason;
            std::string failure;
            const auto sim = create_simulation(c, test::catalogue(), &failure);
            ASSERT_TRUE(sim) << where << ": " << failure;
            const KernelResources& r = sim->resources();
            seen[run.label] = r;
            const MultiGpuStats strips = crossed[run.label] = sim->multi_gpu_stats();
            std::cout << where << ": " << r.registers << " registers, " << r.local_bytes << " spill bytes, "
                      << r.dynamic_smem << " B shared, " << r.max_blocks_per_sm << " blocks/SM, occupancy "
                      << r.theoretical_occupancy << " (" << r.occupancy_limiter << ")\n";
            auto has = [&](const char* key) { return expect.contains(QLatin1String(key)); };
            auto number = [&](const char* key) { return expect.value(QLatin1String(key)).toDouble(); };
            if (has("spills")) {
                EXPECT_EQ(r.local_bytes > 0, expect.value(QStringLiteral("spills")).toBool()) << where;
            }
            if (has("dynamic-smem")) {
                EXPECT_EQ(r.dynamic_smem, int(number("dynamic-smem"))) << where;
            }
            if (has("uses-shared-memory")) {
                EXPECT_GT(r.dynamic_smem + r.static_smem, 0) << where;
            }
            if (has("blocks-per-sm")) {
                EXPECT_EQ(r.max_blocks_per_sm, int(number("blocks-per-sm"))) << where;
            }
            if (has("occupancy")) {
                EXPECT_NEAR(r.theoretical_occupancy, number("occupancy"), 1e-9) << where;
            }
            if (has("occupancy-at-most")) {
                EXPECT_LE(r.theoretical_occupancy, number("occupancy-at-most") + 1e-9) << where;
            }
            if (has("limiter")) {
                EXPECT_EQ(r.occupancy_limiter, expect.value(QStringLiteral("limiter")).toString().toStdString())
                    << where;
            }
            if (has("more-registers-than")) {
                const QString other = expect.value(QStringLiteral("more-registers-than")).toString();
                ASSERT_TRUE(seen.count(other)) << where << ": compare with " << other.toStdString() << " first";
                EXPECT_GT(r.registers, seen[other].registers) << where;
            }
            // Split runs: copies move ghost layers and load nothing remotely; remote mode the other way round,
            // about the bytes the copies move (fewer: a copy moves whole layers, the fixed border included).
            if (has("copies")) {
                EXPECT_GT(strips.halo_bytes(), 0) << where;
                EXPECT_EQ(strips.remote_bytes(), 0) << where;
            }
            if (has("nothing-copied")) {
                EXPECT_EQ(strips.halo_bytes(), 0) << where;
                EXPECT_GT(strips.remote_bytes(), 0) << where;
            }
            if (has("copied-bytes-as")) {
                const QString other = expect.value(QStringLiteral("copied-bytes-as")).toString();
                ASSERT_TRUE(crossed.count(other)) << where << ": compare with " << other.toStdString() << " first";
                EXPECT_EQ(strips.halo_bytes(), crossed[other].halo_bytes()) << where;
            }
            if (has("remote-bytes-about")) {
                const QString other = expect.value(QStringLiteral("remote-bytes-about")).toString();
                ASSERT_TRUE(crossed.count(other)) << where << ": compare with " << other.toStdString() << " first";
                const std::int64_t copied = crossed[other].halo_bytes();
                EXPECT_LE(strips.remote_bytes(), copied) << where;
                EXPECT_GE(strips.remote_bytes() * 5, copied * 4) << where;
            }
            if (strips.strips.size() > 1)
                std::cout << where << ": " << strips.strips.size() << " strips, " << strips.halo_bytes()
                          << " B copied and " << strips.remote_bytes() << " B loaded remotely per step\n";
            checked += int(expect.size());
        }
    }
    EXPECT_GE(checked, 45);
}

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv); // the lessons are Qt resources
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
