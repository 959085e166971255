// SPDX-License-Identifier: MIT
// Issue 40: the window's background kernel build. A fake slow build stands for NVRTC: while it runs, newer
// requests replace each other, and only the newest one runs next.
#include "gpu/backends/background_build.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace ss {
namespace {

// Polls as the engine thread does; a generous bound only so that a broken build cannot hang the test.
bool wait_for_result(const BackgroundBuild& build, std::uint64_t id) {
    for (int i = 0; i < 20000; ++i) {
        if (build.result(id)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

TEST(BackgroundBuild, TheNewestRequestWinsAndNoneWaitsForTheOneRunning) {
    BackgroundBuild build;
    std::promise<void> release_first;
    std::shared_future<void> released = release_first.get_future().share();
    std::promise<void> first_started;
    std::atomic<int> ran_second { 0 }, ran_third { 0 };
    build.post(1, [&] {
        first_started.set_value();
        released.wait(); // a slow compile
        return Status::success();
    });
    first_started.get_future().wait();
    build.post(2, [&] {
        ++ran_second;
        return Status::success();
    });
    build.post(3, [&] {
        ++ran_third;
        return Status::failure("compile error");
    });
    // post() returned while job 1 runs: nobody waited for it.
    EXPECT_FALSE(build.result(1));
    EXPECT_FALSE(build.result(3));
    release_first.set_value();
    ASSERT_TRUE(wait_for_result(build, 3));
    EXPECT_EQ(ran_second.load(), 0); // dropped: a newer request replaced it before it started
    EXPECT_EQ(ran_third.load(), 1);
    const std::optional<Status> third = build.result(3);
    ASSERT_TRUE(third);
    EXPECT_FALSE(*third);
    EXPECT_EQ(third->reason, "compile error");
    EXPECT_FALSE(build.result(2));
}

TEST(BackgroundBuild, AThrowingJobIsAFailure) {
    BackgroundBuild build;
    build.post(7, []() -> Status { throw std::runtime_error("no NVRTC"); });
    ASSERT_TRUE(wait_for_result(build, 7));
    EXPECT_EQ(build.result(7)->reason, "no NVRTC");
}

TEST(BackgroundBuild, ClosingDropsTheWaitingJob) {
    std::atomic<int> ran_waiting { 0 };
    std::promise<void> release_first, first_started;
    std::shared_future<void> released = release_first.get_future().share();
    std::thread releaser;
    {
        BackgroundBuild build;
        build.post(1, [&] {
            first_started.set_value();
            released.wait();
            return Status::success();
        });
        first_started.get_future().wait();
        build.post(2, [&] {
            ++ran_waiting;
            return Status::success();
        });
        // The destructor waits for job 1 (running); the releaser ends it meanwhile.
        releaser = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            release_first.set_value();
        });
    }
    releaser.join();
    EXPECT_EQ(ran_waiting.load(), 0);
}

} // namespace
} // namespace ss
