// SPDX-License-Identifier: MIT
// Issue 40: the kernel cache on disk. Its key, its refusal of damaged entries, its size limit and concurrent
// writers; each case in a fresh temporary folder. (The NVRTC round trip is in nvrtc_compile_tests.)
#include "gpu/io/kernel_disk_cache.h"
#include "gpu/io/user_cache.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

namespace ss {
namespace {

namespace fs = std::filesystem;

class KernelCacheFolder : public ::testing::Test {
protected:
    void SetUp() override {
        char dir[] = "/tmp/ss-kernel-cache-XXXXXX";
        ASSERT_NE(::mkdtemp(dir), nullptr);
        m_dir = dir;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }
    std::string m_dir;
};

KernelCacheKey sample_key() {
    return { "__global__ void k() {}", "--gpu-architecture=sm_90", "13.0", "13000", "-std=c++17 -lineinfo" };
}

std::vector<char> image_of(std::size_t bytes, char fill) {
    std::vector<char> image(bytes);
    for (std::size_t i = 0; i < bytes; ++i) image[i] = char(fill + char(i % 7));
    return image;
}

TEST(KernelCacheKeyHash, ChangesWithEveryInput) {
    const KernelCacheKey base = sample_key();
    std::set<std::string> hashes { kernel_cache_key_hash(base) };
    for (std::string KernelCacheKey::*field : { &KernelCacheKey::source, &KernelCacheKey::architecture,
             &KernelCacheKey::nvrtc_version, &KernelCacheKey::driver_version, &KernelCacheKey::options }) {
        KernelCacheKey changed = base;
        changed.*field += "x";
        hashes.insert(kernel_cache_key_hash(changed));
    }
    EXPECT_EQ(hashes.size(), 6u);
    // Lengths are part of the text: moving a character from one field to the next is another key.
    KernelCacheKey shifted = base;
    shifted.nvrtc_version = "13.";
    shifted.driver_version = "013000";
    EXPECT_NE(kernel_cache_key_hash(shifted), kernel_cache_key_hash(base));
    EXPECT_EQ(kernel_cache_key_hash(base), kernel_cache_key_hash(sample_key())); // and it is stable
    EXPECT_EQ(kernel_cache_key_hash(base).size(), 32u);
}

TEST_F(KernelCacheFolder, StoresAndLoadsAnImage) {
    const KernelDiskCache cache(m_dir + "/kernels"); // made on the first store
    EXPECT_FALSE(cache.load(sample_key()));
    const std::vector<char> image = image_of(1000, 'a');
    ASSERT_TRUE(cache.store(sample_key(), image));
    const auto loaded = cache.load(sample_key());
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, image);
    KernelCacheKey other = sample_key();
    other.architecture = "--gpu-architecture=sm_80";
    EXPECT_FALSE(cache.load(other));
}

TEST_F(KernelCacheFolder, RefusesTruncatedCorruptedAndForeignEntries) {
    const KernelDiskCache cache(m_dir);
    const std::vector<char> image = image_of(4096, 'k');
    const std::string path = cache.path_of(sample_key());
    auto rewrite = [&](auto change) {
        ASSERT_TRUE(cache.store(sample_key(), image));
        std::ifstream in(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        in.close();
        change(bytes);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    };
    rewrite([](std::string& b) { b.resize(b.size() - 100); }); // truncated
    EXPECT_FALSE(cache.load(sample_key()));
    rewrite([](std::string& b) { b.resize(20); }); // shorter than the header
    EXPECT_FALSE(cache.load(sample_key()));
    rewrite([](std::string& b) { b[b.size() / 2] ^= 0x20; }); // one flipped bit
    EXPECT_FALSE(cache.load(sample_key()));
    rewrite([](std::string& b) { b += "tail"; }); // longer than its header says
    EXPECT_FALSE(cache.load(sample_key()));
    rewrite([](std::string& b) { b[0] = 'X'; }); // not an entry at all
    EXPECT_FALSE(cache.load(sample_key()));
    rewrite([](std::string& b) { b[24] ^= 1; }); // stored for another key (a name collision)
    EXPECT_FALSE(cache.load(sample_key()));
    rewrite([](std::string&) {});
    EXPECT_TRUE(cache.load(sample_key())); // the untouched file still loads
    // A damaged entry is replaced by the next store.
    rewrite([](std::string& b) { b.resize(b.size() / 2); });
    ASSERT_TRUE(cache.store(sample_key(), image));
    EXPECT_EQ(cache.load(sample_key()), image);
}

TEST_F(KernelCacheFolder, EvictsTheLeastRecentlyUsedBeyondItsSize) {
    const std::size_t image_bytes = 10000;
    const KernelDiskCache cache(m_dir, 3 * image_bytes + 3 * 32 + 10); // three entries fit, four do not
    auto key = [](int i) {
        KernelCacheKey k = sample_key();
        k.source += std::to_string(i);
        return k;
    };
    auto age = [&](int i, int seconds_ago) {
        fs::last_write_time(
            cache.path_of(key(i)), fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
    };
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(cache.store(key(i), image_of(image_bytes, char('a' + i))));
    age(0, 300), age(1, 200), age(2, 100);
    ASSERT_TRUE(cache.load(key(0))); // a hit makes 0 the most recently used: 1 is now the oldest
    ASSERT_TRUE(cache.store(key(3), image_of(image_bytes, 'z')));
    EXPECT_TRUE(cache.load(key(0)));
    EXPECT_FALSE(cache.load(key(1)));
    EXPECT_TRUE(cache.load(key(2)));
    EXPECT_TRUE(cache.load(key(3)));
    std::uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(m_dir)) total += e.file_size();
    EXPECT_LE(total, 3 * image_bytes + 3 * 32 + 10);
}

TEST_F(KernelCacheFolder, RemovesAbandonedTemporariesOnly) {
    const KernelDiskCache cache(m_dir);
    const std::string stale = m_dir + "/.abc.kernel.Q1w2E3", fresh = m_dir + "/.def.kernel.R4t5Y6";
    std::ofstream(stale) << "half";
    std::ofstream(fresh) << "half";
    fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));
    cache.evict();
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(fresh)); // perhaps a writer at work
}

