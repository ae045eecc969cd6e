// Tests of container/small_sorter.hpp: the in-memory array while small, the sorter beyond, one output, one
// budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "container/helpers.hpp"
#include "flashxxl/container/small_sorter.hpp"
#include "flashxxl/io/memory_account.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {

const block_sizes blocks_4k_16k(4096, 16384);

//! Pushes n items of 16 bytes with keys from few values (many repeats), sorts, and checks the
//! output against std::sort, the memory peak against the budget and the device traffic against
//! where the items were.
void check(std::uint64_t n, std::uint64_t memory) {
    SCOPED_TRACE("n " + std::to_string(n) + ", memory " + std::to_string(memory));
    machine m = flashxxl_test::tiny_machine();
    memory_account acc;
    using T = item<16>;
    small_sorter<T> s(m, memory, blocks_4k_16k, std::less<T>(), role::scratch, &acc);
    std::mt19937 rng{std::uint32_t(n)};
    std::vector<std::uint32_t> keys;
    for (std::uint64_t i = 0; i < n; ++i) {
        keys.push_back(rng() % (n / 4 + 1));
        s.push(T(keys.back(), keys.back())); // equal keys carry equal payloads: one sorted order
    }
    EXPECT_EQ(s.size(), n);
    s.sort();
    std::sort(keys.begin(), keys.end());
    for (std::uint64_t i = 0; i < n; ++i, ++s) {
        ASSERT_FALSE(s.empty()) << "item " << i;
        ASSERT_TRUE(*s == T(keys[i], keys[i])) << "item " << i;
        ASSERT_EQ(s->key, keys[i]);
    }
    EXPECT_TRUE(s.empty());
    EXPECT_LE(acc.peak(), memory) << "the array, the sorter and both together while it takes over";
    const bool fits = n * sizeof(T) <= small_sorter<T>::array_limit(memory, blocks_4k_16k) / 2;
    if (fits) {
        EXPECT_FALSE(s.external());
        EXPECT_EQ(flashxxl_test::total_stats(m).total.ops(), 0u) << "a small sort touches no device";
    }
    if (n * sizeof(T) > memory) {
        EXPECT_TRUE(s.external());
        EXPECT_GT(flashxxl_test::total_stats(m).total.write_bytes, 0u)
            << "more than the budget: runs on the device";
    }
}

} // namespace

TEST(small_sorter, same_output_as_std_sort_in_memory_at_the_switch_and_beyond) {
    const std::uint64_t memory = 256 * 1024;
    const std::uint64_t limit_items =
        small_sorter<item<16>>::array_limit(memory, blocks_4k_16k) / sizeof(item<16>);
    for (std::uint64_t n :
         {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2), std::uint64_t(100), limit_items / 2,
          limit_items / 2 + 1, limit_items, limit_items + 1, 4 * memory / sizeof(item<16>)})
        check(n, memory);
}

TEST(small_sorter, switches_once_the_array_would_pass_its_limit) {
    machine m = flashxxl_test::tiny_machine();
    const std::uint64_t memory = 256 * 1024;
    const std::uint64_t limit = small_sorter<std::uint64_t>::array_limit(memory, blocks_4k_16k);
    EXPECT_EQ(limit, memory / 3);
    memory_account acc;
    small_sorter<std::uint64_t> s(m, memory, blocks_4k_16k, {}, role::scratch, &acc);
    std::uint64_t i = 0;
    for (; !s.external(); ++i) {
        ASSERT_LE(acc.current(), limit) << "the array stays within its limit";
        s.push(i);
    }
    EXPECT_GT(i * sizeof(std::uint64_t), limit / 4) << "the array doubled up to about its limit first";
    EXPECT_LE(i * sizeof(std::uint64_t), limit + sizeof(std::uint64_t));
    EXPECT_LE(acc.peak(), memory);
}

TEST(small_sorter, a_budget_at_the_sorters_minimum_uses_the_sorter_at_once) {
    machine m = flashxxl_test::tiny_machine();
    const std::uint64_t memory = sorter<std::uint64_t>::min_memory(blocks_4k_16k);
    EXPECT_EQ(small_sorter<std::uint64_t>::array_limit(memory, blocks_4k_16k), 0u);
    small_sorter<std::uint64_t> s(m, memory, blocks_4k_16k);
    s.push(7);
    EXPECT_TRUE(s.external());
    s.push(3);
    s.sort();
    EXPECT_EQ(*s, 3u);
    ++s;
    EXPECT_EQ(*s, 7u);
}

TEST(small_sorter, misuse_and_a_budget_below_the_minimum_are_refused) {
    machine m = flashxxl_test::tiny_machine();
    EXPECT_THROW(small_sorter<std::uint64_t>(m, 1024, blocks_4k_16k), config_error);
    small_sorter<std::uint64_t> s(m, 256 * 1024, blocks_4k_16k);
    EXPECT_THROW((void)*s, invalid_request) << "before sort()";
    s.push(1);
    s.sort();
    EXPECT_THROW(s.push(2), invalid_request);
    EXPECT_THROW(s.sort(), invalid_request);
    ++s;
    EXPECT_TRUE(s.empty());
    EXPECT_THROW(++s, invalid_request) << "past the end";
}

// A spill that finds no room leaves the items in the array (the sorter is taken on only once
// it holds them all): the push may be retried, and no item is lost (a failed spill used to
// keep a sorter that held only its first run's worth, silently dropping the rest).
TEST(small_sorter, a_failed_spill_keeps_the_items_and_can_be_retried) {
    machine m = flashxxl_test::tiny_machine("4MiB");
    const std::uint64_t memory = 103712; // the sorter's runs are shorter than the array it takes over
    small_sorter<std::uint64_t> s(m, memory, blocks_4k_16k);
    std::uint64_t pushed = 0;
    {
        owned_extent filler = m.allocate(role::scratch, m.dev(0).capacity()); // no room for runs
        try {
            for (; pushed < 20000; ++pushed)
                s.push(20000 - pushed);
            FAIL() << "no out_of_space";
        } catch (const out_of_space&) {
        }
        EXPECT_FALSE(s.external());
        EXPECT_EQ(s.size(), pushed);
    }
    for (; pushed < 20000; ++pushed)
        s.push(20000 - pushed); // the failed push, retried, and the rest
    EXPECT_TRUE(s.external());
    EXPECT_EQ(s.size(), 20000u);
    s.sort();
    for (std::uint64_t i = 1; i <= 20000; ++i, ++s)
        ASSERT_EQ(*s, i);
    EXPECT_TRUE(s.empty());
}
