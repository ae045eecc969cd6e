// Tests of io/memory_account.hpp: current and peak, and the reclaimer that lets a clean cache fill idle
// budget.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "flashxxl/io/memory_account.hpp"

using namespace flashxxl;

TEST(memory_account, counts_current_and_peak) {
    memory_account a;
    a.add(100);
    a.add(50);
    a.remove(120);
    EXPECT_EQ(a.current(), 30u);
    EXPECT_EQ(a.peak(), 150u);
    a.remove(1000);
    EXPECT_EQ(a.current(), 0u) << "never below zero";
    a.reset_peak();
    EXPECT_EQ(a.peak(), 0u);
}

//! A holder of reclaimable bytes (a stand-in for cluster_cache) fills the budget; adds above the
//! limit make it give back just the excess, so the peak stays at the limit.
TEST(memory_account, a_reclaimer_gives_back_the_excess_and_keeps_the_peak_at_the_limit) {
    memory_account a;
    std::uint64_t cached = 0;
    std::vector<std::uint64_t> asked;
    {
        const reclaimer_scope scope(a, 1000, [&](std::uint64_t excess) {
            asked.push_back(excess);
            const std::uint64_t freed = std::min(excess, cached);
            cached -= freed;
            a.remove(freed);
        });
        a.add(700); // the cache fills what is idle
        cached = 700;
        a.add(200);
        EXPECT_TRUE(asked.empty()) << "900 of 1000: no reclaim";
        a.add(250); // 150 over
        ASSERT_EQ(asked.size(), 1u);
        EXPECT_EQ(asked[0], 150u);
        EXPECT_EQ(cached, 550u);
        EXPECT_EQ(a.current(), 1000u);
        EXPECT_EQ(a.peak(), 1000u);
        a.add(600); // more than the cache holds: it frees all it has, the add still happens
        EXPECT_EQ(cached, 0u);
        EXPECT_EQ(a.current(), 1050u);
    }
    a.add(10);
    EXPECT_EQ(asked.size(), 2u) << "the scope ended: no reclaimer";
}

TEST(memory_account, adds_made_inside_the_reclaim_are_not_reclaimed_for) {
    memory_account a;
    int calls = 0;
    const reclaimer_scope scope(a, 10, [&](std::uint64_t) {
        ++calls;
        a.add(100); // would recurse without the guard
    });
    a.add(20);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(a.current(), 120u);
    a.add(1);
    EXPECT_EQ(calls, 2) << "the guard is cleared after a reclaim";
}
