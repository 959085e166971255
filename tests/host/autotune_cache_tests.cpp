// SPDX-License-Identifier: MIT
// The on-disk cache of block searches: what separates entries, what survives a damaged file, and that
// a failed write is reported, not thrown.
#include "gpu/plan/launch_policy.h"
#include "gpu/plan/temporal_policy.h"
#include "gpu/plan/validation.h"
#include "gpu/problem/stencil_catalog.h"
#include "gpu/studies/autotune_cache.h"
#include "test_devices.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace ss;

namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name)
        : path(fs::temp_directory_path() / ("stencilscope_" + name)) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<AutotuneResult> sample_results() {
    return {
        { { 32, 8, 1 }, 0.1 / 3.0, 123.456789012345, "" },
        { { 1024, 1, 1 }, 1e-7, 9876.5, "" },
        { { 64, 16, 1 }, 0.0, 0.0, "too much\tshared\nmemory" },
    };
}

StencilConfig config_2d() {
    StencilConfig c;
    c.problem.size = { 4096, 4096, 1 };
    c.problem.radius = 4;
    c.policy.variant = Variant::Smem;
    return c;
}

} // namespace

TEST(AutotuneCache, StoredResultsReadBackExactlyInANewInstance) {
    TempDir dir("cache_round_trip");
    const std::string path = dir.file("sub/autotune.tsv"); // the directory is created on the first store
    {
        AutotuneCache cache(path);
        EXPECT_EQ(cache.size(), 0u);
        ASSERT_TRUE(cache.store("key one", sample_results()).ok);
    }
    AutotuneCache again(path);
    const auto entry = again.lookup("key one");
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(again.skipped_lines(), 0);
    ASSERT_EQ(entry->results.size(), 3u);
    const auto expected = sample_results();
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(entry->results[i].block, expected[i].block) << i;
        EXPECT_EQ(entry->results[i].ms_per_step, expected[i].ms_per_step) << i; // bit-exact through the text
        EXPECT_EQ(entry->results[i].gcells_per_s, expected[i].gcells_per_s) << i;
    }
    EXPECT_EQ(entry->results[0].error, "");
    EXPECT_EQ(entry->results[2].error, "too much shared memory"); // tab and newline cannot break the line
    EXPECT_EQ(entry->stored.size(), 20u) << entry->stored; // 2026-11-22T22:30:00Z
    EXPECT_EQ(entry->stored.back(), 'Z');
    EXPECT_FALSE(again.lookup("key two").has_value());
    // Written through a temporary that was renamed: nothing else is left beside the file.
    int files = 0;
    for (const auto& f : fs::directory_iterator(fs::path(path).parent_path())) files += f.is_regular_file();
    EXPECT_EQ(files, 1);
}

TEST(AutotuneCache, KeySeparatesEveryTimingFieldButNotTheBlockOrWhichCard) {
    const DeviceInfo h100 = test::h100();
    const StencilConfig c = config_2d();
    const std::string key = autotune_cache_key(c, 8, &h100);
    EXPECT_EQ(key.find('\t'), std::string::npos);

    std::vector<std::pair<std::string, StencilConfig>> changed;
    auto with = [&](const std::string& what, auto change) {
        StencilConfig d = c;
        change(d);
        changed.emplace_back(what, d);
    };
    with("stencil", [](StencilConfig& d) { d.problem.stencil = StencilKind::Diffusion4; });
    with("rule", [](StencilConfig& d) { d.problem.rule = UpdateRule::Wave; });
    with("dims", [](StencilConfig& d) { d.problem.dims = 3, d.problem.size = { 256, 256, 256 }; });
    with("size", [](StencilConfig& d) { d.problem.size.nx = 2048; });
    with("radius", [](StencilConfig& d) { d.problem.radius = 2; });
    with("variant", [](StencilConfig& d) { d.policy.variant = Variant::SmemPadded; });
    with("cf", [](StencilConfig& d) { d.policy.cf = 2; });
    with("precision", [](StencilConfig& d) { d.problem.precision = Precision::FP64; });
    with("gpus", [](StencilConfig& d) { d.placement.gpus = 2; });
    with("overlap", [](StencilConfig& d) { d.placement.overlap = false; });
    with("halo", [](StencilConfig& d) { d.placement.halo = HaloMode::Staged; });
    with("backend", [](StencilConfig& d) { d.placement.backend = Backend::Cpu; });
    for (const auto& [what, d] : changed) EXPECT_NE(autotune_cache_key(d, 8, &h100), key) << what;
    EXPECT_NE(autotune_cache_key(c, 16, &h100), key) << "steps";

    DeviceInfo other = h100;
    other.name = "NVIDIA H200";
    EXPECT_NE(autotune_cache_key(c, 8, &other), key) << "device name";
    other = h100;
    other.cc_minor = 1;
    EXPECT_NE(autotune_cache_key(c, 8, &other), key) << "compute capability";
    other = h100;
    other.sm_count = 114;
    EXPECT_NE(autotune_cache_key(c, 8, &other), key) << "SM count";

    // The same model in another slot, and the block being tuned, share the entry.
    other = h100;
    other.index = 3;
    other.pci_bus_id = "0000:c1:00.0";
    other.free_memory /= 2;
    EXPECT_EQ(autotune_cache_key(c, 8, &other), key);
    StencilConfig blocked = c;
    blocked.policy.heuristic_block = false;
    blocked.policy.block = { 128, 2, 1 };
    blocked.placement.device = 3;
    EXPECT_EQ(autotune_cache_key(blocked, 8, &h100), key);
}

