// Tests of the sorter's non-template workers: chunk_sort_pool (chunk sorting threads) and background_task.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "flashxxl/container/background_task.hpp"
#include "flashxxl/container/chunk_sort_pool.hpp"

namespace {

using flashxxl::background_task;
using flashxxl::chunk_sort_pool;

std::vector<std::uint32_t> descending(std::size_t n) {
    std::vector<std::uint32_t> v(n);
    std::iota(v.rbegin(), v.rend(), 0u);
    return v;
}

TEST(ChunkSortPool, SortsEveryChunkOfABatchByTheGivenOrder) {
    std::vector<std::uint32_t> v = descending(40000);
    const std::greater<std::uint32_t> order; // sorts back to descending: a pool ignoring `order` fails
    std::reverse(v.begin(), v.begin() + 10000);
    chunk_sort_pool pool(&flashxxl::sort_chunk_with<std::uint32_t, std::greater<std::uint32_t>>, &order, 2);
    EXPECT_EQ(pool.threads(), 2u);
    for (std::size_t c = 0; c < 4; ++c)
        pool.submit(v.data() + c * 10000, v.data() + (c + 1) * 10000, 0);
    pool.wait(0);
    for (std::size_t c = 0; c < 4; ++c)
        EXPECT_TRUE(std::is_sorted(v.begin() + c * 10000, v.begin() + (c + 1) * 10000, order))
            << "chunk " << c;
}

TEST(ChunkSortPool, BatchesAreWaitedForSeparately) {
    std::vector<std::uint32_t> a = descending(5000), b = descending(5000);
    const std::less<std::uint32_t> order;
    chunk_sort_pool pool(&flashxxl::sort_chunk_with<std::uint32_t, std::less<std::uint32_t>>, &order, 1);
    pool.submit(a.data(), a.data() + a.size(), 0);
    pool.submit(b.data(), b.data() + b.size(), 1);
    pool.wait(1);
    EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
    pool.wait(0);
    EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
}

struct throwing_order {
    bool operator()(std::uint32_t a, std::uint32_t b) const {
        if (a == 77 || b == 77) throw std::runtime_error("comparator saw 77");
        return a < b;
    }
};

TEST(ChunkSortPool, AComparatorExceptionComesBackAtWaitOnce) {
    std::vector<std::uint32_t> v = descending(1000);
    const throwing_order order;
    chunk_sort_pool pool(&flashxxl::sort_chunk_with<std::uint32_t, throwing_order>, &order, 2);
    pool.submit(v.data(), v.data() + v.size(), 0);
    EXPECT_THROW(pool.wait(0), std::runtime_error);
    EXPECT_NO_THROW(pool.wait(0)); // reported once
}

// The two halves of a double-buffered run are separate batches: the half whose chunk threw
// reports it, and the other half, sorted in full, does not. The clean half is large, so that the
// pool's thread has usually recorded the other half's exception before wait(0) looks (a shared
// error slot then made wait(0) throw and wait(1) pass); the assertions hold whatever the timing.
TEST(ChunkSortPool, AComparatorExceptionIsReportedByItsOwnBatchOnly) {
    std::vector<std::uint32_t> failing = descending(1000); // holds 77: sorting it throws
    std::vector<std::uint32_t> clean(200000); // scrambled (pdqsort takes a reversed range in one pass), no 77
    for (std::size_t i = 0; i < clean.size(); ++i)
        clean[i] = 1000 + static_cast<std::uint32_t>(i * 7919 % 200000);
    const throwing_order order;
    chunk_sort_pool pool(&flashxxl::sort_chunk_with<std::uint32_t, throwing_order>, &order, 1);
    pool.submit(failing.data(), failing.data() + failing.size(), 1);
    pool.submit(clean.data(), clean.data() + clean.size(), 0);
    EXPECT_NO_THROW(pool.wait(0));
    EXPECT_TRUE(std::is_sorted(clean.begin(), clean.end()));
    EXPECT_THROW(pool.wait(1), std::runtime_error);
    EXPECT_NO_THROW(pool.wait(1)); // reported once
}

TEST(BackgroundTask, RunsTheJobOnAnotherThreadAndJoins) {
    background_task task;
    EXPECT_FALSE(task.running());
    std::atomic<bool> release{false};
    std::atomic<int> result{0};
    task.start([&] {
        while (!release.load())
            std::this_thread::yield();
        result = 42;
    });
    EXPECT_TRUE(task.running());
    EXPECT_EQ(result.load(), 0); // the job waits for `release`: it cannot have run on this thread
    release = true;
    task.join();
    EXPECT_FALSE(task.running());
    EXPECT_EQ(result.load(), 42);
}

TEST(BackgroundTask, JoinRethrowsTheJobsExceptionAndAllowsANewJob) {
    background_task task;
    task.start([] { throw std::runtime_error("job failed"); });
    EXPECT_THROW(task.join(), std::runtime_error);
    EXPECT_FALSE(task.running());
    int runs = 0;
    task.start([&] { ++runs; });
    EXPECT_NO_THROW(task.join());
    EXPECT_EQ(runs, 1);
}

TEST(BackgroundTask, StartingASecondJobBeforeJoinIsRefused) {
    background_task task;
    std::atomic<bool> release{false};
    task.start([&] {
        while (!release.load())
            std::this_thread::yield();
    });
    EXPECT_THROW(task.start([] {}), std::logic_error);
    release = true;
    task.join();
}

} // namespace
