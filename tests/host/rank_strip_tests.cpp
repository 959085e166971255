// SPDX-License-Identifier: MIT
// The engine half of multi-process runs (gpu/backends/rank_strip.h), without MPI: the split's refusals name their
// reason, the checksum sees one flipped bit and adds over rows, and CPU rank strips that trade ghost rows
// by memcpy (what MPI does between processes) give bitwise the single-process field, through the
// synchronous calls and through the overlapped step's.
#include "gpu/backends/cpu/cpu_backend.h"
#include "gpu/backends/create_rank_strip.h"
#include "gpu/problem/physics.h"
#include "rank_split_run.h"
#include "reports/run_options.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

using namespace ss;
using test::run_split;
using test::run_whole;

namespace {

StencilConfig cpu_star(int dims, Extent size, int radius, UpdateRule rule = UpdateRule::Jacobi) {
    StencilConfig c;
    c.problem.dims = dims, c.problem.size = size, c.problem.radius = radius, c.problem.rule = rule;
    c.placement.backend = Backend::Cpu;
    return c;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

TEST(RankStrip, SplitRefusalsNameTheirReason) {
    EXPECT_TRUE(check_rank_split(cpu_star(2, { 64, 64, 1 }, 4), 3));
    const Status thin = check_rank_split(cpu_star(2, { 64, 18, 1 }, 4), 3);
    ASSERT_FALSE(thin);
    EXPECT_NE(thin.reason.find("too small for 3 ranks"), std::string::npos) << thin.reason;
    EXPECT_NE(thin.reason.find("at most 2 ranks fit"), std::string::npos) << thin.reason;
    StencilConfig gpus = cpu_star(2, { 64, 64, 1 }, 1);
    gpus.placement.gpus = 2;
    EXPECT_NE(check_rank_split(gpus, 2).reason.find("--gpus 1"), std::string::npos);
    StencilConfig temporal = cpu_star(2, { 64, 64, 1 }, 1);
    temporal.policy.variant = Variant::Temporal;
    EXPECT_NE(check_rank_split(temporal, 2).reason.find("temporal"), std::string::npos);
    EXPECT_TRUE(check_rank_split(temporal, 1)) << "one rank is the single-process run";
    StencilConfig diffusion = cpu_star(2, { 64, 64, 1 }, 1);
    diffusion.problem.stencil = StencilKind::Diffusion4;
    EXPECT_NE(check_rank_split(diffusion, 2).reason.find("single periodic layer"), std::string::npos);
}

TEST(RankStrip, DeviceOfARankWrapsAroundTheGpusPresent) {
    EXPECT_EQ(rank_device(0, 0, 1), 0);
    EXPECT_EQ(rank_device(0, 1, 1), 0) << "two ranks share the one GPU";
    EXPECT_EQ(rank_device(1, 2, 4), 3);
    EXPECT_EQ(rank_device(2, 3, 4), 1);
    EXPECT_EQ(rank_device(5, 0, 2), 5) << "a device that does not exist is left for can_implement to refuse";
}

TEST(RankStrip, ChecksumSeesOneBitAndAddsOverRows) {
    std::vector<double> v = initial_field(cpu_star(2, { 40, 30, 1 }, 1));
    const std::uint64_t whole = field_checksum(v);
    const std::size_t half = v.size() / 2;
    EXPECT_EQ(whole,
        field_checksum({ v.begin(), v.begin() + std::ptrdiff_t(half) })
            + field_checksum({ v.begin() + std::ptrdiff_t(half), v.end() }, std::int64_t(half)));
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v[123], sizeof bits);
    bits ^= 1;
    std::memcpy(&v[123], &bits, sizeof bits);
    EXPECT_NE(field_checksum(v), whole);
    std::swap(v[0], v[1]);
    EXPECT_NE(field_checksum({ 1.0, 2.0 }), field_checksum({ 2.0, 1.0 })) << "a cell's place counts";
}

TEST(RankStrip, CpuStripsTradingGhostRowsAreBitwiseOneProcess) {
    for (int ranks : { 2, 3 }) {
        const StencilConfig jacobi = cpu_star(2, { 45, 37, 1 }, 3);
        EXPECT_TRUE(bitwise_equal(run_split(jacobi, ranks, 7), run_whole(jacobi, 7))) << ranks << " ranks, 2D R3";
        StencilConfig wave = cpu_star(3, { 20, 18, 23 }, 2, UpdateRule::Wave);
        wave.problem.precision = Precision::FP64;
        wave.problem.initial = InitialCondition::Gaussian;
        EXPECT_TRUE(bitwise_equal(run_split(wave, ranks, 5), run_whole(wave, 5))) << ranks << " ranks, 3D wave R2";
        EXPECT_TRUE(bitwise_equal(run_split(jacobi, ranks, 7, true, true), run_whole(jacobi, 7)))
            << ranks << " ranks, 2D R3, the overlapped step's calls";
        EXPECT_TRUE(bitwise_equal(run_split(wave, ranks, 5, true, true), run_whole(wave, 5)))
            << ranks << " ranks, 3D wave R2, the overlapped step's calls";
    }
}

TEST(RankStrip, WithoutTheExchangeTheFieldDiffers) { // the comparison above can fail
    const StencilConfig c = cpu_star(2, { 45, 37, 1 }, 2);
    const DeviceCatalogue none;
    std::string why;
    auto strip = create_rank_strip(plan_rank_strip(plan_ranks(c, 2), 0, 0, none), &why);
    ASSERT_TRUE(strip) << why;
    EXPECT_EQ(strip->halo_bytes(), std::size_t(2 * 45 * 4)) << "R rows of nx fp32 values";
    EXPECT_FALSE(bitwise_equal(run_split(c, 2, 6, false), run_whole(c, 6)));
    EXPECT_FALSE(bitwise_equal(run_split(c, 2, 6, false, true), run_whole(c, 6)));
    EXPECT_FALSE(strip->overlaps()) << "the CPU backend exchanges after the step";
}

// Issue 22's intermittent H100 result (mpirun -np 3 ... diffusion4 --dims 3 --size 32x32x7 --steps 4
// --checksum --backend cuda): the two wrong checksums seen are exactly this run with rank 0's or rank 2's
// planes all zero, i.e. a rank's buffers zeroed after its upload. CudaSimulation zeroed its buffers with
// a plain cudaMemset (legacy default stream), which its non-blocking stream did not wait for.
TEST(RankStrip, TheIntermittentWrongChecksumsAreARankWithAZeroedField) {
    RunOptions o;
    ASSERT_TRUE(parse_run_options(
        { "--stencil", "diffusion4", "--dims", "3", "--size", "32x32x7", "--steps", "4", "--backend", "cpu" }, o));
    const DeviceCatalogue none;
    const std::vector<double> initial = initial_field(o.config);
    const std::size_t plane = 32 * 32;
    auto checksum_with_zeroed = [&](int zeroed_rank) {
        std::uint64_t sum = 0;
        for (int r = 0; r < 3; ++r) {
            std::string why;
            auto strip = create_rank_strip(plan_rank_strip(plan_ranks(o.config, 3), r, 0, none), &why);
            EXPECT_TRUE(strip) << why;
            if (!strip) return sum;
            const Strip& s = strip->strip();
            std::vector<double> rows(initial.begin() + std::ptrdiff_t(s.local_begin * plane),
                initial.begin() + std::ptrdiff_t(s.local_end * plane));
            if (r == zeroed_rank) rows.assign(rows.size(), 0.0);
            strip->field().upload(rows);
            for (int i = 0; i < 4; ++i) strip->compute_step();
            sum += field_checksum(strip->field().download(), std::int64_t(s.first_row) * std::int64_t(plane));
        }
        return sum;
    };
    ASSERT_EQ(checksum_with_zeroed(-1), 0x72989e6e1c7f5305ull) << "the one-process field changed: the figures "
                                                                  "below were recorded against this one";
    EXPECT_EQ(checksum_with_zeroed(0), 0xc797c24b66af9c20ull);
    EXPECT_EQ(checksum_with_zeroed(2), 0x05a806e2e855d9f6ull);
}

// The guard against that cause: in the simulations' code every memset and copy names its stream, so
// nothing runs on the legacy default stream beside a non-blocking one (the bandwidth probe, which uses
// only the legacy stream, is the exception).
TEST(RankStrip, CudaSimulationsQueueNothingOnTheLegacyStream) {
    const std::string dir = std::string(STENCILSCOPE_SOURCE_DIR) + "/gpu/backends/cuda/";
    for (const char* file : { "cuda_simulation.cpp", "cuda_simulation_shape.cpp", "multi_gpu_simulation.cpp",
             "rank_strip_cuda.cpp", "staged_upload.cpp", "temporal_steps.cpp" }) {
        std::ifstream in(dir + file);
        ASSERT_TRUE(in) << dir + file;
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (const char* call :
            { "cudaMemset(", "cudaMemcpy(", "cudaMemcpy2D(", "cudaMemcpy3D(", "cudaMemcpyPeer(", "<<<" })
            EXPECT_EQ(text.find(call), std::string::npos) << file << " calls " << call;
    }
}

// The staged rows' pieces (issue 37's pipeline): they tile the halo in order, none empty, lengths within one byte.
TEST(RankStripPieces, TileTheHaloInOrder) {
    for (const std::size_t bytes :
        { std::size_t(1), std::size_t(4096), std::size_t(4 << 20) + 7, std::size_t(1) << 30 })
        for (const int pieces : { 1, 2, 3, 64 }) {
            if (std::size_t(pieces) > bytes) continue;
            std::size_t at = 0, shortest = bytes, longest = 0;
            for (int k = 0; k < pieces; ++k) {
                EXPECT_EQ(RankStrip::piece_offset(bytes, pieces, k), at) << bytes << " bytes, piece " << k;
                const std::size_t length = RankStrip::piece_length(bytes, pieces, k);
                at += length, shortest = std::min(shortest, length), longest = std::max(longest, length);
            }
            EXPECT_EQ(at, bytes) << pieces << " pieces";
            EXPECT_GT(shortest, 0u);
            EXPECT_LE(longest - shortest, 1u);
        }
}
