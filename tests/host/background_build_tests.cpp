// SPDX-License-Identifier: MIT
// Issue 40: the window's background kernel build. A fake slow build stands for NVRTC: the newest request starts
// beside it on an idle worker; with every worker busy, newer requests replace each other and only the newest runs.
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
    BackgroundBuild build(1); // one worker, busy: requests wait and replace each other
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

TEST(BackgroundBuild, TheNewestRequestDoesNotQueueBehindAStaleBuild) {
    std::promise<void> release_stale, stale_started;
    std::shared_future<void> released = release_stale.get_future().share();
    BackgroundBuild build(2); // declared last: its destructor joins the workers before the promises go
    build.post(1, [&stale_started, released] {
        stale_started.set_value();
        released.wait(); // a superseded knob's compile, still running
        return Status::success();
    });
    stale_started.get_future().wait();
    build.post(2, [] { return Status::success(); });
    // Job 2 finishes on the other worker while job 1 still runs (a single worker would wait for job 1 forever).
    const bool second_done = wait_for_result(build, 2);
    release_stale.set_value();
    EXPECT_TRUE(second_done);
    EXPECT_FALSE(build.result(1)); // older than the newest request: nobody polls for it
}

TEST(BackgroundBuild, WithEveryWorkerBusyOnlyTheNewestWaitingJobRuns) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::promise<void> started_1, started_2;
    std::atomic<int> ran_3 { 0 };
    BackgroundBuild build(2); // declared last: its destructor joins the workers before the promises go
    build.post(1, [&started_1, released] {
        started_1.set_value();
        released.wait();
        return Status::success();
    });
    started_1.get_future().wait();
    build.post(2, [&started_2, released] {
        started_2.set_value();
        released.wait();
        return Status::success();
    });
    started_2.get_future().wait();
    build.post(3, [&] {
        ++ran_3;
        return Status::success();
    });
    build.post(4, [] { return Status::success(); });
    release.set_value();
    ASSERT_TRUE(wait_for_result(build, 4));
    EXPECT_EQ(ran_3.load(), 0);
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
        BackgroundBuild build(1);
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
