// Containers as values: vector, sorter, priority_queue, stack, queue and map move and swap with their items,
// extents and accounts; map iterators stay valid across updates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/map.hpp"
#include "flashxxl/container/priority_queue.hpp"
#include "flashxxl/container/queue.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/stack.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/io/memory_budget.hpp"
#include "flashxxl/units.hpp"

namespace {

using namespace flashxxl;
using u64 = std::uint64_t;

const block_sizes blocks(4 * KiB, 16 * KiB);
constexpr u64 budget = 256 * KiB;
constexpr u64 items = 100000; // 800 KiB: every container below spills to its device

static_assert(std::is_nothrow_move_constructible<flashxxl::vector<u64>>::value, "vector moves");
static_assert(std::is_nothrow_move_assignable<flashxxl::vector<u64>>::value, "vector moves");
static_assert(std::is_nothrow_move_constructible<sorter<u64>>::value, "sorter moves");
static_assert(std::is_nothrow_move_constructible<priority_queue<u64>>::value, "priority_queue moves");
static_assert(std::is_nothrow_move_constructible<flashxxl::stack<u64>>::value, "stack moves");
static_assert(std::is_nothrow_move_constructible<flashxxl::queue<u64>>::value, "queue moves");
static_assert(std::is_nothrow_move_constructible<flashxxl::map<u64, u64>>::value, "map moves");
static_assert(!std::is_copy_constructible<flashxxl::vector<u64>>::value,
              "a vector is not copied by accident");

//! The device space and the program account a test starts from, checked to be back at the end.
struct leak_check {
    machine m = flashxxl_test::tiny_machine("64MiB");
    memory_account program;
    u64 room_before = m.room_for(role::scratch);
    memory_budget part() { return memory_budget(budget, program); }
    void expect_all_returned() {
        EXPECT_EQ(m.room_for(role::scratch), room_before) << "an extent was not given back";
        EXPECT_EQ(program.current(), 0u) << "a buffer was not released into its account";
    }
};

flashxxl::vector<u64> filled_vector(machine& m, const memory_budget& b, u64 n, u64 first) {
    flashxxl::vector<u64> v(m, b, blocks, role::scratch);
    for (u64 i = 0; i < n; ++i)
        v.push_back(first + i);
    return v; // moves out
}

//! A recursion that returns vectors by value (the case that needed unique_ptr<vector> before).
flashxxl::vector<u64> halves(machine& m, const memory_budget& b, u64 n, u64 first) {
    if (n <= items / 4) return filled_vector(m, b, n, first);
    flashxxl::vector<u64> left = halves(m, b, n / 2, first);
    flashxxl::vector<u64> right = halves(m, b, n - n / 2, first + n / 2);
    for (u64 i = 0; i < right.size(); ++i)
        left.push_back(right[i]);
    return left;
}

void expect_counting(flashxxl::vector<u64>& v, u64 n, u64 first) {
    ASSERT_EQ(v.size(), n);
    for (u64 i = 0; i < n; i += 997)
        ASSERT_EQ(u64(v[i]), first + i) << "at " << i;
    EXPECT_EQ(u64(v[n - 1]), first + n - 1);
}

TEST(MovableContainers, VectorMovesConstructsAssignsAndSwaps) {
    leak_check c;
    {
        flashxxl::vector<u64> a = filled_vector(c.m, c.part(), items, 0);
        expect_counting(a, items, 0);
        flashxxl::vector<u64> b(std::move(a));
        expect_counting(b, items, 0);
        flashxxl::vector<u64> d = filled_vector(c.m, c.part(), items / 2, 7);
        d = std::move(b); // d's own items and extents go back
        expect_counting(d, items, 0);
        flashxxl::vector<u64> e = filled_vector(c.m, c.part(), 10, 1000000);
        swap(d, e);
        expect_counting(d, 10, 1000000);
        expect_counting(e, items, 0);
        e[5] = 42; // a moved vector still writes to its extents
        EXPECT_EQ(u64(e[5]), 42u);
        EXPECT_LE(c.program.peak(), 4 * budget);
    }
    c.expect_all_returned();
}

TEST(MovableContainers, VectorsReturnedFromARecursion) {
    leak_check c;
    {
        flashxxl::vector<u64> v = halves(c.m, c.part(), items, 3);
        expect_counting(v, items, 3);
    }
    c.expect_all_returned();
}

TEST(MovableContainers, SorterMovesBetweenPushAndOutput) {
    leak_check c;
    {
        std::mt19937_64 rng(1);
        std::vector<u64> input(items);
        for (u64& x : input)
            x = rng();
        sorter<u64> s(c.m, c.part(), blocks);
        for (u64 i = 0; i < items / 2; ++i)
            s.push(input[i]);
        sorter<u64> t(std::move(s)); // mid-input, runs already written
        for (u64 i = items / 2; i < items; ++i)
            t.push(input[i]);
        t.sort();
        sorter<u64> other(c.m, c.part(), blocks);
        other.push(5);
        other = std::move(t); // mid-output source; other's own item goes
        std::sort(input.begin(), input.end());
        ASSERT_EQ(other.size(), items);
        for (u64 i = 0; i < items / 3; ++i, ++other)
            ASSERT_EQ(*other, input[i]);
        sorter<u64> last(c.m, c.part(), blocks);
        swap(last, other);
        EXPECT_EQ(last.size(), items - items / 3);
        std::vector<u64> rest(last.size());
        last.pop_into(rest.data(), rest.size());
        EXPECT_TRUE(std::equal(rest.begin(), rest.end(), input.begin() + items / 3));
    }
    c.expect_all_returned();
}

TEST(MovableContainers, PriorityQueueAndStackAndQueueMove) {
    leak_check c;
    {
        priority_queue<u64> pq(c.m, c.part(), blocks);
        flashxxl::stack<u64> st(c.m, c.part(), blocks, role::scratch);
        flashxxl::queue<u64> qu(c.m, c.part(), blocks, role::scratch);
        for (u64 i = 0; i < items; ++i) {
            pq.push((i * 7919) % items);
            st.push(i);
            qu.push(i);
        }
        priority_queue<u64> pq2(std::move(pq));
        flashxxl::stack<u64> st2(c.m, c.part(), blocks, role::scratch);
        st2.push(99);
        st2 = std::move(st);
        flashxxl::queue<u64> qu2(c.m, c.part(), blocks, role::scratch);
        qu2.push(99);
        qu2 = std::move(qu);
        for (u64 i = 0; i < items; ++i) {
            ASSERT_EQ(pq2.top(), items - 1 - i);
            pq2.pop();
            ASSERT_EQ(st2.top(), items - 1 - i);
            st2.pop();
            ASSERT_EQ(qu2.front(), i);
            qu2.pop();
        }
        EXPECT_TRUE(pq2.empty() && st2.empty() && qu2.empty());
        flashxxl::queue<u64> qu3(c.m, c.part(), blocks, role::scratch);
        qu3.push(1);
        swap(qu2, qu3);
        EXPECT_EQ(qu2.size(), 1u);
        EXPECT_TRUE(qu3.empty());
    }
    c.expect_all_returned();
}

TEST(MovableContainers, MapMovesAndSwapsWithItsIterators) {
    leak_check c;
    {
        flashxxl::map<u64, u64> a(c.m, c.part(), blocks, std::less<u64>(), role::scratch);
        std::vector<std::pair<u64, u64>> sorted;
        for (u64 i = 0; i < items / 4; ++i)
            sorted.emplace_back(2 * i, i);
        a.bulk_load(sorted.begin(), sorted.end());
        auto it = a.find(100);
        flashxxl::map<u64, u64> b(std::move(a));
        ++it; // the iterator refers to the body, which moved with the map
        EXPECT_EQ(it->first, 102u);
        flashxxl::map<u64, u64> d(c.m, c.part(), blocks, std::less<u64>(), role::scratch);
        d.insert({1, 1});
        swap(b, d);
        EXPECT_EQ(d.size(), items / 4);
        EXPECT_EQ(b.size(), 1u);
        EXPECT_EQ(d.find(4)->second, 2u);
        b = std::move(d);
        EXPECT_EQ(b.size(), items / 4);
        b.check_structure();
    }
    c.expect_all_returned();
}

TEST(MapIterators, StayValidAcrossInsertsAndErasesOfOthers) {
    leak_check c;
    flashxxl::map<u64, u64> m(c.m, c.part(), blocks, std::less<u64>(), role::scratch);
    std::map<u64, u64> oracle;
    std::vector<std::pair<u64, u64>> sorted;
    for (u64 i = 0; i < 4000; ++i)
        sorted.emplace_back(10 * i, i);
    m.bulk_load(sorted.begin(), sorted.end());
    oracle.insert(sorted.begin(), sorted.end());
    std::mt19937_64 rng(7);
    // Walk the map while inserting keys before and after the walk's position (splitting the
    // leaves under it) and erasing others: ++ always gives the next key that is in the map now.
    auto it = m.begin();
    u64 steps = 0;
    while (it != m.end()) {
        const u64 key = it->first;
        ASSERT_EQ(it->second, oracle.at(key));
        for (int k = 0; k < 2; ++k) {
            const u64 fresh = rng() % 40000;
            if (m.insert({fresh, fresh + 1}).second) oracle.emplace(fresh, fresh + 1);
        }
        const u64 victim = (rng() % 4000) * 10;
        if (victim != key) {
            EXPECT_EQ(m.erase(victim), oracle.erase(victim));
        }
        ++it;
        auto expected = oracle.upper_bound(key);
        if (expected == oracle.end()) {
            ASSERT_TRUE(it == m.end()) << "after " << key;
        } else {
            ASSERT_TRUE(it != m.end()) << "after " << key;
            ASSERT_EQ(it->first, expected->first) << "after " << key;
        }
        ++steps;
    }
    EXPECT_GT(steps, 4000u); // the walk also met the keys inserted ahead of it
    m.check_structure();
}

TEST(MapIterators, AnErasedItemsIteratorMovesToItsSuccessor) {
    leak_check c;
    flashxxl::map<u64, u64> m(c.m, c.part(), blocks, std::less<u64>(), role::scratch);
    for (u64 k = 0; k < 5000; ++k)
        m.insert({k, k});
    auto it = m.find(1234);
    auto same = m.find(1234);
    EXPECT_EQ(m.erase(1234), 1u);
    EXPECT_EQ(it->first, 1234u); // the copy it holds
    EXPECT_TRUE(it == same);     // iterators compare by key
    ++it;
    EXPECT_EQ(it->first, 1235u);
    EXPECT_TRUE(it == m.find(1235));
    m.clear();
    ++same;
    EXPECT_TRUE(same == m.end());
}

} // namespace
