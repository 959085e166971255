// SPDX-License-Identifier: MIT
// The thesis' studies as sweeps: what a spec plans, how improvements are normalised, and a real (CPU) run.
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/profiler/metrics.h"
#include "gpu/studies/experiments.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ss;

namespace {

ExperimentSpec spec_of(
    ExperimentKind kind, std::vector<int> radii, std::vector<Variant> variants, std::vector<int> cfs = { 1, 2, 4, 8 }) {
    ExperimentSpec s;
    s.kind = kind;
    s.radii = std::move(radii);
    s.variants = std::move(variants);
    s.cfs = std::move(cfs);
    return s;
}

bool is_base(const StencilConfig& c) {
    return c.policy.variant == Variant::Base && c.policy.cf == 1 && c.policy.heuristic_block;
}

ExperimentPoint point(Variant v, int radius, double gcells, bool autotuned = false) {
    ExperimentPoint p;
    p.config.policy.variant = v;
    p.config.problem.radius = radius;
    p.autotuned = autotuned;
    p.config.policy.heuristic_block = !autotuned;
    p.gcells_per_s = gcells;
    return p;
}

ExperimentSpec cpu_spec(ExperimentKind kind, std::vector<int> radii) {
    ExperimentSpec s = spec_of(kind, std::move(radii), { Variant::Base, Variant::Smem }, { 1, 2 });
    s.base.placement.backend = Backend::Cpu;
    s.base.problem.size = { 24, 20, 1 };
    s.steps = 1;
    s.repeats = 1;
    return s;
}

} // namespace

TEST(ExperimentPlan, RadiusRunsEveryVariantAtEveryRadiusBaseFirst) {
    const auto plan = experiment_plan(spec_of(ExperimentKind::Radius, { 1, 2, 4 }, { Variant::Smem, Variant::Base }));
    ASSERT_EQ(plan.size(), 6u);
    for (std::size_t i = 0; i < plan.size(); i += 2) {
        EXPECT_TRUE(is_base(plan[i])) << i;
        EXPECT_EQ(plan[i + 1].policy.variant, Variant::Smem);
        EXPECT_EQ(plan[i].problem.radius, plan[i + 1].problem.radius);
        EXPECT_EQ(plan[i + 1].policy.cf, 1);
    }
    EXPECT_EQ(plan[4].problem.radius, 4);
}

TEST(ExperimentPlan, BaseIsAddedWhenTheVariantsLeaveItOut) {
    const auto plan
        = experiment_plan(spec_of(ExperimentKind::Radius, { 1, 2, 4 }, { Variant::Smem, Variant::SmemPadded }));
    ASSERT_EQ(plan.size(), 9u); // the normaliser + 2 variants, per radius
    for (std::size_t i = 0; i < plan.size(); i += 3) EXPECT_TRUE(is_base(plan[i])) << i;
}

TEST(ExperimentPlan, CoarseningMultipliesByTheCfs) {
    const auto plan = experiment_plan(spec_of(ExperimentKind::Coarsening, { 1, 2 }, { Variant::Base, Variant::Smem }));
    EXPECT_EQ(plan.size(), 2u * 2u * 4u);
    EXPECT_TRUE(is_base(plan[0]));
    EXPECT_TRUE(is_base(plan[8]));
    // Without CF 1 the base point is still planned first: every improvement needs it.
    const auto no_cf1
        = experiment_plan(spec_of(ExperimentKind::Coarsening, { 1, 2 }, { Variant::Base, Variant::Smem }, { 2, 4 }));
    EXPECT_EQ(no_cf1.size(), 2u * (1u + 2u * 2u));
    EXPECT_TRUE(is_base(no_cf1[0]));
}

TEST(ExperimentPlan, AutotunedSearchesEveryCfAfterTheHeuristicPoint) {
    const auto plan
        = experiment_plan(spec_of(ExperimentKind::Autotuned, { 4 }, { Variant::Smem, Variant::Base }, { 1, 2 }));
    // base heuristic, base CF1/CF2 searches, smem heuristic, smem CF1/CF2 searches
    ASSERT_EQ(plan.size(), 6u);
    EXPECT_TRUE(is_base(plan[0]));
    EXPECT_FALSE(plan[1].policy.heuristic_block);
    EXPECT_EQ(plan[2].policy.cf, 2);
    EXPECT_EQ(plan[3].policy.variant, Variant::Smem);
    EXPECT_TRUE(plan[3].policy.heuristic_block);
    EXPECT_FALSE(plan[5].policy.heuristic_block);
}

