// SPDX-License-Identifier: MIT
// Every kernel family the engine can generate compiles with NVRTC. Needs no GPU, so CI runs it.
#include "gpu/backends/cuda/kernel_compiler.h"
#include "gpu/io/kernel_disk_cache.h"
#include "gpu/plan/axis_star_plan.h"
#include "gpu/plan/kernel_choice.h"
#include "gpu/problem/stencil_catalog.h"
#include "kernel_source_of.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

using namespace ss;

namespace {

// job(i) for every i below count, on a pool of threads: NVRTC compiles independent texts in parallel.
template <typename Job> void for_each_in_parallel(std::size_t count, Job job) {
    std::atomic<std::size_t> next { 0 };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < std::max(2u, std::thread::hardware_concurrency()); ++t)
        pool.emplace_back([&] {
            for (std::size_t i; (i = next++) < count;) job(i);
        });
    for (auto& t : pool) t.join();
}

// Each text's NVRTC errors for sm_90, "" where it compiles.
std::vector<std::string> compile_errors(const std::vector<std::string>& sources) {
    std::vector<std::string> errors(sources.size());
    for_each_in_parallel(sources.size(), [&](std::size_t i) { errors[i] = nvrtc_compile_errors(sources[i], 9, 0); });
    return errors;
}

} // namespace

TEST(Nvrtc, EveryKernelFamilyCompiles) {
    std::vector<StencilConfig> configs;
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced })
        for (int dims : { 2, 3 })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (UpdateRule rule : { UpdateRule::Thesis, UpdateRule::Jacobi, UpdateRule::Wave })
                    for (int r : { 1, 16 })
                        for (int cf : { 1, 8 }) {
                            StencilConfig c;
                            c.policy.variant = v, c.problem.dims = dims, c.problem.precision = p, c.problem.rule = rule,
                            c.problem.radius = r, c.policy.cf = cf;
                            configs.push_back(c);
                        }
    for (Variant v : { Variant::Naive, Variant::Merged, Variant::NoTemp, Variant::Smem })
        for (Precision p : { Precision::FP32, Precision::FP64 }) {
            StencilConfig c;
            c.problem.stencil = StencilKind::Diffusion4, c.policy.variant = v, c.problem.precision = p;
            configs.push_back(c);
        }
    std::vector<std::string> sources;
    for (const StencilConfig& c : configs) sources.push_back(kernel_source_of(c));
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < configs.size(); ++i) EXPECT_EQ(errors[i], "") << describe(configs[i]);
}

// Remote halo mode: the star kernels take the neighbours' pointers, generic and specialised for a block.
TEST(Nvrtc, RemoteKernelsCompile) {
    std::vector<std::string> sources, names;
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded, Variant::Stream, Variant::Uncoalesced })
        for (int dims : { 2, 3 })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (int r : { 1, 16 }) {
                    StencilConfig c;
                    c.policy.variant = v, c.problem.dims = dims, c.problem.precision = p, c.problem.radius = r;
                    c.policy.cf = v == Variant::Uncoalesced ? 1 : 2, c.placement.halo = HaloMode::Remote;
                    const BlockDims b
                        = dims == 3 ? BlockDims { 32, 8, v == Variant::Stream ? 1 : 2 } : BlockDims { 32, 8, 1 };
                    for (const BlockDims* fixed : { static_cast<const BlockDims*>(nullptr), &b }) {
                        // a strip's kernels: they read the neighbours' rows (plan_strip_kernels keeps the halo mode)
                        sources.push_back(kernel_source(plan_kernels(c, c, largest_gpu_limits()), fixed));
                        names.push_back(describe(c) + (fixed ? " for its block" : ""));
                    }
                }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        EXPECT_NE(sources[i].find("#define REMOTE 1"), std::string::npos) << names[i];
        EXPECT_EQ(errors[i], "") << names[i];
    }
}

TEST(Nvrtc, StreamKernelsSpecialisedForTheirBlock) {
    for (int dims : { 2, 3 })
        for (int r : { 1, 4, 16 }) {
            StencilConfig c;
            c.policy.variant = Variant::Stream, c.problem.dims = dims, c.problem.radius = r, c.policy.cf = 2;
            const BlockDims b = dims == 3 ? BlockDims { 32, 8, 1 } : BlockDims { 256, 1, 1 };
            const std::string src = kernel_source_of(c, &b);
            EXPECT_NE(src.find("#define SBX"), std::string::npos);
            EXPECT_EQ(nvrtc_compile_errors(src, 9, 0), "") << describe(c);
        }
}