// Two point stencils of one name and point count (two files naming themselves alike, one file edited) are different
// searches: the key holds a hash of the points and weights. The star's key names no points.
TEST(AutotuneCache, KeySeparatesPointStencilsOfOneNameAndCount) {
    const DeviceInfo h100 = test::h100();
    StencilConfig a;
    use_shape(a.problem, box_shape(2, 1));
    StencilShape edited = box_shape(2, 1);
    edited.points.front().weight *= 2;
    StencilConfig b = a;
    use_shape(b.problem, edited);
    StencilConfig five = a, moved = a;
    use_shape(five.problem, *ebisu_shape("2d5pt"));
    StencilShape corner = *ebisu_shape("2d5pt");
    corner.points.front().dx = -1; // (0, -1) moved to the corner (-1, -1): the same name, count and weights
    use_shape(moved.problem, corner);
    const std::string key = autotune_cache_key(a, 8, &h100);
    EXPECT_NE(key.find(";points=box,9,"), std::string::npos) << key;
    EXPECT_NE(autotune_cache_key(b, 8, &h100), key) << "a weight";
    EXPECT_NE(autotune_cache_key(moved, 8, &h100), autotune_cache_key(five, 8, &h100)) << "an offset";
    EXPECT_EQ(autotune_cache_key(StencilConfig(a), 8, &h100), key);
    EXPECT_EQ(autotune_cache_key(config_2d(), 8, &h100).find(";points="), std::string::npos);
}

TEST(AutotuneCache, DamagedLinesAreSkippedAndDroppedOnTheNextStore) {
    TempDir dir("cache_damaged");
    const std::string path = dir.file("autotune.tsv");
    {
        AutotuneCache cache(path);
        ASSERT_TRUE(cache.store("good", sample_results()).ok);
    }
    const std::string good = slurp(path);
    const std::string good_line = good.substr(good.find('\n') + 1); // after the comment line
    std::ofstream(path, std::ios::app) << "garbage without tabs\n"
                                       << good_line.substr(0, good_line.size() / 2) << "\n" // truncated
                                       << "k\t2026-11-22T22:30:00Z\t2\t32x8x1\t0.1\t100\t\n" // says 2, has 1
                                       << "k\t2026-11-22T22:30:00Z\t1\t32x8x1\tabc\t100\t\n" // not a number
                                       << "k\t2026-11-22T22:30:00Z\t1\t32x8x1\t-1\t100\t\n" // negative time
                                       << "k\t2026-11-22T22:30:00Z\t1\t0x8x1\t0.1\t100\t\n" // not a block
                                       << "k\tyesterday\t1\t32x8x1\t0.1\t100\t\n" // not a time
                                       << "\x01\x02\xff\t\t\n"
                                       << "\n";
    AutotuneCache damaged(path);
    EXPECT_EQ(damaged.size(), 1u);
    EXPECT_EQ(damaged.skipped_lines(), 8);
    ASSERT_TRUE(damaged.lookup("good").has_value());
    EXPECT_EQ(damaged.lookup("good")->results.size(), 3u);
    EXPECT_FALSE(damaged.lookup("k").has_value());

    ASSERT_TRUE(damaged.store("other", { { { 32, 32, 1 }, 0.5, 50.0, "" } }).ok);
    AutotuneCache rewritten(path);
    EXPECT_EQ(rewritten.size(), 2u);
    EXPECT_EQ(rewritten.skipped_lines(), 0);
}