TEST(ExperimentSpecCheck, RefusesWhatCannotBeSwept) {
    ExperimentSpec ok = spec_of(ExperimentKind::Coarsening, { 1, 2 }, { Variant::Base });
    EXPECT_TRUE(check_experiment(ok).ok);
    auto refused = [&](auto change) {
        ExperimentSpec s = ok;
        change(s);
        const Status status = check_experiment(s);
        EXPECT_FALSE(status.ok);
        EXPECT_EQ(status.reason.find('\n'), std::string::npos);
        return status.reason;
    };
    refused([](ExperimentSpec& s) { s.radii.clear(); });
    EXPECT_NE(refused([](ExperimentSpec& s) { s.radii = { 17 }; }).find("17"), std::string::npos);
    refused([](ExperimentSpec& s) { s.radii = { 2, 2 }; });
    refused([](ExperimentSpec& s) { s.variants.clear(); });
    refused([](ExperimentSpec& s) { s.variants = { Variant::Naive }; });
    EXPECT_NE(refused([](ExperimentSpec& s) { s.cfs = { 3 }; }).find("3"), std::string::npos);
    refused([](ExperimentSpec& s) { s.cfs.clear(); });
    refused([](ExperimentSpec& s) { s.steps = 0; });
    refused([](ExperimentSpec& s) { s.repeats = 0; });
    refused([](ExperimentSpec& s) { s.base.problem.stencil = StencilKind::Diffusion4; });
    refused([](ExperimentSpec& s) { s.kind = ExperimentKind::Autotuned, s.base.placement.backend = Backend::Cpu; });
    ExperimentSpec radius_only = ok;
    radius_only.kind = ExperimentKind::Radius;
    radius_only.cfs.clear(); // the radius study does not vary CF
    EXPECT_TRUE(check_experiment(radius_only).ok);
    EXPECT_EQ(parse_experiment("cf"), ExperimentKind::Coarsening);
    EXPECT_FALSE(parse_experiment("CF").has_value());
}

TEST(NormaliseToBase, BaseIsExactlyOneAndOthersAreRatiosAtTheirRadius) {
    std::vector<ExperimentPoint> points = { point(Variant::Base, 1, 123.456), point(Variant::Smem, 1, 185.184),
        point(Variant::Base, 2, 50.0), point(Variant::Smem, 2, 25.0), point(Variant::Base, 2, 500.0, true) };
    points[0].bottleneck_gbs = 1000.0;
    points[1].bottleneck_gbs = 1500.0;
    normalise_to_base(points);
    EXPECT_EQ(points[0].improvement, 1.0);
    EXPECT_EQ(points[2].improvement, 1.0);
    EXPECT_DOUBLE_EQ(points[1].improvement, 1.5);
    EXPECT_DOUBLE_EQ(points[3].improvement, 0.5); // against R2's base, not R1's
    EXPECT_DOUBLE_EQ(points[4].improvement, 10.0); // an autotuned base is not the normaliser
    EXPECT_DOUBLE_EQ(points[1].bottleneck_improvement, 1.5);
    EXPECT_TRUE(std::isnan(points[3].bottleneck_improvement)); // no counters at R2
}

TEST(NormaliseToBase, FailedOrMissingBaseGivesNaN) {
    std::vector<ExperimentPoint> points
        = { point(Variant::Base, 1, 0.0), point(Variant::Smem, 1, 100.0), point(Variant::Smem, 4, 100.0) };
    points[0].error = "refused";
    points.push_back(point(Variant::Base, 2, 10.0));
    points.push_back(point(Variant::Smem, 2, 20.0));
    points.back().error = "failed";
    normalise_to_base(points);
    EXPECT_TRUE(std::isnan(points[0].improvement));
    EXPECT_TRUE(std::isnan(points[1].improvement)); // base failed
    EXPECT_TRUE(std::isnan(points[2].improvement)); // no base at R4
    EXPECT_EQ(points[3].improvement, 1.0);
    EXPECT_TRUE(std::isnan(points[4].improvement)); // the point itself failed
}

TEST(RunExperiment, CpuCoarseningSweepMeasuresEveryPlannedPoint) {
    const ExperimentSpec spec = cpu_spec(ExperimentKind::Coarsening, { 1, 2 });
    int last_done = 0, calls = 0, total_seen = 0;
    const auto points = run_experiment(spec, DeviceCatalogue {}, [&](int done, int total, const std::string& what) {
        EXPECT_EQ(done, last_done + 1) << what;
        EXPECT_FALSE(what.empty());
        last_done = done, total_seen = total, ++calls;
        return true;
    });
    ASSERT_EQ(points.size(), experiment_plan(spec).size());
    EXPECT_EQ(total_seen, int(points.size()));
    EXPECT_EQ(last_done, total_seen);
    EXPECT_EQ(points[0].series, "base");
    EXPECT_EQ(points[1].series, "base CF2");
    EXPECT_EQ(points[3].series, "smem CF2");
    for (const auto& p : points) {
        EXPECT_EQ(p.error, "") << p.series;
        EXPECT_GT(p.gcells_per_s, 0.0) << p.series;
        EXPECT_GT(p.ms_per_step, 0.0) << p.series;
        EXPECT_TRUE(std::isfinite(p.improvement)) << p.series;
        EXPECT_EQ(p.bottleneck_metric, ""); // counters off
        EXPECT_TRUE(std::isnan(p.bottleneck_gbs));
    }
    EXPECT_EQ(points[0].improvement, 1.0);
    EXPECT_DOUBLE_EQ(points[3].improvement, points[3].gcells_per_s / points[0].gcells_per_s);
}

