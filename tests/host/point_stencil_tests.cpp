// SPDX-License-Identifier: MIT
// Point stencils (issue 34): the named shapes, the file format's refusals, the CPU backend against a brute-force
// sum, and what can_implement lets through.
#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/plan/kernel_choice.h"
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/physics.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/problem/stencil_file.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <random>

using namespace ss;

namespace {

StencilConfig point_config(StencilShape shape, Extent size, Precision p = Precision::FP64) {
    StencilConfig c;
    use_shape(c.problem, std::move(shape));
    c.problem.size = size;
    c.problem.precision = p;
    c.placement.backend = Backend::Cpu;
    return c;
}

double weight_at(const StencilShape& s, int dx, int dy, int dz = 0) {
    for (const StencilPoint& p : s.points)
        if (p.dx == dx && p.dy == dy && p.dz == dz) return p.weight;
    return std::nan("");
}

// `steps` jacobi steps by the definition: every interior cell the sum over the points, the border kept.
std::vector<double> brute_force(const StencilConfig& c, std::vector<double> f, int steps) {
    const int nx = c.problem.size.nx, ny = c.problem.size.ny, nz = c.problem.size.nz, r = c.problem.radius;
    const bool three = c.problem.dims == 3;
    auto at = [&](int x, int y, int z) { return (std::size_t(z) * ny + y) * nx + x; };
    for (int s = 0; s < steps; ++s) {
        std::vector<double> out = f;
        for (int z = three ? r : 0; z < (three ? nz - r : 1); ++z)
            for (int y = r; y < ny - r; ++y)
                for (int x = r; x < nx - r; ++x) {
                    double sum = 0.0;
                    for (const StencilPoint& p : c.problem.shape->points)
                        sum += p.weight * f[at(x + p.dx, y + p.dy, z + p.dz)];
                    out[at(x, y, z)] = sum;
                }
        f = std::move(out);
    }
    return f;
}

StencilShape random_shape(int dims, int radius, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> weight(-0.3, 0.3);
    StencilShape s { "random", dims, {}, {} };
    for (const StencilPoint& p : box_shape(dims, radius).points)
        if (rng() % 3 != 0 || (p.dx == radius && p.dy == 0 && p.dz == 0)) // keep the radius
            s.points.push_back({ p.dx, p.dy, p.dz, weight(rng) });
    return s;
}

Status parse(const std::string& text, StencilShape* out = nullptr) {
    StencilShape s;
    const Status status = parse_stencil_json(text, "file", s);
    if (out) *out = s;
    return status;
}

} // namespace

TEST(PointStencils, EbisuNamesHaveTheirPointCountsDimsAndRadii) {
    const std::map<std::string_view, std::array<int, 3>> expected { { "2d5pt", { 5, 2, 1 } }, { "2ds9pt", { 9, 2, 2 } },
        { "2d9pt", { 9, 2, 1 } }, { "2d25pt", { 25, 2, 2 } }, { "2d49pt", { 49, 2, 3 } }, { "3d7pt", { 7, 3, 1 } },
        { "3d13pt", { 13, 3, 2 } }, { "3d27pt", { 27, 3, 1 } }, { "3d17pt", { 17, 3, 1 } },
        { "poisson", { 19, 3, 1 } } };
    ASSERT_EQ(ebisu_stencil_names().size(), expected.size());
    for (const std::string_view name : ebisu_stencil_names()) {
        const auto shape = ebisu_shape(name);
        ASSERT_TRUE(shape) << name;
        EXPECT_EQ(int(shape->points.size()), expected.at(name)[0]) << name;
        EXPECT_EQ(shape->dims, expected.at(name)[1]) << name;
        EXPECT_EQ(shape->radius(), expected.at(name)[2]) << name;
        EXPECT_EQ(shape->name, name);
        EXPECT_TRUE(check_shape(*shape)) << name << ": " << check_shape(*shape).reason;
        EXPECT_TRUE(is_point_stencil_name(name));
    }
    EXPECT_FALSE(ebisu_shape("2d7pt"));
    EXPECT_FALSE(is_point_stencil_name("star"));
}