TEST(AutotuneCache, StoreMergesWhatAnotherInstanceWroteMeanwhile) {
    TempDir dir("cache_merge");
    const std::string path = dir.file("autotune.tsv");
    AutotuneCache first(path), second(path);
    ASSERT_TRUE(first.store("from first", sample_results()).ok);
    ASSERT_TRUE(second.store("from second", sample_results()).ok);
    AutotuneCache both(path);
    EXPECT_TRUE(both.lookup("from first").has_value());
    EXPECT_TRUE(both.lookup("from second").has_value());
}

TEST(AutotuneCache, UnwritablePathIsReportedAndTheEntryStillServes) {
    TempDir dir("cache_unwritable");
    const std::string blocker = dir.file("a_file");
    std::ofstream(blocker) << "x";
    const std::string path = blocker + "/autotune.tsv"; // a directory that cannot exist, even for root
    AutotuneCache cache(path);
    Status s;
    EXPECT_NO_THROW(s = cache.store("key", sample_results()));
    EXPECT_FALSE(s.ok);
    EXPECT_NE(s.reason.find(path), std::string::npos) << s.reason;
    EXPECT_TRUE(cache.lookup("key").has_value());
    EXPECT_FALSE(cache.store("nothing", {}).ok);
}

TEST(AutotuneCache, DefaultPathFollowsXdgThenHome) {
    // Restores an environment variable when the test ends.
    struct SavedEnv {
        std::string name, value;
        bool was_set;
        explicit SavedEnv(const char* n)
            : name(n)
            , was_set(std::getenv(n) != nullptr) {
            if (was_set) value = std::getenv(n);
        }
        ~SavedEnv() { was_set ? setenv(name.c_str(), value.c_str(), 1) : unsetenv(name.c_str()); }
    } xdg("XDG_CACHE_HOME"), home("HOME");
    setenv("HOME", "/tmp", 1); // an existing folder: a missing HOME gives no cache (user_cache.h)
    setenv("XDG_CACHE_HOME", "/somewhere/cache", 1);
    EXPECT_EQ(default_autotune_cache_path(), "/somewhere/cache/stencilscope/autotune.tsv");
    setenv("XDG_CACHE_HOME", "relative/cache", 1); // the XDG spec says to ignore relative paths
    EXPECT_EQ(default_autotune_cache_path(), "/tmp/.cache/stencilscope/autotune.tsv");
    unsetenv("XDG_CACHE_HOME");
    EXPECT_EQ(default_autotune_cache_path(), "/tmp/.cache/stencilscope/autotune.tsv");
    setenv("HOME", "/nonexistent-home-of-a-tester", 1);
    EXPECT_EQ(default_autotune_cache_path(), "");
    unsetenv("HOME");
    EXPECT_EQ(default_autotune_cache_path(), "");
}