TEST(RunExperiment, RefusedPointsKeepTheirReasonAndTheRestRuns) {
    ExperimentSpec spec = cpu_spec(ExperimentKind::Radius, { 1, 16 }); // 24x20 is too small for R16
    spec.counters = true; // no counters on the CPU: a warning, NaN metrics, the run goes on
    std::vector<std::string> warnings;
    const auto points = run_experiment(spec, DeviceCatalogue {}, {}, nullptr, &warnings);
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].error, "");
    EXPECT_EQ(points[1].error, "");
    EXPECT_NE(points[2].error.find("smaller"), std::string::npos) << points[2].error;
    EXPECT_NE(points[3].error, "");
    EXPECT_TRUE(std::isnan(points[2].improvement));
    EXPECT_EQ(points[0].bottleneck_metric, "dram_write_gbs");
    EXPECT_TRUE(std::isnan(points[0].bottleneck_gbs));
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("CUDA"), std::string::npos) << warnings[0];
}

TEST(RunExperiment, CancellingReturnsThePointsSoFar) {
    const auto points = run_experiment(cpu_spec(ExperimentKind::Coarsening, { 1, 2 }), DeviceCatalogue {},
        [](int done, int, const std::string&) { return done < 3; });
    EXPECT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0].improvement, 1.0);
}

TEST(RunExperiment, InvalidSpecGivesNoPoints) {
    ExperimentSpec spec = cpu_spec(ExperimentKind::Radius, {});
    EXPECT_TRUE(run_experiment(spec, DeviceCatalogue {}).empty());
}

TEST(BottleneckMetrics, BytesOverKernelTime) {
    KernelMetrics m { { "gpu__time_duration.sum", 2e6 }, { "dram__bytes_write.sum", 3e9 },
        { "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", 1e9 },
        { "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", 5e8 } };
    EXPECT_DOUBLE_EQ(dram_write_gbs(m), 1500.0); // 3 GB in 2 ms
    EXPECT_DOUBLE_EQ(local_memory_gbs(m), 750.0); // loads + stores
    m.erase("l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum");
    EXPECT_TRUE(std::isnan(local_memory_gbs(m)));
    m.erase("gpu__time_duration.sum");
    EXPECT_TRUE(std::isnan(dram_write_gbs(m)));
}

// The depth sweep: base first (the single-step reference of every improvement), then the temporal variant at
// each depth valid for the radius (1..12 in 2D, 1..6 in 3D, less what the halo or registers refuse).
TEST(ExperimentPlan, DepthRunsTemporalAtEveryValidDepthAfterBase) {
    ExperimentSpec spec = spec_of(ExperimentKind::Depth, { 1, 8 }, {}, { 1 });
    spec.base.problem.size = { 8352, 8352, 1 };
    const auto plan = experiment_plan(spec);
    ASSERT_EQ(plan.size(), 1u + 12u + 1u + 10u); // R8: 2 x 8 x depth pending sums, at most 160: depth <= 10
    EXPECT_TRUE(is_base(plan[0]));
    for (int d = 1; d <= 12; ++d) {
        EXPECT_EQ(plan[std::size_t(d)].policy.variant, Variant::Temporal);
        EXPECT_EQ(plan[std::size_t(d)].policy.depth, d);
        EXPECT_EQ(plan[std::size_t(d)].problem.radius, 1);
    }
    EXPECT_TRUE(is_base(plan[13]));
    EXPECT_EQ(plan[13].problem.radius, 8);
    EXPECT_EQ(plan.back().policy.depth, 10);
    StencilConfig three = spec.base;
    three.problem.dims = 3, three.problem.size = { 384, 288, 256 };
    EXPECT_EQ(temporal_depths(three), (std::vector<int> { 1, 2, 3, 4, 5, 6 }));
    three.problem.radius = 4; // a 32-wide tile keeps a core only while 2 x 4 x depth < 32
    EXPECT_EQ(temporal_depths(three), (std::vector<int> { 1, 2, 3 }));
    spec.depths = { 9, 2 }; // given: run as listed
    const auto given = experiment_plan(spec);
    ASSERT_EQ(given.size(), 6u);
    EXPECT_EQ(given[1].policy.depth, 9);
    EXPECT_EQ(given[2].policy.depth, 2);
}