TEST(PointStencils, EbisuCoefficientsSitWhereItsReferencesPutThem) {
    // filter[y][x]: 2d25pt's row y = +1 ends in 15/118, its row y = -2 starts with 1/118.
    const StencilShape s25 = *ebisu_shape("2d25pt");
    EXPECT_DOUBLE_EQ(weight_at(s25, 2, 1), 15.0 / 118);
    EXPECT_DOUBLE_EQ(weight_at(s25, -2, -2), 1.0 / 118);
    EXPECT_DOUBLE_EQ(weight_at(s25, 2, -2), 5.0 / 118);
    // 2d5pt: x neighbours weigh 12, y neighbours 5 (jacobi_gold.cpp), all / 118; the weights sum to 1.
    const StencilShape s5 = *ebisu_shape("2d5pt");
    EXPECT_DOUBLE_EQ(weight_at(s5, 1, 0), 12.0 / 118);
    EXPECT_DOUBLE_EQ(weight_at(s5, 0, -1), 5.0 / 118);
    // 3d7pt: +x 0.161, -z 0.166, centre -1.67.
    const StencilShape s7 = *ebisu_shape("3d7pt");
    EXPECT_DOUBLE_EQ(weight_at(s7, 1, 0, 0), 0.161);
    EXPECT_DOUBLE_EQ(weight_at(s7, 0, 0, -1), 0.166);
    EXPECT_DOUBLE_EQ(weight_at(s7, 0, 0, 0), -1.67);
    // filter[z][y][x]: 3d27pt's first plane (z = -1) starts with 0.5/159, its last ends with 0.52/159.
    const StencilShape s27 = *ebisu_shape("3d27pt");
    EXPECT_DOUBLE_EQ(weight_at(s27, -1, -1, -1), 0.5 / 159);
    EXPECT_DOUBLE_EQ(weight_at(s27, 1, 1, 1), 0.52 / 159);
    // poisson has no corners; 3d17pt has no edge centres in the planes beside the middle.
    EXPECT_TRUE(std::isnan(weight_at(*ebisu_shape("poisson"), 1, 1, 1)));
    EXPECT_TRUE(std::isnan(weight_at(*ebisu_shape("3d17pt"), 0, 1, 1)));
}

TEST(PointStencils, BoxHasEveryPointAndWeightsSummingToOne) {
    for (int dims : { 2, 3 })
        for (int r : { 1, 2, 5 }) {
            const StencilShape box = box_shape(dims, r);
            EXPECT_EQ(int(box.points.size()), int(std::pow(2 * r + 1, dims)));
            EXPECT_EQ(box.radius(), r);
            double sum = 0.0;
            for (const StencilPoint& p : box.points) sum += p.weight;
            EXPECT_NEAR(sum, 1.0, 1e-12);
            EXPECT_TRUE(check_shape(box)) << check_shape(box).reason;
        }
    EXPECT_FALSE(check_shape(box_shape(3, 6))); // 2197 points: past kMaxStencilPoints
}

TEST(PointStencils, AFileIsReadIntoACheckedSortedShape) {
    StencilShape s;
    const Status ok = parse(R"({ "name": "mine", "dims": 2,
        "points": [ [[1, 0], 0.25], [[0, 0], 0.5], [[-1, 0], 0.125], [[0, -2], 1e-1] ] })",
        &s);
    ASSERT_TRUE(ok) << ok.reason;
    EXPECT_EQ(s.name, "mine");
    EXPECT_EQ(s.dims, 2);
    EXPECT_EQ(s.radius(), 2);
    ASSERT_EQ(s.points.size(), 4u);
    EXPECT_EQ(s.points.front(), (StencilPoint { 0, -2, 0, 0.1 })); // canonical order: dy before dx
    EXPECT_EQ(s.points.back(), (StencilPoint { 1, 0, 0, 0.25 }));
    ASSERT_TRUE(parse(R"({"dims":3,"points":[[[0,0,1],1],[[0,0,-1],1]]})", &s));
    EXPECT_EQ(s.name, "file"); // the fallback name
}