// The CPU backend ignores block dims, but runs the whole search: enough to test the cached entry point.
TEST(AutotuneCache, CachedSearchRunsOnceAndANewStepCountSearchesAgain) {
    TempDir dir("cache_cached_search");
    const std::string path = dir.file("autotune.tsv");
    StencilConfig c;
    c.placement.backend = Backend::Cpu;
    c.problem.size = { 24, 20, 1 };
    const std::vector<double> field(std::size_t(c.problem.size.cells()), 1.0);
    int calls = 0;
    auto count = [&](int, int, const AutotuneResult&) { return ++calls, true; };
    AutotuneCache cache(path);
    const CachedAutotune fresh = autotune_cached(c, DeviceCatalogue {}, field, 1, 1, count, &cache);
    EXPECT_FALSE(fresh.from_cache);
    EXPECT_TRUE(fresh.saved.ok) << fresh.saved.reason;
    ASSERT_FALSE(fresh.results.empty());
    EXPECT_EQ(calls, int(fresh.results.size()));

    AutotuneCache reopened(path);
    const CachedAutotune hit = autotune_cached(c, DeviceCatalogue {}, field, 1, 1, count, &reopened);
    EXPECT_TRUE(hit.from_cache);
    EXPECT_EQ(hit.stored, reopened.lookup(autotune_cache_key(c, 1, nullptr))->stored);
    EXPECT_EQ(calls, int(fresh.results.size())) << "a hit runs nothing";
    ASSERT_EQ(hit.results.size(), fresh.results.size());
    for (std::size_t i = 0; i < hit.results.size(); ++i) {
        EXPECT_EQ(hit.results[i].block, fresh.results[i].block);
        EXPECT_EQ(hit.results[i].gcells_per_s, fresh.results[i].gcells_per_s);
    }
    EXPECT_FALSE(autotune_cached(c, DeviceCatalogue {}, field, 2, 1, count, &reopened).from_cache);

    // Search again: measures despite the stored search and replaces it.
    const int before = calls;
    const CachedAutotune again = autotune_cached(c, DeviceCatalogue {}, field, 1, 1, count, &reopened, false);
    EXPECT_FALSE(again.from_cache);
    EXPECT_EQ(calls, before + int(again.results.size()));
    EXPECT_TRUE(again.saved.ok) << again.saved.reason;
    const auto stored = reopened.lookup(autotune_cache_key(c, 1, nullptr));
    ASSERT_TRUE(stored);
    ASSERT_EQ(stored->results.size(), again.results.size());
    for (std::size_t i = 0; i < again.results.size(); ++i) // the new measurement is what is stored now
        EXPECT_EQ(stored->results[i].gcells_per_s, again.results[i].gcells_per_s);
}

TEST(AutotuneCache, CancelledSearchIsNotStored) {
    TempDir dir("cache_cancelled");
    StencilConfig c;
    c.placement.backend = Backend::Cpu;
    c.problem.size = { 24, 20, 1 };
    const std::vector<double> field(std::size_t(c.problem.size.cells()), 1.0);
    AutotuneCache cache(dir.file("autotune.tsv"));
    const CachedAutotune r = autotune_cached(
        c, DeviceCatalogue {}, field, 1, 1, [](int done, int, const AutotuneResult&) { return done < 2; }, &cache);
    EXPECT_TRUE(r.cancelled);
    EXPECT_EQ(r.results.size(), 2u);
    EXPECT_EQ(cache.size(), 0u);
    EXPECT_FALSE(fs::exists(dir.file("autotune.tsv")));
}

// The temporal variant's search covers the depth: every block at each depth of temporal_depths (odd depths
// included: 7 measured among the fastest in 2D) that its tile allows; other variants keep their blocks at depth 1.
TEST(AutotuneDepth, TemporalCandidatesAreBlocksTimesValidDepths) {
    const DeviceInfo h100 = test::h100();
    StencilConfig c;
    c.problem.size = { 8352, 8352, 1 };
    c.policy.variant = Variant::Temporal, c.policy.depth = 9;
    const std::vector<BlockDims> blocks = autotune_space(c, &h100);
    const std::vector<AutotuneCandidate> candidates = autotune_candidates(c, &h100);
    ASSERT_FALSE(blocks.empty());
    EXPECT_EQ(candidates.size(), blocks.size() * 12u); // R1: a 32-wide tile holds t 12
    std::set<int> depths;
    for (const AutotuneCandidate& k : candidates) {
        depths.insert(k.depth);
        StencilConfig d = c;
        d.policy.depth = k.depth;
        EXPECT_TRUE(check_block(d, k.block, &h100)) << format_block(k.block) << " depth " << k.depth;
    }
    EXPECT_EQ(depths, (std::set<int> { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }));
    c.problem.radius = 4; // a 32-cell tile keeps a core only up to depth 3
    const std::vector<AutotuneCandidate> r4 = autotune_candidates(c, &h100);
    for (const AutotuneCandidate& k : r4)
        EXPECT_TRUE(k.block.x != 32 || k.depth <= 3) << format_block(k.block) << " depth " << k.depth;
    EXPECT_TRUE(std::any_of(
        r4.begin(), r4.end(), [](const AutotuneCandidate& k) { return k.block.x == 256 && k.depth == 12; }));
    StencilConfig three = c; // 3D: depths 1..6, odd ones too, at the blocks whose tile holds them
    three.problem.radius = 1, three.problem.dims = 3, three.problem.size = { 384, 288, 256 };
    std::set<int> depths3;
    for (const AutotuneCandidate& k : autotune_candidates(three, &h100)) depths3.insert(k.depth);
    EXPECT_EQ(depths3, (std::set<int> { 1, 2, 3, 4, 5, 6 }));
    const StencilConfig smem = config_2d();
    const std::vector<AutotuneCandidate> plain = autotune_candidates(smem, &h100);
    ASSERT_EQ(plain.size(), autotune_space(smem, &h100).size());
    for (const AutotuneCandidate& k : plain) EXPECT_EQ(k.depth, 1);
    c.policy.depth = 3;
    EXPECT_EQ(whole_launch_steps(c, 8), 9);
    EXPECT_EQ(whole_launch_steps(smem, 8), 8);
}

