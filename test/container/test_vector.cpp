// Tests of container/vector.hpp: random access vs std::vector, Bw write-back, Br reads, streams, memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/vector.hpp"

using namespace flashxxl;
using flashxxl_test::item;

namespace {
constexpr std::size_t br = 4096, bw = 16384;
using small_blocks = blocks<br, bw>;
}  // namespace

template <class T>
class vector_typed : public ::testing::Test {};
using item_types = ::testing::Types<item<4>, item<8>, item<16>, item<40>>;
TYPED_TEST_SUITE(vector_typed, item_types);

TYPED_TEST(vector_typed, random_access_matches_std_vector) {
    using T = TypeParam;
    using V = vector<T, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    const std::uint64_t memory = V::min_memory() + 4 * br;  // a handful of pages: mostly misses
    std::mt19937 rng(7);
    std::vector<T> ref;
    ref.reserve(3 * V::items_per_group + 17);
    flashxxl_test::alloc_tracker::start();
    std::int64_t peak = 0;
    std::uint64_t groups = 0;
    {
        V v(m, memory, role::hot);
        const std::uint64_t n = 3 * V::items_per_group + 17;  // not a multiple of anything
        for (std::uint64_t i = 0; i < n; ++i) {
            v.push_back(T(std::uint32_t(i), std::uint32_t(i)));
            ref.push_back(T(std::uint32_t(i), std::uint32_t(i)));
        }
        for (int op = 0; op < 6000; ++op) {
            std::uint64_t i = rng() % n;
            if (rng() % 3 == 0) {
                std::uint32_t k = std::uint32_t(rng());
                v[i] = T(k, k);
                ref[i] = T(k, k);
            } else {
                ASSERT_TRUE(v.get(i) == ref[i]) << i;
            }
        }
        ASSERT_EQ(v.size(), ref.size());
        std::uint64_t i = 0;
        for (auto it = v.cbegin(); it != v.cend(); ++it, ++i) ASSERT_TRUE(*it == ref[i]) << i;
        v.pop_back();
        ref.pop_back();
        EXPECT_TRUE(v.back() == ref.back());
        EXPECT_LE(v.account().peak(), memory);
        groups = (n + V::items_per_group - 1) / V::items_per_group;
        peak = flashxxl_test::alloc_tracker::peak();
    }
    flashxxl_test::alloc_tracker::stop();
    // Everything the test thread allocated: M plus the group directory (an extent and a page
    // count per group, with vector slack).
    EXPECT_LE(peak, std::int64_t(memory + 4 * groups * (sizeof(extent) + 4)));
    device_stats s = flashxxl_test::total_stats(m);
    const io_counters& c = s.of(role::hot);
    EXPECT_EQ(c.read_bytes, c.read_ops * br);
    // Write-back is one write per group: Bw, except for the last (partial) group.
    EXPECT_GT(c.write_ops, 0u);
    EXPECT_LT(c.write_ops * bw - c.write_bytes, c.write_ops * bw / 2);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(vector, every_write_back_is_bw_when_groups_are_full) {
    using T = std::uint64_t;
    using V = vector<T, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    V v(m, V::min_memory(), role::hot);
    v.resize(4 * V::items_per_group, 5);
    std::mt19937 rng(3);
    std::vector<T> ref(v.size(), 5);
    device_stats before = flashxxl_test::total_stats(m);
    for (int op = 0; op < 5000; ++op) {
        std::uint64_t i = rng() % ref.size();
        v.set(i, op);
        ref[i] = op;
    }
    v.flush();
    device_stats d = flashxxl_test::total_stats(m) - before;
    EXPECT_GT(d.total.write_ops, 100u);
    EXPECT_EQ(d.total.write_bytes, d.total.write_ops * bw);
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * br);
    for (std::uint64_t i = 0; i < ref.size(); ++i) ASSERT_EQ(v.get(i), ref[i]);
}

TEST(vector, streams_roundtrip_and_append_to_partial_group) {
    using T = item<40>;
    using V = vector<T, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    V v(m, V::min_memory());
    std::uint64_t n1 = V::items_per_group + 5, n2 = 2 * V::items_per_group + 3;
    {
        V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n1; ++i) w.push(T(std::uint32_t(i), std::uint32_t(i)));
    }
    v.push_back(T(7, 7));  // through the cache, then another stream appends after it
    {
        V::stream_writer w(v);
        for (std::uint64_t i = 0; i < n2; ++i) w.push(T(std::uint32_t(i + n1 + 1), std::uint32_t(i + n1 + 1)));
        w.finish();
    }
    ASSERT_EQ(v.size(), n1 + 1 + n2);
    std::uint64_t i = 0;
    for (V::stream_reader r(v); !r.empty(); ++r, ++i) {
        std::uint32_t want = i == n1 ? 7 : std::uint32_t(i);
        ASSERT_TRUE(*r == T(want, want)) << i;
    }
    EXPECT_EQ(i, v.size());
    // A sub-range starting inside a page.
    i = 10;
    for (V::stream_reader r(v, 10, n1); !r.empty(); ++r, ++i) ASSERT_EQ(r->key, std::uint32_t(i));
    EXPECT_EQ(i, n1);
    device_stats s = flashxxl_test::total_stats(m);
    EXPECT_EQ(s.total.read_bytes, s.total.read_ops * br);
}

TEST(vector, resize_clear_and_errors) {
    using V = vector<std::uint32_t, small_blocks>;
    machine m = flashxxl_test::tiny_machine();
    EXPECT_THROW(V(m, 1024), config_error);
    V v(m, V::min_memory());
    EXPECT_TRUE(v.empty());
    EXPECT_THROW(v.pop_back(), invalid_request);
    v.resize(10000, 9);
    EXPECT_EQ(v.size(), 10000u);
    EXPECT_EQ(v.get(9999), 9u);
    EXPECT_THROW(v.get(10000), invalid_request);
    v.resize(20000, 4);
    EXPECT_EQ(v.get(9999), 9u);
    EXPECT_EQ(v.get(10000), 4u);
    v.resize(5);
    EXPECT_EQ(v.size(), 5u);
    std::vector<std::uint32_t> copy(v.cbegin(), v.cend());
    EXPECT_EQ(copy, std::vector<std::uint32_t>(5, 9));
    std::fill(v.begin(), v.end(), 3u);
    EXPECT_EQ(v.get(4), 3u);
    v.clear();
    EXPECT_EQ(v.size(), 0u);
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}

TEST(vector, out_of_space_keeps_data_and_stays_destructible) {
    using V = vector<std::uint64_t, small_blocks>;
    machine m = flashxxl_test::tiny_machine("64KiB");  // four groups
    {
        V v(m, V::min_memory());
        bool thrown = false;
        std::uint64_t pushed = 0;
        try {
            for (; pushed < 1000000; ++pushed) v.push_back(pushed);
            v.flush();
        } catch (const out_of_space&) {
            thrown = true;
        }
        EXPECT_TRUE(thrown);
        // The pages that did not fit stay dirty in the cache (nothing is dropped silently);
        // shrinking to what fits lets the vector work on.
        v.resize(4 * V::items_per_group);
        // Items of the groups that were written are intact.
        for (std::uint64_t i = 0; i < 4 * V::items_per_group; ++i) ASSERT_EQ(v.get(i), i);
    }
    EXPECT_EQ(m.dev(0).allocator().used_bytes(), 0u);
}