TEST(PointStencils, FilesAreRefusedInOneLineWithTheReason) {
    const std::vector<std::pair<std::string, std::string>> cases {
        { "not json", "not a stencil file" },
        { R"([1, 2])", "one JSON object" },
        { R"({"points": [[[1,0],1]]})", "no \"dims\"" },
        { R"({"dims": 2})", "no \"points\"" },
        { R"({"dims": 4, "points": []})", "\"dims\" must be 2 or 3" },
        { R"({"dims": 2, "points": []})", "no points" },
        { R"({"dims": 2, "points": [[[17,0],1]]})", "beyond radius 16" },
        { R"({"dims": 2, "points": [[[0,0],1]]})", "reaches no neighbour" },
        { R"({"dims": 2, "points": [[[1,0],1e999]]})", "not a finite number" },
        { R"({"dims": 2, "points": [[[1,0],1],[[1,0],2]]})", "given twice" },
        { R"({"dims": 2, "points": [[[1,0,0],1]]})", "has 3 offsets" },
        { R"({"dims": 3, "points": [[[1,0],1]]})", "has 2 offsets" },
        { R"({"dims": 2, "points": [[[1.5,0],1]]})", "must be integers" },
        { R"({"dims": 2, "points": [[[1,0],"1"]]})", "weight is not a number" },
        { R"({"dims": 2, "points": [[1,0,1]]})", "is not [[dx, dy], weight]" },
        { R"({"dims": 2, "pionts": []})", "unknown key \"pionts\"" },
        { R"({"dims": 2, "name": "a b", "points": [[[1,0],1]]})", "no spaces" },
        { R"({"dims": 2, "points": [[[1,0],1]]} trailing)", "unexpected text" },
        { std::string(20, '[') + std::string(20, ']'), "nested too deeply" },
    };
    for (const auto& [text, reason] : cases) {
        const Status s = parse(text);
        EXPECT_FALSE(s) << text;
        EXPECT_NE(s.reason.find(reason), std::string::npos) << text << " -> " << s.reason;
        EXPECT_EQ(s.reason.find('\n'), std::string::npos) << s.reason;
    }
}

TEST(PointStencils, CpuReferenceEqualsTheBruteForceSum) {
    struct Case {
        StencilShape shape;
        Extent size;
    };
    const std::vector<Case> cases { { box_shape(2, 1), { 33, 29, 1 } }, { random_shape(2, 3, 7), { 40, 21, 1 } },
        { *ebisu_shape("2d25pt"), { 30, 30, 1 } }, { box_shape(3, 2), { 17, 13, 11 } },
        { random_shape(3, 2, 11), { 15, 16, 12 } }, { *ebisu_shape("poisson"), { 12, 12, 12 } } };
    for (const Case& k : cases) {
        StencilConfig c = point_config(k.shape, k.size);
        c.problem.initial = InitialCondition::Random;
        const std::vector<double> initial = initial_field(c);
        const std::vector<double> got = cpu_reference(c, initial, 3);
        const std::vector<double> want = brute_force(c, initial, 3);
        EXPECT_LT(relative_l2_error(got, want), 1e-14) << describe(c);
        // The border of width R is never written.
        EXPECT_EQ(got[0], initial[0]);
        EXPECT_EQ(got.back(), initial.back());
    }
}

TEST(PointStencils, TheFp32CpuBackendFollowsTheReference) {
    StencilConfig c = point_config(*ebisu_shape("2d49pt"), { 64, 48, 1 }, Precision::FP32);
    const std::vector<double> initial = initial_field(c);
    auto sim = create_cpu_simulation(c);
    sim->upload(initial);
    sim->step(4);
    EXPECT_LT(relative_l2_error(sim->download(), cpu_reference(c, initial, 4)), 1e-5);
}

TEST(PointStencils, ConfigurationsWithEqualPointsAreEqual) {
    const StencilConfig a = point_config(box_shape(2, 2), { 64, 64, 1 });
    StencilConfig b = point_config(box_shape(2, 2), { 64, 64, 1 });
    EXPECT_EQ(a, b); // separately built shapes with the same points
    b = point_config(random_shape(2, 2, 3), { 64, 64, 1 });
    EXPECT_NE(a, b);
    EXPECT_EQ(describe(a).substr(0, 17), "box R2 25 points ");
    EXPECT_EQ(stencil_name(a.problem), "box");
    EXPECT_EQ(stencil_points(a.problem), 25);
    StencilConfig star;
    star.problem.dims = 3, star.problem.radius = 4;
    EXPECT_EQ(stencil_name(star.problem), "star");
    EXPECT_EQ(stencil_points(star.problem), 24); // jacobi: the centre weighs nothing
}