// A search over depths keeps each result's depth in the file and in the key; other searches keep 4 fields.
TEST(AutotuneDepth, CacheKeepsTheDepthAndTheKeyTheDepthsSearched) {
    TempDir dir("cache_depth");
    const std::string path = dir.file("autotune.tsv");
    std::vector<AutotuneResult> results = sample_results();
    results[0].depth = 9;
    results[1].depth = 4;
    {
        AutotuneCache cache(path);
        ASSERT_TRUE(cache.store("temporal", results).ok);
        ASSERT_TRUE(cache.store("plain", sample_results()).ok);
    }
    AutotuneCache again(path);
    EXPECT_EQ(again.skipped_lines(), 0);
    const auto entry = again.lookup("temporal");
    ASSERT_TRUE(entry);
    ASSERT_EQ(entry->results.size(), 3u);
    EXPECT_EQ(entry->results[0].depth, 9);
    EXPECT_EQ(entry->results[1].depth, 4);
    EXPECT_EQ(entry->results[2].depth, 1);
    EXPECT_EQ(entry->results[0].gcells_per_s, results[0].gcells_per_s);
    const std::string text = slurp(path);
    const auto plain_line = text.substr(text.find("plain\t"));
    EXPECT_EQ(std::count(plain_line.begin(), plain_line.begin() + plain_line.find('\n'), '\t'), 2 + 3 * 4);

    const DeviceInfo h100 = test::h100();
    StencilConfig c;
    c.policy.variant = Variant::Temporal, c.policy.depth = 6;
    const std::string key = autotune_cache_key(c, 8, &h100);
    EXPECT_NE(key.find(";depths=1,2,3,4,5,6,7,8,9,10,11,12"), std::string::npos) << key;
    StencilConfig deeper = c;
    deeper.policy.depth = 9; // the depth to start from is not part of the search
    EXPECT_EQ(autotune_cache_key(deeper, 8, &h100), key);
    EXPECT_EQ(autotune_cache_key(config_2d(), 8, &h100).find("depths"), std::string::npos);
}

// On the CPU backend (CI) a temporal search runs every candidate and records the depth it ran at.
TEST(AutotuneDepth, CpuSearchRecordsEachCandidatesDepth) {
    StencilConfig c;
    c.placement.backend = Backend::Cpu;
    c.problem.size = { 24, 20, 1 };
    c.policy.variant = Variant::Temporal, c.policy.depth = 2;
    const std::vector<double> field(std::size_t(c.problem.size.cells()), 1.0);
    const std::vector<AutotuneResult> results = autotune(c, DeviceCatalogue {}, field, 1, 1);
    const std::vector<AutotuneCandidate> candidates = autotune_candidates(c, nullptr);
    ASSERT_EQ(results.size(), candidates.size());
    std::set<int> depths;
    for (std::size_t i = 0; i < results.size(); ++i) {
        EXPECT_EQ(results[i].depth, candidates[i].depth);
        EXPECT_EQ(results[i].block, candidates[i].block);
        EXPECT_EQ(results[i].error, "") << describe_candidate(c, results[i]);
        depths.insert(results[i].depth);
    }
    EXPECT_GT(depths.size(), 1u);
    EXPECT_EQ(describe_candidate(c, results.back()), format_block(results.back().block) + " depth 12");
}