// Two writers of the same key, and a reader meanwhile: the reader sees the whole image or nothing, and the
// entry left behind loads.
TEST_F(KernelCacheFolder, ConcurrentWritersLeaveALoadableEntry) {
    const KernelDiskCache cache(m_dir);
    const std::vector<char> image = image_of(200000, 'c');
    std::atomic<bool> torn { false };
    auto writer = [&] {
        for (int i = 0; i < 20; ++i) (void)cache.store(sample_key(), image);
    };
    std::thread a(writer), b(writer);
    std::thread reader([&] {
        for (int i = 0; i < 200; ++i)
            if (const auto loaded = cache.load(sample_key()); loaded && *loaded != image) torn = true;
    });
    a.join(), b.join(), reader.join();
    EXPECT_FALSE(torn.load());
    EXPECT_EQ(cache.load(sample_key()), image);
    // And two processes: a child writes while the parent writes.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        writer();
        ::_exit(0);
    }
    writer();
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_EQ(cache.load(sample_key()), image);
}

TEST(KernelCacheDefaultFolder, FollowsXdgThenHome) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const bool had_xdg = xdg != nullptr;
    const std::string saved = xdg ? xdg : "";
    ::setenv("XDG_CACHE_HOME", "/somewhere/cache", 1);
    EXPECT_EQ(default_kernel_cache_folder(), "/somewhere/cache/stencilscope/kernels");
    ::setenv("XDG_CACHE_HOME", "relative", 1); // ignored (XDG spec)
    const char* home = std::getenv("HOME");
    if (home && *home) {
        EXPECT_EQ(default_kernel_cache_folder(), std::string(home) + "/.cache/stencilscope/kernels");
    }
    if (had_xdg) {
        ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    } else {
        ::unsetenv("XDG_CACHE_HOME");
    }
}

} // namespace
// Issue 36: with HOME pointing at a folder that does not exist, no cache path is given, so nothing creates HOME.
TEST(UserCache, AMissingHomeGivesNoCache) {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    const std::string saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
    ::unsetenv("XDG_CACHE_HOME");
    const std::filesystem::path missing = std::filesystem::temp_directory_path() / "stencilscope-no-such-home-4711";
    std::filesystem::remove_all(missing);
    ::setenv("HOME", missing.c_str(), 1);
    EXPECT_EQ(user_cache_path("kernels"), "");
    EXPECT_EQ(default_kernel_cache_folder(), "");
    EXPECT_FALSE(std::filesystem::exists(missing));
    ::setenv("HOME", std::filesystem::temp_directory_path().c_str(), 1);
    EXPECT_EQ(
        user_cache_path("kernels"), std::filesystem::temp_directory_path().string() + "/.cache/stencilscope/kernels");
    if (xdg) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
    if (home)
        ::setenv("HOME", saved_home.c_str(), 1);
    else
        ::unsetenv("HOME");
}

} // namespace ss