TEST(ExperimentSpecCheck, DepthSweepRefusalsSayWhy) {
    auto reason = [](const ExperimentSpec& s) { return check_experiment(s).reason; };
    ExperimentSpec spec = spec_of(ExperimentKind::Depth, { 1 }, {}, { 1 });
    EXPECT_TRUE(check_experiment(spec)) << reason(spec);
    spec.depths = { 0 };
    EXPECT_NE(reason(spec).find("depth must be 1..32"), std::string::npos) << reason(spec);
    spec.depths = { 3, 3 };
    EXPECT_NE(reason(spec).find("listed twice"), std::string::npos) << reason(spec);
    spec.depths.clear();
    spec.base.problem.rule = UpdateRule::Wave;
    EXPECT_NE(reason(spec).find("wave rule"), std::string::npos) << reason(spec);
    spec.base.problem.rule = UpdateRule::Jacobi;
    spec.base.problem.dims = 3, spec.base.problem.size = { 64, 64, 64 };
    spec.radii = { 16 }; // a 32-wide tile has no core at R16
    EXPECT_NE(reason(spec).find("temporal runs no depth at R16"), std::string::npos) << reason(spec);
}

// On the CPU backend (CI): every point runs, the CSV carries the depth and reads back; no counters: NaN bytes.
TEST(RunExperiment, CpuDepthSweepRunsEveryDepth) {
    ExperimentSpec spec = cpu_spec(ExperimentKind::Depth, { 1 });
    spec.cfs = { 1 };
    spec.depths = { 1, 2, 4 };
    const auto points = run_experiment(spec, DeviceCatalogue {});
    ASSERT_EQ(points.size(), 4u);
    EXPECT_EQ(points[0].series, "base");
    for (std::size_t i = 1; i < points.size(); ++i) {
        EXPECT_EQ(points[i].series, "temporal");
        EXPECT_EQ(points[i].error, "") << i;
        EXPECT_GT(points[i].gcells_per_s, 0.0);
        EXPECT_TRUE(std::isfinite(points[i].improvement));
        EXPECT_TRUE(std::isnan(points[i].dram_bytes_per_cell));
    }
    EXPECT_EQ(points[3].config.policy.depth, 4);
}

// A box follows the radius: a sweep over R runs the box of each R (all (2R+1)^dims points) with the jacobi rule, and
// its CPU points measure; a stencil of one radius (an EBISU benchmark), a box too large for the stencil limits, or
// another rule are refused in one line.
TEST(ExperimentPlan, BoxSweepRunsTheBoxOfEveryRadius) {
    ExperimentSpec s = cpu_spec(ExperimentKind::Radius, { 1, 2, 3 });
    use_shape(s.base.problem, box_shape(2, 1));
    s.base.problem.rule = UpdateRule::Jacobi;
    s.base.problem.size = { 40, 36, 1 };
    ASSERT_TRUE(check_experiment(s)) << check_experiment(s).reason;
    const std::vector<StencilConfig> plan = experiment_plan(s);
    ASSERT_FALSE(plan.empty());
    for (const StencilConfig& c : plan) {
        ASSERT_TRUE(c.problem.shape);
        const std::size_t side = std::size_t(2 * c.problem.radius + 1);
        EXPECT_EQ(c.problem.shape->points.size(), side * side) << describe(c);
        EXPECT_EQ(stencil_name(c.problem), "box");
    }
    const std::vector<ExperimentPoint> points = run_experiment(s, DeviceCatalogue {}, {});
    ASSERT_EQ(points.size(), plan.size());
    for (const ExperimentPoint& p : points) EXPECT_TRUE(p.error.empty() && p.gcells_per_s > 0) << p.error;

    ExperimentSpec named = s;
    use_shape(named.base.problem, *ebisu_shape("2d9pt"));
    EXPECT_NE(check_experiment(named).reason.find("2d9pt has one radius"), std::string::npos)
        << check_experiment(named).reason;
    ExperimentSpec huge = s;
    use_shape(huge.base.problem, box_shape(3, 1));
    huge.base.problem.dims = 3, huge.base.problem.size = { 40, 36, 30 }, huge.radii = { 1, 8 };
    EXPECT_NE(check_experiment(huge).reason.find("the box of radius 8"), std::string::npos)
        << check_experiment(huge).reason;
    ExperimentSpec wave = s;
    wave.base.problem.rule = UpdateRule::Wave;
    EXPECT_NE(check_experiment(wave).reason.find("jacobi rule"), std::string::npos) << check_experiment(wave).reason;
}