// The 3D forward stream kernel with its tuning knob STENCILSCOPE_STREAM_LEAN_ADDR=1 (off by default): one and two
// roles, fp32 and fp64, with halo copies (strips along z) and as remote strips cut along x and y.
TEST(Nvrtc, ForwardStreamKernelsCompileWithLeanAddresses) {
    for (Precision p : { Precision::FP32, Precision::FP64 })
        for (int r : { 4, 16 })
            for (int cf : { 1, 2, 4 })
                for (SplitAxis split : { SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
                    StencilConfig c;
                    c.policy.variant = Variant::Stream, c.problem.dims = 3, c.problem.precision = p;
                    c.problem.radius = r, c.policy.cf = cf, c.problem.size = Extent { 96, 80, 64 };
                    c.placement.split = split;
                    if (split != SplitAxis::Z) c.placement.halo = HaloMode::Remote;
                    const BlockDims b { 16, 16, 1 };
                    const std::string src = kernel_source_of(c, &b);
                    ASSERT_NE(src.find("#define STREAM_FWD 1"), std::string::npos) << describe(c);
                    // (where the knob is set too, the preamble repeats the same definition, which C allows)
                    EXPECT_EQ(nvrtc_compile_errors("#define LEAN_ADDR 1\n" + src, 9, 0), "") << describe(c);
                }
    // Past 2^31 cells the kernel indexes with 64-bit offsets.
    StencilConfig big;
    big.policy.variant = Variant::Stream, big.problem.dims = 3, big.problem.radius = 16, big.policy.cf = 2;
    big.problem.size = Extent { 2048, 1024, 1024 };
    const BlockDims b { 16, 16, 1 };
    const std::string src = kernel_source_of(big, &b);
    ASSERT_NE(src.find("typedef long long idx_t;"), std::string::npos);
    EXPECT_EQ(nvrtc_compile_errors("#define LEAN_ADDR 1\n" + src, 9, 0), "") << describe(big);
}

// The fp64 tensor-core stream kernel: DMMA on sm_80 and later, its shuffle fallback before; halo copies (strips along
// z) and remote strips cut along x and y.
TEST(Nvrtc, TensorCoreStreamKernelsCompile) {
    for (int r : { 12, 16 })
        for (SplitAxis split : { SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
            StencilConfig c;
            c.policy.variant = Variant::Stream, c.problem.dims = 3, c.problem.precision = Precision::FP64;
            c.problem.radius = r, c.policy.cf = 1, c.problem.size = Extent { 96, 80, 64 };
            c.placement.split = split;
            if (split != SplitAxis::Z) c.placement.halo = HaloMode::Remote;
            const BlockDims b { 8, 32, 1 };
            const std::string src = kernel_source_of(c, &b);
            ASSERT_NE(src.find("#define STREAM_TC 1"), std::string::npos) << describe(c);
            EXPECT_EQ(nvrtc_compile_errors(src, 9, 0), "") << describe(c);
            EXPECT_EQ(nvrtc_compile_errors(src, 7, 5), "") << describe(c) << " (sm_75)";
        }
}

TEST(Nvrtc, ThesisVariantsSpecialisedForTheirBlockAndStrides) {
    for (Variant v : { Variant::Base, Variant::Smem, Variant::SmemPadded })
        for (int dims : { 2, 3 })
            for (int r : { 1, 16 }) {
                StencilConfig c;
                c.policy.variant = v, c.problem.dims = dims, c.problem.radius = r, c.policy.cf = 4;
                c.problem.size = dims == 3 ? Extent { 97, 45, 40 } : Extent { 1001, 77, 1 };
                const BlockDims b = dims == 3 ? BlockDims { 32, 4, 4 } : BlockDims { 32, 8, 1 };
                const std::string src = kernel_source_of(c, &b, 2);
                const std::string block = "#define SBX 32\n#define SBY " + std::to_string(b.y) + "\n#define SBZ "
                    + std::to_string(b.z) + "\n#define SMINB 2\n";
                const std::string strides = "#define SNX " + std::to_string(c.problem.size.nx) + "\n#define SNY "
                    + std::to_string(c.problem.size.ny) + "\n";
                EXPECT_NE(src.find(block), std::string::npos) << src.substr(0, 600);
                EXPECT_NE(src.find(strides), std::string::npos) << src.substr(0, 600);
                EXPECT_EQ(nvrtc_compile_errors(src, 9, 0), "") << describe(c);
            }
}

TEST(Nvrtc, TemporalKernelsCompileGenericAndForTheirBlock) {
    for (int dims : { 2, 3 })
        for (Precision p : { Precision::FP32, Precision::FP64 })
            for (int r : { 1, 4 })
                for (int depth : { 1, 3 }) {
                    StencilConfig c;
                    c.policy.variant = Variant::Temporal, c.problem.dims = dims, c.problem.precision = p;
                    c.problem.radius = r, c.policy.depth = depth, c.policy.cf = 2;
                    const BlockDims b = dims == 3 ? BlockDims { 32, 16, 1 } : BlockDims { 128, 1, 1 };
                    const std::string fixed = kernel_source_of(c, &b);
                    EXPECT_NE(fixed.find("#define DEPTH " + std::to_string(depth)), std::string::npos);
                    EXPECT_NE(fixed.find("#define TBX"), std::string::npos);
                    EXPECT_EQ(nvrtc_compile_errors(fixed, 9, 0), "") << describe(c);
                    EXPECT_EQ(nvrtc_compile_errors(kernel_source_of(c), 9, 0), "") << describe(c) << " (generic)";
                }
}

// Each compiled module holds its kernels under the names kernel_choice.h gives them (a cubin's sections are named
// .text.<entry>), and no kernel is called ss_star any more: profilers see which kernel ran.
TEST(Nvrtc, ModulesNameTheirEntryPointsAsChosen) {
    struct Case {
        StencilConfig config;
        BlockDims block;
        const char* entry;
    };
    auto config = [](Variant v, int dims, int r, int cf, Precision p) {
        StencilConfig c;
        c.policy.variant = v, c.problem.dims = dims, c.problem.radius = r, c.policy.cf = cf, c.problem.precision = p;
        c.problem.size = dims == 3 ? Extent { 96, 80, 64 } : Extent { 1024, 512, 1 };
        return c;
    };
    StencilConfig temporal = config(Variant::Temporal, 3, 2, 2, Precision::FP32), naive, smem;
    temporal.policy.depth = 2;
    naive.problem.stencil = smem.problem.stencil = StencilKind::Diffusion4;
    naive.policy.variant = Variant::Naive, smem.policy.variant = Variant::Smem;
    const std::vector<Case> cases {
        { config(Variant::Base, 2, 4, 2, Precision::FP32), { 32, 8, 1 }, "ss_base_2d" },
        { config(Variant::Smem, 3, 2, 1, Precision::FP64), { 32, 4, 4 }, "ss_smem_3d" },
        { config(Variant::SmemPadded, 3, 2, 2, Precision::FP32), { 32, 4, 4 }, "ss_smem_padded_3d" },
        { config(Variant::Uncoalesced, 2, 1, 1, Precision::FP32), { 32, 8, 1 }, "ss_uncoalesced_2d" },
        { config(Variant::Stream, 2, 4, 2, Precision::FP32), { 128, 1, 1 }, "ss_stream_2d" },
        { config(Variant::Stream, 3, 1, 4, Precision::FP32), { 128, 4, 1 }, "ss_stream_gather_3d" },
        { config(Variant::Stream, 3, 4, 2, Precision::FP32), { 64, 8, 1 }, "ss_stream_forward_3d" },
        { config(Variant::Stream, 3, 16, 4, Precision::FP32), { 16, 8, 1 }, "ss_stream_forward_two_roles_3d" },
        { config(Variant::Stream, 3, 12, 1, Precision::FP64), { 8, 32, 1 }, "ss_stream_tensor_3d" },
        { temporal, { 32, 16, 1 }, "ss_temporal_3d" },
        { naive, { 32, 8, 1 }, "ss_diffusion_lap_ring" },
        { smem, { 32, 8, 1 }, "ss_diffusion_smem" },
    };
    std::vector<std::string> images(cases.size()), errors(cases.size());
    for_each_in_parallel(cases.size(), [&](std::size_t i) {
        try {
            const bool star = cases[i].config.problem.stencil == StencilKind::Star;
            const std::vector<char> image
                = nvrtc_compile_image(kernel_source_of(cases[i].config, star ? &cases[i].block : nullptr), 9, 0);
            images[i].assign(image.begin(), image.end());
        } catch (const std::exception& e) {
            errors[i] = e.what();
        }
    });
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const KernelChoice k = choose_gpu_kernel(cases[i].config);
        EXPECT_EQ(k.entry, cases[i].entry) << describe(cases[i].config);
        ASSERT_EQ(errors[i], "") << describe(cases[i].config);
        std::vector<std::string> kernels { k.entry };
        kernels.insert(kernels.end(), k.other_kernels.begin(), k.other_kernels.end());
        for (const std::string& name : kernels)
            EXPECT_NE(images[i].find(".text." + name + '\0'), std::string::npos) << name << " in " << cases[i].entry;
        EXPECT_EQ(images[i].find("ss_star"), std::string::npos) << cases[i].entry;
    }
}

TEST(Nvrtc, ReportsCompileErrors) {
    const std::string log = nvrtc_compile_errors("extern \"C\" __global__ void k() { undeclared_name = 1; }", 9, 0);
    EXPECT_NE(log.find("undeclared_name"), std::string::npos) << log;
}

// Issue 40: a built cubin goes through the disk cache and comes back byte for byte; another architecture is
// another entry. (Loading the module needs a GPU: tests/gpu.)
TEST(Nvrtc, CubinRoundTripsThroughTheDiskCache) {
    char dir[] = "/tmp/ss-nvrtc-cache-XXXXXX";
    ASSERT_NE(::mkdtemp(dir), nullptr);
    const KernelDiskCache cache(dir);
    StencilConfig c;
    c.problem.dims = 2;
    c.problem.size = { 256, 256, 1 };
    const std::string source = kernel_source_of(c);
    bool from_cache = true;
    const std::vector<char> built = cached_nvrtc_image(source, 9, 0, &cache, &from_cache);
    EXPECT_FALSE(from_cache);
    const std::vector<char> again = cached_nvrtc_image(source, 9, 0, &cache, &from_cache);
    EXPECT_TRUE(from_cache);
    EXPECT_EQ(again, built);
    EXPECT_EQ(built, nvrtc_compile_image(source, 9, 0)); // what the runtime would load without the cache
    cached_nvrtc_image(source, 8, 0, &cache, &from_cache);
    EXPECT_FALSE(from_cache);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

namespace {

// The block a test gives a point kernel: the stream kernels march along the slow axis with a 1-deep block along it.
BlockDims point_test_block(int dims, Variant v) {
    if (v == Variant::Temporal) return dims == 3 ? BlockDims { 32, 16, 1 } : BlockDims { 128, 1, 1 };
    if (v == Variant::Stream) return dims == 3 ? BlockDims { 32, 4, 1 } : BlockDims { 64, 1, 1 };
    return dims == 3 ? BlockDims { 32, 4, 2 } : BlockDims { 32, 8, 1 };
}

std::string point_entry(int dims, Variant v) {
    const char* kind = v == Variant::Smem ? "ss_points_smem"
        : v == Variant::Stream            ? "ss_points_stream"
        : v == Variant::Temporal          ? "ss_points_temporal"
                                          : "ss_points";
    return kind + std::string(dims == 3 ? "_3d" : "_2d");
}

} // namespace

// Point stencils (issue 34): box, EBISU's ten and a 2D box R16 (1089 points), base, smem, stream and temporal (depth 2,
// not the R16 box: 2 x 1089 points per cell), compile generic and for a block, and name their entry ss_points_2d /
// ss_points_smem_3d / ss_points_stream_2d / ss_points_temporal_3d ...
TEST(Nvrtc, PointStencilKernelsCompile) {
    std::vector<StencilShape> shapes { box_shape(2, 1), box_shape(2, 16), box_shape(3, 2) };
    for (const std::string_view name : ebisu_stencil_names()) shapes.push_back(*ebisu_shape(name));
    std::vector<std::string> sources, names;
    for (const StencilShape& shape : shapes)
        for (Variant v : { Variant::Base, Variant::Smem, Variant::Stream, Variant::Temporal })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (int cf : { 1, 4 }) {
                    if (v == Variant::Temporal && shape.radius() > 8) continue;
                    StencilConfig c;
                    use_shape(c.problem, shape);
                    c.problem.precision = p, c.policy.cf = cf, c.policy.variant = v;
                    if (v == Variant::Temporal) c.policy.depth = 2;
                    c.problem.size = shape.dims == 3 ? Extent { 96, 80, 64 } : Extent { 1024, 512, 1 };
                    const BlockDims b = point_test_block(shape.dims, v);
                    for (const BlockDims* fixed : { static_cast<const BlockDims*>(nullptr), &b }) {
                        sources.push_back(kernel_source_of(c, fixed));
                        names.push_back(describe(c) + (fixed ? " for its block" : ""));
                        const std::string entry = point_entry(shape.dims, v);
                        EXPECT_NE(sources.back().find("#define SS_ENTRY " + entry + "\n"), std::string::npos);
                    }
                }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(errors[i], "") << names[i];
}

// Issue 35: EBISU's stars (every point on an axis), planned as the star (axis_star_plan.h), compile as the star's
// temporal kernel with a weight per direction, generic and for a block, at CF 1 and 4, fp32 and fp64.
TEST(Nvrtc, AxisStarTemporalKernelsCompile) {
    std::vector<std::string> sources, names;
    for (const char* name : { "2d5pt", "2ds9pt", "3d7pt", "3d13pt" })
        for (Precision p : { Precision::FP32, Precision::FP64 })
            for (int cf : { 1, 4 }) {
                StencilConfig c;
                use_shape(c.problem, *ebisu_shape(name));
                c.problem.precision = p, c.policy.cf = cf, c.policy.variant = Variant::Temporal, c.policy.depth = 3;
                c.problem.size = c.problem.dims == 3 ? Extent { 96, 80, 64 } : Extent { 1024, 512, 1 };
                const StencilConfig planned = planned_config(c);
                ASSERT_EQ(planned.problem.stencil, StencilKind::Star) << name;
                const BlockDims b = point_test_block(c.problem.dims, Variant::Temporal);
                for (const BlockDims* fixed : { static_cast<const BlockDims*>(nullptr), &b }) {
                    sources.push_back(kernel_source_of(planned, fixed));
                    names.push_back(describe(c) + (fixed ? " for its block" : ""));
                    EXPECT_NE(sources.back().find("#define AXIS_WEIGHTS "), std::string::npos) << names.back();
                }
            }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(errors[i], "") << names[i];
}

// The forward stream kernel (STENCILSCOPE_POINT_FORWARD=1): each arriving plane summed into its 2R+1 output planes.
TEST(Nvrtc, PointForwardStreamKernelsCompile) {
    std::vector<StencilShape> shapes { box_shape(2, 1), box_shape(2, 3), box_shape(3, 1), box_shape(3, 2) };
    for (const char* name : { "2d5pt", "3d17pt", "poisson" }) shapes.push_back(*ebisu_shape(name));
    std::vector<std::string> sources, names;
    for (const StencilShape& shape : shapes)
        for (Precision p : { Precision::FP32, Precision::FP64 })
            for (int cf : { 1, 2, 4 })
                for (bool remote : { false, true }) {
                    StencilConfig c;
                    use_shape(c.problem, shape);
                    c.problem.precision = p, c.policy.cf = cf, c.policy.variant = Variant::Stream;
                    c.problem.size = shape.dims == 3 ? Extent { 96, 80, 64 } : Extent { 1024, 512, 1 };
                    if (remote) c.placement.halo = HaloMode::Remote, c.placement.split = SplitAxis::Y;
                    KernelPlan plan = plan_kernels(c, c, largest_gpu_limits());
                    plan.point_forward = true;
                    const BlockDims b = point_test_block(shape.dims, Variant::Stream);
                    for (const BlockDims* fixed : { static_cast<const BlockDims*>(nullptr), &b }) {
                        sources.push_back(kernel_source(plan, fixed));
                        names.push_back(describe(c) + (remote ? " remote" : "") + (fixed ? " for its block" : ""));
                        EXPECT_NE(sources.back().find("#define POINT_FORWARD 1\n"), std::string::npos);
                    }
                }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(errors[i], "") << names[i];
}

// The point temporal kernel's input planes in flight (STENCILSCOPE_TEMPORAL_AHEAD, as the star's): one by default
// (compiled above), more where the knob asks.
TEST(Nvrtc, PointTemporalLoadsAheadCompile) {
    std::vector<std::string> sources, names;
    for (const StencilShape& shape : { box_shape(2, 1), *ebisu_shape("3d27pt"), *ebisu_shape("2d25pt") })
        for (int ahead : { 2, 3 })
            for (int cf : { 1, 2 }) {
                StencilConfig c;
                use_shape(c.problem, shape);
                c.policy.variant = Variant::Temporal, c.policy.depth = 2, c.policy.cf = cf;
                c.problem.size = shape.dims == 3 ? Extent { 96, 80, 64 } : Extent { 1024, 512, 1 };
                KernelPlan plan = plan_kernels(c, c, largest_gpu_limits());
                plan.temporal_loads_ahead = ahead;
                const BlockDims b = point_test_block(shape.dims, Variant::Temporal);
                for (const BlockDims* fixed : { static_cast<const BlockDims*>(nullptr), &b }) {
                    sources.push_back(kernel_source(plan, fixed));
                    names.push_back(describe(c) + " ahead " + std::to_string(ahead) + (fixed ? " for its block" : ""));
                    EXPECT_NE(sources.back().find("#define TEMPORAL_AHEAD " + std::to_string(ahead) + "\n"),
                        std::string::npos);
                }
            }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(errors[i], "") << names[i];
}

// 2D temporal kernels that sum forward take K rows per barrier where the plan says so (temporal_sync_rows): the
// star's, a point star on it (2d5pt) and a point stencil's, with inputs one and two chunks ahead.
TEST(Nvrtc, TemporalRowsPerBarrierCompile) {
    std::vector<std::string> sources, names;
    for (const char* name : { "star", "2d5pt", "2d9pt", "2d25pt" })
        for (int rows : { 2, 4 })
            for (int ahead : { 1, 2 })
                for (Precision p : { Precision::FP32, Precision::FP64 }) {
                    StencilConfig c;
                    if (const auto shape = ebisu_shape(name)) use_shape(c.problem, *shape);
                    c.policy.variant = Variant::Temporal, c.policy.depth = 3, c.policy.cf = 2;
                    c.problem.size = Extent { 1024, 512, 1 }, c.problem.precision = p;
                    KernelPlan plan = plan_kernels(planned_config(c), planned_config(c), largest_gpu_limits());
                    plan.temporal_sync_rows = rows, plan.temporal_loads_ahead = ahead;
                    const BlockDims b { 128, 1, 1 };
                    sources.push_back(kernel_source(plan, &b));
                    names.push_back(describe(c) + " rows " + std::to_string(rows) + " ahead " + std::to_string(ahead));
                    EXPECT_NE(sources.back().find("#define TEMPORAL_SYNC_ROWS " + std::to_string(rows) + "\n"),
                        std::string::npos)
                        << names.back();
                }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(errors[i], "") << names[i];
}

// Point stencils on strips: strips along the slow axis run one GPU's text (above); remote strips, and box strips cut
// along x or y, compile their own: base picks each operand's buffer, smem and stream each tile cell's.
TEST(Nvrtc, PointStencilStripKernelsCompile) {
    std::vector<std::string> sources, names;
    for (const StencilShape& shape : { box_shape(2, 2), *ebisu_shape("3d27pt"), box_shape(3, 2) })
        for (Variant v : { Variant::Base, Variant::Smem, Variant::Stream })
            for (Precision p : { Precision::FP32, Precision::FP64 })
                for (SplitAxis split : { SplitAxis::X, SplitAxis::Y, SplitAxis::Z }) {
                    if (shape.dims == 2 && split == SplitAxis::Z) continue;
                    StencilConfig c;
                    use_shape(c.problem, shape);
                    c.problem.precision = p, c.policy.variant = v, c.policy.cf = 2;
                    c.problem.size = shape.dims == 3 ? Extent { 40, 36, 30 } : Extent { 260, 130, 1 };
                    c.placement.halo = HaloMode::Remote, c.placement.split = split;
                    const BlockDims b = point_test_block(shape.dims, v);
                    for (const BlockDims* fixed : { static_cast<const BlockDims*>(nullptr), &b }) {
                        sources.push_back(kernel_source(plan_kernels(c, c, largest_gpu_limits()), fixed));
                        names.push_back(
                            describe(c) + " split " + std::string(to_string(split)) + (fixed ? " for its block" : ""));
                    }
                }
    const std::vector<std::string> errors = compile_errors(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        EXPECT_NE(sources[i].find("#define REMOTE 1\n#define SPLIT "), std::string::npos) << names[i];
        EXPECT_EQ(errors[i], "") << names[i];
    }
}