TEST(PointStencils, CanImplementRunsFourVariantsAndSaysWhyNotTheRest) {
    const DeviceCatalogue gpu = described_catalogue(test::h100(), 2);
    StencilConfig c = point_config(*ebisu_shape("3d27pt"), { 64, 64, 64 }, Precision::FP32);
    EXPECT_TRUE(can_implement(c, gpu)) << can_implement(c, gpu).reason;
    c.placement.backend = Backend::Cuda;
    EXPECT_TRUE(can_implement(c, gpu)) << can_implement(c, gpu).reason;
    StencilConfig stream = c;
    stream.policy.variant = Variant::Stream;
    EXPECT_TRUE(can_implement(stream, gpu)) << can_implement(stream, gpu).reason;
    stream.policy.heuristic_block = false, stream.policy.block = { 32, 4, 2 }; // it marches along z
    EXPECT_NE(can_implement(stream, gpu).reason.find("marches along z"), std::string::npos);
    StencilConfig temporal = c;
    temporal.policy.variant = Variant::Temporal, temporal.policy.depth = 2;
    EXPECT_TRUE(can_implement(temporal, gpu)) << can_implement(temporal, gpu).reason;
    StencilConfig padded = c;
    padded.policy.variant = Variant::SmemPadded;
    EXPECT_EQ(can_implement(padded, gpu).reason,
        "--variant smem_padded runs star stencils only so far (point stencils run base, smem, stream and temporal)");
    StencilConfig wave = c;
    wave.problem.rule = UpdateRule::Wave;
    EXPECT_NE(can_implement(wave, gpu).reason.find("the jacobi rule"), std::string::npos);
    StencilConfig two = c;
    two.placement.gpus = 2;
    EXPECT_TRUE(can_implement(two, gpu)) << can_implement(two, gpu).reason; // strips: tests/host/point_strip_tests.cpp
    StencilConfig no_points = c;
    no_points.problem.shape = {};
    EXPECT_NE(can_implement(no_points, gpu).reason.find("needs its points"), std::string::npos);
    StencilConfig mismatch = c;
    mismatch.problem.radius = 2;
    EXPECT_NE(can_implement(mismatch, gpu).reason.find("but the problem says 3D R2"), std::string::npos);
    StencilConfig small = c;
    small.problem.size = { 2, 64, 64 };
    EXPECT_FALSE(can_implement(small, gpu));
}

// smem for point stencils: the tile with an R halo on every side (a box reads the corners), where it fits the
// device's shared memory; the plan names the kernel and its shared memory.
TEST(PointStencils, SmemRunsWhereTheTileFits) {
    const DeviceCatalogue gpu = described_catalogue(test::h100(), 1);
    StencilConfig c = point_config(box_shape(2, 2), { 256, 128, 1 }, Precision::FP32);
    c.placement.backend = Backend::Cuda;
    c.policy.variant = Variant::Smem;
    c.policy.heuristic_block = false;
    c.policy.block = { 32, 8, 1 };
    c.policy.cf = 2;
    ASSERT_TRUE(can_implement(c, gpu)) << can_implement(c, gpu).reason;
    EXPECT_EQ(dynamic_smem_bytes(c, c.policy.block), (32 * 2 + 4) * (8 + 4) * 4);
    const LaunchPlan plan = make_launch_plan(c, gpu);
    EXPECT_EQ(plan.dynamic_smem, (32 * 2 + 4) * (8 + 4) * 4);
    EXPECT_EQ(plan.kernel.entry, "ss_points_smem_2d");
    EXPECT_TRUE(plan.variant_verdict(Variant::Smem));
    EXPECT_FALSE(plan.variant_verdict(Variant::SmemPadded));

    StencilConfig box3 = point_config(box_shape(3, 5), { 64, 64, 64 }, Precision::FP64);
    box3.placement.backend = Backend::Cuda;
    box3.policy.variant = Variant::Smem;
    EXPECT_TRUE(can_implement(box3, gpu)) << can_implement(box3, gpu).reason; // the heuristic finds a block that fits
    box3.policy.heuristic_block = false;
    box3.policy.block = { 1024, 1, 1 }; // (1024 + 10) x 11 x 11 doubles: 977 KiB
    EXPECT_EQ(dynamic_smem_bytes(box3, box3.policy.block), std::int64_t(1034) * 11 * 11 * 8);
    EXPECT_NE(can_implement(box3, gpu).reason.find("KiB of shared memory per block"), std::string::npos);
    EXPECT_EQ(choose_gpu_kernel(box3).entry, "ss_points_smem_3d");

    // Base keeps no shared memory, and the star's smem tile is the star's (no halo).
    c.policy.variant = Variant::Base;
    EXPECT_EQ(dynamic_smem_bytes(c, c.policy.block), 0);
    StencilConfig star;
    star.problem.radius = 2, star.policy.variant = Variant::Smem, star.policy.cf = 2;
    EXPECT_EQ(dynamic_smem_bytes(star, { 32, 8, 1 }), 32 * 2 * 8 * 4);
}
