// SPDX-License-Identifier: MIT
// --variant auto (issue 35): the candidates the model lists, and the tune over them with a fake timer (no GPU):
// the fastest wins, a failing candidate is skipped, the cache answers a second time, the CPU backend takes base.
#include "gpu/plan/launch_plan.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/studies/auto_choice.h"
#include "gpu/studies/autotune_cache.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

using namespace ss;

namespace {

namespace fs = std::filesystem;

// An H100 SXM with the clocks EBISU's model needs (the catalogue's figures of a real one).
DeviceInfo h100_with_clocks() {
    DeviceInfo d = test::h100();
    d.memory_clock_khz = 2619000;
    d.memory_bus_bits = 5120;
    d.sm_clock_khz = 1980000;
    return d;
}

DeviceCatalogue h100_catalogue() {
    return described_catalogue(h100_with_clocks(), 1);
}

StencilConfig auto_request(int dims = 2) {
    StencilConfig c;
    c.problem.dims = dims;
    c.problem.size = dims == 3 ? Extent { 512, 512, 512 } : Extent { 8192, 8192, 1 };
    c.policy.variant = Variant::Auto;
    return c;
}

// Deterministic times: each candidate's milliseconds per step by its label, 1 ms where not given.
struct FakeTimer {
    std::map<std::string, double> ms; // by label
    std::set<std::string> throws; // labels that cannot run
    std::vector<StencilConfig> timed;
    std::vector<AutoCandidate> candidates;
    AutoTimeFn fn() {
        return [this](const StencilConfig& c) {
            timed.push_back(c);
            for (const AutoCandidate& a : candidates)
                if (a.config == c) {
                    if (throws.count(a.label)) throw std::runtime_error("out of registers (fake)");
                    return ms.count(a.label) ? ms[a.label] : 1.0;
                }
            throw std::runtime_error("not a candidate");
        };
    }
};

struct TempFile {
    fs::path path = fs::temp_directory_path() / "stencilscope_auto_choice_cache.tsv";
    TempFile() { fs::remove(path); }
    ~TempFile() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

std::vector<int> depths_of(const std::vector<AutoCandidate>& list, int cf) {
    std::vector<int> out;
    for (const AutoCandidate& a : list)
        if (a.config.policy.variant == Variant::Temporal && a.config.policy.cf == cf)
            out.push_back(a.config.policy.depth);
    return out;
}

} // namespace

TEST(AutoVariant, ParsesAndIsRefusedUnresolved) {
    ASSERT_EQ(parse_variant("auto"), Variant::Auto);
    EXPECT_EQ(to_string(Variant::Auto), "auto");
    const DeviceCatalogue catalogue = h100_catalogue();
    const Status s = can_implement(auto_request(), catalogue);
    EXPECT_FALSE(s);
    EXPECT_NE(s.reason.find("resolve --variant auto first"), std::string::npos) << s.reason;
    const LaunchPlan plan = make_launch_plan(auto_request(), catalogue);
    EXPECT_FALSE(plan.ok());
    // As an alternative of a base plan, auto is as runnable as its stand-in.
    StencilConfig base = auto_request();
    base.policy.variant = Variant::Base;
    EXPECT_TRUE(make_launch_plan(base, catalogue).variant_verdict(Variant::Auto));
    EXPECT_EQ(auto_stand_in(auto_request()).policy.variant, Variant::Base);
    StencilConfig diffusion = auto_request(3);
    diffusion.problem.stencil = StencilKind::Diffusion4;
    EXPECT_EQ(auto_stand_in(diffusion).policy.variant, Variant::Smem);
}

TEST(AutoVariant, StarCandidatesHoldStreamAndTemporalAroundTheModelsBest) {
    const DeviceCatalogue catalogue = h100_catalogue();
    const StencilConfig request = auto_request();
    const std::vector<AutoCandidate> list = auto_candidates(request, catalogue);
    ASSERT_FALSE(list.empty());
    EXPECT_LE(list.size(), std::size_t(kMaxAutoCandidates));
    const ModelDepth best = auto_model_depth(request, 1, h100_with_clocks());
    ASSERT_GT(best.gcells_per_s, 0.0) << "the described H100 has the model's figures";
    const std::vector<int> depths = depths_of(list, 1);
    EXPECT_NE(std::find(depths.begin(), depths.end(), best.depth), depths.end()) << best.depth;
    StencilConfig temporal = request;
    temporal.policy.variant = Variant::Temporal;
    const std::vector<int> searchable = temporal_depths(temporal);
    for (int d : { best.depth - 1, best.depth + 1 })
        if (std::find(searchable.begin(), searchable.end(), d) != searchable.end()) {
            EXPECT_NE(std::find(depths.begin(), depths.end(), d), depths.end()) << "neighbour depth " << d;
        }
    std::set<int> stream_cfs;
    for (const AutoCandidate& a : list) {
        EXPECT_TRUE(can_implement(a.config, catalogue)) << a.label;
        EXPECT_FALSE(a.why.empty()) << a.label;
        if (a.config.policy.variant == Variant::Stream) stream_cfs.insert(a.config.policy.cf);
    }
    EXPECT_EQ(stream_cfs, (std::set<int> { 1, 2, 4 }));
    EXPECT_EQ(list.back().config.policy.variant, Variant::Base) << "the fallback last";
    // 3D: EBISU's CF 4 tiles at several depths.
    EXPECT_GE(depths_of(auto_candidates(auto_request(3), catalogue), 4).size(), 2u);
}

TEST(AutoVariant, PointStencilCandidatesAreOnesItRuns) {
    const DeviceCatalogue catalogue = h100_catalogue();
    StencilConfig request = auto_request();
    use_shape(request.problem, *ebisu_shape("2d9pt"));
    const std::vector<AutoCandidate> list = auto_candidates(request, catalogue);
    ASSERT_FALSE(list.empty());
    bool temporal = false;
    std::set<int> stream_cfs;
    for (const AutoCandidate& a : list) {
        const Variant v = a.config.policy.variant;
        EXPECT_TRUE(v == Variant::Base || v == Variant::Smem || v == Variant::Stream || v == Variant::Temporal)
            << a.label;
        if (v == Variant::Stream) {
            stream_cfs.insert(a.config.policy.cf);
            EXPECT_NE(a.label.find(", CF " + std::to_string(a.config.policy.cf)), std::string::npos) << a.label;
        } else if (v == Variant::Temporal) { // the point kernel's default CF (2 in 2D)
            EXPECT_EQ(a.config.policy.cf, default_temporal_cf(a.config)) << a.label;
        } else {
            EXPECT_EQ(a.config.policy.cf, 1) << a.label;
        }
        EXPECT_TRUE(can_implement(a.config, catalogue)) << a.label;
        temporal = temporal || v == Variant::Temporal;
    }
    EXPECT_TRUE(temporal);
    EXPECT_EQ(stream_cfs, (std::set<int> { 1, 2, 4, 8 })) << "the point stream kernel's coarsening is tried too";
    EXPECT_LE(list.size(), std::size_t(kMaxAutoCandidates));

    StencilConfig poisson = auto_request(3);
    use_shape(poisson.problem, *ebisu_shape("poisson"));
    std::set<int> cfs_3d;
    for (const AutoCandidate& a : auto_candidates(poisson, catalogue))
        if (a.config.policy.variant == Variant::Stream) cfs_3d.insert(a.config.policy.cf);
    EXPECT_EQ(cfs_3d, (std::set<int> { 1, 2, 4, 8 })) << "the 3D point stream kernel at CF 8 too";
}

TEST(AutoVariant, TheFastestCandidateIsChosen) {
    const DeviceCatalogue catalogue = h100_catalogue();
    FakeTimer timer;
    timer.candidates = auto_candidates(auto_request(), catalogue);
    ASSERT_GE(timer.candidates.size(), 3u);
    const AutoCandidate& fastest = timer.candidates[timer.candidates.size() / 2];
    timer.ms[fastest.label] = 0.25;
    timer.ms[timer.candidates.front().label] = 0.5;
    const AutoChoice choice = choose_auto(auto_request(), catalogue, timer.fn());
    ASSERT_TRUE(choice.verdict) << choice.verdict.reason;
    EXPECT_EQ(choice.config, fastest.config);
    EXPECT_EQ(timer.timed.size(), timer.candidates.size());
    EXPECT_EQ(choice.reason.rfind("auto: " + fastest.label + " at ", 0), 0u) << choice.reason;
    EXPECT_NE(choice.reason.find("fastest of " + std::to_string(timer.candidates.size())), std::string::npos)
        << choice.reason;
    EXPECT_NE(choice.reason.find(timer.candidates.front().label), std::string::npos) << "the runner-up";
    EXPECT_FALSE(choice.from_cache);
}

TEST(AutoVariant, AFailingCandidateIsSkipped) {
    const DeviceCatalogue catalogue = h100_catalogue();
    FakeTimer timer;
    timer.candidates = auto_candidates(auto_request(), catalogue);
    ASSERT_GE(timer.candidates.size(), 2u);
    timer.ms[timer.candidates[0].label] = 0.1; // the fastest, but it throws
    timer.throws.insert(timer.candidates[0].label);
    timer.ms[timer.candidates[1].label] = 0.2;
    const AutoChoice choice = choose_auto(auto_request(), catalogue, timer.fn());
    ASSERT_TRUE(choice.verdict) << choice.verdict.reason;
    EXPECT_EQ(choice.config, timer.candidates[1].config);
    EXPECT_EQ(choice.measurements[0].error, "out of registers (fake)");
    EXPECT_NE(choice.reason.find("1 could not run"), std::string::npos) << choice.reason;
    // None running is a refusal, and the request stays auto.
    for (const AutoCandidate& a : timer.candidates) timer.throws.insert(a.label);
    const AutoChoice none = choose_auto(auto_request(), catalogue, timer.fn());
    EXPECT_FALSE(none.verdict);
    EXPECT_EQ(none.config.policy.variant, Variant::Auto);
}

TEST(AutoVariant, TheCacheAnswersTheSecondTime) {
    const DeviceCatalogue catalogue = h100_catalogue();
    TempFile file;
    FakeTimer timer;
    timer.candidates = auto_candidates(auto_request(), catalogue);
    timer.ms[timer.candidates.back().label] = 0.125;
    {
        AutotuneCache cache(file.path.string());
        const AutoChoice first = choose_auto(auto_request(), catalogue, timer.fn(), &cache);
        ASSERT_TRUE(first.verdict) << first.verdict.reason;
        EXPECT_TRUE(first.saved) << first.saved.reason;
    }
    const std::size_t timed = timer.timed.size();
    AutotuneCache reread(file.path.string()); // another process
    const AutoChoice second = choose_auto(auto_request(), catalogue, timer.fn(), &reread);
    ASSERT_TRUE(second.verdict) << second.verdict.reason;
    EXPECT_EQ(timer.timed.size(), timed) << "nothing timed again";
    EXPECT_TRUE(second.from_cache);
    EXPECT_EQ(second.config, timer.candidates.back().config);
    EXPECT_NE(second.reason.find("(cached)"), std::string::npos) << second.reason;
    // Another problem is another tune; reuse = false tunes again.
    StencilConfig fp64 = auto_request();
    fp64.problem.precision = Precision::FP64;
    EXPECT_FALSE(choose_auto(fp64, catalogue, timer.fn(), &reread).from_cache);
    EXPECT_FALSE(choose_auto(auto_request(), catalogue, timer.fn(), &reread, false).from_cache);
    // Point stencils of the same size are told apart by their points.
    StencilConfig nine = auto_request(), five = auto_request();
    use_shape(nine.problem, *ebisu_shape("2d9pt"));
    use_shape(five.problem, *ebisu_shape("2d5pt"));
    EXPECT_NE(auto_cache_key(nine, auto_candidates(nine, catalogue), catalogue),
        auto_cache_key(five, auto_candidates(five, catalogue), catalogue));
}

TEST(AutoVariant, TheCpuBackendTakesBaseWithoutTiming) {
    const DeviceCatalogue catalogue = h100_catalogue();
    StencilConfig request = auto_request();
    request.placement.backend = Backend::Cpu;
    request.problem.size = { 256, 256, 1 };
    FakeTimer timer;
    const AutoChoice choice = choose_auto(request, catalogue, timer.fn());
    ASSERT_TRUE(choice.verdict) << choice.verdict.reason;
    EXPECT_EQ(choice.config.policy.variant, Variant::Base);
    EXPECT_TRUE(timer.timed.empty());
    EXPECT_NE(choice.reason.find("the CPU backend runs one loop for every variant"), std::string::npos);
    EXPECT_TRUE(auto_candidates(request, catalogue).empty());
}

// A CLI run times the candidates over its own steps (a depth that leaves single steps pays for them), and the cache
// keeps those tunes apart from the window's whole-launch ones.
TEST(AutoVariant, ARunIsTimedOverItsOwnStepsAndCachedApart) {
    EXPECT_EQ(auto_steps_for_run(24).count, 24);
    EXPECT_TRUE(auto_steps_for_run(24).exact);
    EXPECT_EQ(auto_steps_for_run(0).count, 1);
    EXPECT_EQ(auto_steps_for_run(100000).count, kAutoMaxExactSteps) << "a long run's tune stays short";
    EXPECT_FALSE(AutoSteps {}.exact) << "the window times whole launches";
    const DeviceCatalogue catalogue = h100_catalogue();
    const auto candidates = auto_candidates(auto_request(), catalogue);
    const std::string window = auto_cache_key(auto_request(), candidates, catalogue);
    EXPECT_EQ(window, auto_cache_key(auto_request(), candidates, catalogue, AutoSteps {}));
    EXPECT_NE(window, auto_cache_key(auto_request(), candidates, catalogue, auto_steps_for_run(kAutoSteps)));
    EXPECT_NE(auto_cache_key(auto_request(), candidates, catalogue, auto_steps_for_run(24)),
        auto_cache_key(auto_request(), candidates, catalogue, auto_steps_for_run(25)));
    FakeTimer timer;
    timer.candidates = candidates;
    const AutoChoice choice
        = choose_auto(auto_request(), catalogue, timer.fn(), nullptr, true, {}, auto_steps_for_run(24));
    ASSERT_TRUE(choice.verdict) << choice.verdict.reason;
    EXPECT_NE(choice.reason.find("(timed over runs of 24 steps)"), std::string::npos) << choice.reason;
    const AutoChoice steady = choose_auto(auto_request(), catalogue, timer.fn());
    EXPECT_EQ(steady.reason.find("timed over runs"), std::string::npos) << steady.reason;
}
