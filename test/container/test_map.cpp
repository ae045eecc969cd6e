// Tests of container/map.hpp (the two-level B-tree) against std::map, with counted I/O, memory and error
// checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/map.hpp"

using namespace flashxxl;

namespace {

//! A value of `Bytes` bytes without a default constructor; its bytes derive from a tag.
template <std::size_t Bytes> struct payload {
    std::uint8_t b[Bytes];
    payload() = delete;
    explicit payload(std::uint64_t tag) {
        for (std::size_t i = 0; i < Bytes; ++i)
            b[i] = std::uint8_t(tag * 131 + i * 7);
    }
    friend bool operator==(const payload& x, const payload& y) { return std::memcmp(x.b, y.b, Bytes) == 0; }
};

//! A key without a default constructor, ordered by a plain comparator (no sentinels).
struct odd_key {
    std::uint32_t hi, lo;
    odd_key() = delete;
    explicit odd_key(std::uint64_t v) : hi(std::uint32_t(v >> 32)), lo(std::uint32_t(v)) {}
    std::uint64_t value() const { return std::uint64_t(hi) << 32 | lo; }
};
struct odd_less {
    bool operator()(const odd_key& a, const odd_key& b) const { return a.value() < b.value(); }
};

//! A key of `Bytes` bytes: so few per Br block that the tree inside a node has three or more
//! levels even for small Bw.
template <std::size_t Bytes> struct fat_key {
    std::uint64_t v;
    std::uint8_t pad[Bytes - 8];
    fat_key() = delete;
    explicit fat_key(std::uint64_t x) : v(x) { std::memset(pad, int(x & 0xff), sizeof pad); }
    std::uint64_t value() const { return v; }
};
struct fat_less {
    template <class K> bool operator()(const K& a, const K& b) const { return a.v < b.v; }
};

template <class K> K make_key(std::uint64_t v) { return K(v); }
template <class K> std::uint64_t key_value(const K& k) {
    if constexpr (std::is_integral<K>::value)
        return std::uint64_t(k);
    else
        return k.value();
}

machine machine_of(const std::string& size) { return flashxxl_test::tiny_machine(size); }

machine tl_machine() {
    return machine::from_config_text(
        "name=tl-map\n"
        "flash=memory,64MiB,memory name=ssd tl=on tl_page=4KiB tl_segment=64KiB\n"
        "placement=single device=ssd\n",
        "tl-map.cfg");
}

//! Compares the whole map with the reference by iteration, and size().
template <class Map, class Ref> void expect_same(Map& m, const Ref& ref, const std::string& where) {
    ASSERT_EQ(m.size(), ref.size()) << where;
    ASSERT_EQ(m.empty(), ref.empty()) << where;
    auto it = m.begin();
    for (const auto& [k, v] : ref) {
        ASSERT_TRUE(it != m.end()) << where << ": ended early before key " << k;
        ASSERT_EQ(key_value(it->first), k) << where;
        ASSERT_TRUE(it->second == v) << where << ": value of key " << k;
        ++it;
    }
    ASSERT_TRUE(it == m.end()) << where << ": more items than the reference";
}

//! Random inserts (with duplicates), finds, lower_bounds, erases, iteration after every phase,
//! erase everything, bulk_load then updates: all against std::map.
template <class K, class V, class Cmp>
void randomized(machine& mach, const block_sizes& b, std::uint64_t n, std::uint32_t seed,
                std::uint64_t memory = 0) {
    using M = flashxxl::map<K, V, Cmp>;
    std::map<std::uint64_t, V> ref;
    std::mt19937_64 rng(seed);
    const std::uint64_t key_range = 3 * n;
    {
        M m(mach, memory ? memory : M::min_memory(b), b);
        EXPECT_TRUE(m.begin() == m.end());
        EXPECT_TRUE(m.find(make_key<K>(5)) == m.end());
        EXPECT_EQ(m.erase(make_key<K>(5)), 0u);
        // Phase 1: inserts with duplicates.
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t k = rng() % key_range;
            auto [it, inserted] = m.insert({make_key<K>(k), V(k + i)});
            auto [rit, rinserted] = ref.insert({k, V(k + i)});
            ASSERT_EQ(inserted, rinserted) << "insert of " << k;
            ASSERT_EQ(key_value(it->first), k);
            ASSERT_TRUE(it->second == rit->second) << "insert of " << k << " returned the wrong item";
        }
        expect_same(m, ref, "after inserts");
        EXPECT_NO_THROW(m.check_structure()) << "after inserts";
        EXPECT_GE(m.height(), 2u) << "the test should build a tree of several levels";
        EXPECT_GT(m.node_count(), m.frames()) << "most nodes should live on the device only";
        // Phase 2: finds and lower_bounds of present and absent keys, also beyond both ends.
        for (std::uint64_t i = 0; i < n / 2; ++i) {
            std::uint64_t k = rng() % (key_range + 10);
            auto it = m.find(make_key<K>(k));
            auto rit = ref.find(k);
            ASSERT_EQ(it == m.end(), rit == ref.end()) << "find " << k;
            if (rit != ref.end()) {
                ASSERT_TRUE(it->second == rit->second);
            }
            auto lb = m.lower_bound(make_key<K>(k));
            auto rlb = ref.lower_bound(k);
            ASSERT_EQ(lb == m.end(), rlb == ref.end()) << "lower_bound " << k;
            if (rlb != ref.end()) {
                ASSERT_EQ(key_value(lb->first), rlb->first) << "lower_bound " << k;
                // A few steps of iteration from there.
                for (int s = 0; s < 3 && rlb != ref.end(); ++s, ++lb, ++rlb) {
                    ASSERT_TRUE(lb != m.end());
                    ASSERT_EQ(key_value(lb->first), rlb->first);
                }
            }
        }
        // Phase 3: erase about half, absent keys included.
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint64_t k = rng() % key_range;
            ASSERT_EQ(m.erase(make_key<K>(k)), ref.erase(k)) << "erase " << k;
        }
        expect_same(m, ref, "after erases");
        EXPECT_NO_THROW(m.check_structure()) << "after erases";
        // Phase 4: mixed.
        for (std::uint64_t i = 0; i < n / 2; ++i) {
            std::uint64_t k = rng() % key_range;
            if (rng() % 2) {
                ASSERT_EQ(m.insert({make_key<K>(k), V(k)}).second, ref.insert({k, V(k)}).second);
            } else {
                ASSERT_EQ(m.erase(make_key<K>(k)), ref.erase(k));
            }
        }
        expect_same(m, ref, "after mixed updates");
        EXPECT_NO_THROW(m.check_structure()) << "after mixed updates";
        // Phase 5: erase everything in random order.
        std::vector<std::uint64_t> all;
        for (const auto& kv : ref)
            all.push_back(kv.first);
        std::shuffle(all.begin(), all.end(), rng);
        for (std::uint64_t k : all)
            ASSERT_EQ(m.erase(make_key<K>(k)), 1u) << "erase all: " << k;
        ref.clear();
        expect_same(m, ref, "after erasing everything");
        EXPECT_EQ(m.node_count(), 0u);
        EXPECT_EQ(m.height(), 0u);
        // Phase 6: bulk_load then updates.
        std::vector<std::pair<K, V>> sorted;
        for (std::uint64_t i = 0; i < n; ++i) {
            sorted.emplace_back(make_key<K>(2 * i + 1), V(i));
            ref.insert({2 * i + 1, V(i)});
        }
        m.bulk_load(sorted.begin(), sorted.end());
        expect_same(m, ref, "after bulk_load");
        for (std::uint64_t i = 0; i < n / 2; ++i) {
            std::uint64_t k = rng() % (2 * n + 2);
            if (rng() % 3) {
                ASSERT_EQ(m.insert({make_key<K>(k), V(k)}).second, ref.insert({k, V(k)}).second);
            } else {
                ASSERT_EQ(m.erase(make_key<K>(k)), ref.erase(k));
            }
        }
        expect_same(m, ref, "after bulk_load and updates");
        EXPECT_NO_THROW(m.check_structure()) << "after bulk_load and updates";
        m.flush();
        m.drop_cache();
        expect_same(m, ref, "after drop_cache");
        EXPECT_LE(m.account().peak(), m.memory());
    }
    EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u) << "every node's extent goes back";
    EXPECT_EQ(mach.dev(0).release_errors(), 0u);
}

const std::vector<block_sizes>& pairs() {
    static const std::vector<block_sizes> p{{4 * KiB, 4 * KiB},
                                            {4 * KiB, 8 * KiB},
                                            {4 * KiB, 32 * KiB},
                                            {8 * KiB, 64 * KiB},
                                            {12 * KiB, 36 * KiB}};
    return p;
}

} // namespace

// Small entries (16 bytes): wide nodes; every pair of block sizes.
class map_pairs : public ::testing::TestWithParam<block_sizes> {};
TEST_P(map_pairs, matches_std_map_small_entries) {
    const block_sizes b = GetParam();
    machine m = machine_of("64MiB");
    // Enough items for several leaves even with the widest nodes.
    const std::uint64_t n = std::max<std::uint64_t>(3000, 5 * b.bw / 16);
    randomized<std::uint64_t, std::uint64_t, std::less<std::uint64_t>>(m, b, n, 1);
}
INSTANTIATE_TEST_SUITE_P(map, map_pairs, ::testing::ValuesIn(pairs()), [](const auto& p) {
    return "br" + std::to_string(p.param.br / KiB) + "k_bw" + std::to_string(p.param.bw / KiB) + "k";
});

// Large values (200 bytes): narrow leaves, a tree of three or more levels.
TEST(map, matches_std_map_large_values_three_levels) {
    for (const block_sizes& b : {block_sizes{4 * KiB, 4 * KiB}, block_sizes{4 * KiB, 8 * KiB}}) {
        SCOPED_TRACE(b.describe());
        machine m = machine_of("64MiB");
        randomized<std::uint64_t, payload<200>, std::less<std::uint64_t>>(m, b, 4000, 2);
    }
}

// A key without default constructor and a comparator object; odd sizes (12-byte entries).
TEST(map, matches_std_map_plain_comparator_key) {
    machine m = machine_of("64MiB");
    randomized<odd_key, payload<4>, odd_less>(m, block_sizes{4 * KiB, 16 * KiB}, 4000, 3);
}

// Keys of 1000 bytes: 3 per Br block, so each node's own tree has three or four levels.
TEST(map, matches_std_map_deep_trees_inside_nodes) {
    machine m = machine_of("64MiB");
    randomized<fat_key<1000>, std::uint64_t, fat_less>(m, block_sizes{4 * KiB, 64 * KiB}, 1500, 8);
}

// The same on a device with a translation layer (a read of never-written data is an error there).
TEST(map, works_on_a_translation_layer_device) {
    machine m = tl_machine();
    randomized<std::uint64_t, payload<24>, std::less<std::uint64_t>>(m, block_sizes{4 * KiB, 16 * KiB}, 2500,
                                                                     4);
    EXPECT_GT(flashxxl_test::total_stats(m).total.write_ops, 0u);
}

// Finds read a few Br blocks per primary level, never whole Bw nodes: a find on N items moves
// at most a small constant times Br log_Br N items (counted on the device).
TEST(map, find_transfers_br_log_br_n_items) {
    const block_sizes b{4 * KiB, 64 * KiB};
    machine mach = machine_of("256MiB");
    using M = flashxxl::map<std::uint64_t, std::uint64_t>;
    M m(mach, M::min_memory(b), b);
    const std::uint64_t n = 400000;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> in;
    for (std::uint64_t i = 0; i < n; ++i)
        in.emplace_back(3 * i, i);
    m.bulk_load(in);
    ASSERT_GE(m.height(), 2u);
    m.drop_cache();
    device_stats before = flashxxl_test::total_stats(mach);
    std::mt19937_64 rng(5);
    const std::uint64_t finds = 2000;
    for (std::uint64_t i = 0; i < finds; ++i) {
        std::uint64_t k = rng() % (3 * n);
        auto it = m.find(k);
        ASSERT_EQ(it != m.end(), k % 3 == 0);
        if (k % 3 == 0) {
            ASSERT_EQ(it->second, k / 3);
        }
    }
    device_stats d = flashxxl_test::total_stats(mach) - before;
    EXPECT_EQ(d.total.write_ops, 0u) << "finds write nothing";
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * b.br) << "finds read in Br blocks";
    const double item = sizeof(std::uint64_t) * 2;
    const double items_per_find = double(d.total.read_bytes) / item / double(finds);
    const double br_items = double(b.br) / item;
    const double bound = 3 * br_items * std::ceil(std::log(double(n)) / std::log(br_items));
    EXPECT_LE(items_per_find, bound);
    // The two-level layout at work: far less than one Bw node per primary level.
    EXPECT_LE(items_per_find * item, double(m.height()) * double(b.bw) / 4);
    EXPECT_GE(d.total.read_ops, finds) << "the cache (min_memory) cannot hold the tree";
    // A range scan reads the entry sub-blocks it passes, in Br blocks, not whole leaves.
    m.drop_cache();
    before = flashxxl_test::total_stats(mach);
    const std::uint64_t length = 20000;
    std::uint64_t seen = 0, expect = 3 * 1000;
    for (auto it = m.lower_bound(3 * 1000); it != m.end() && seen < length; ++it, ++seen, expect += 3)
        ASSERT_EQ(it->first, expect);
    ASSERT_EQ(seen, length);
    d = flashxxl_test::total_stats(mach) - before;
    EXPECT_EQ(d.total.read_bytes, d.total.read_ops * b.br);
    const std::uint64_t entry_blocks = length / (b.br / 16) + 1;
    EXPECT_LE(d.total.read_ops, entry_blocks + 4 * m.height() + 4)
        << "a scan reads about length / E Br blocks";
}

// A bulk load writes every node once, in whole Bw writes: each item about once.
TEST(map, bulk_load_writes_each_item_about_once_in_bw_writes) {
    for (const block_sizes& b : {block_sizes{4 * KiB, 64 * KiB}, block_sizes{16 * KiB, 256 * KiB}}) {
        SCOPED_TRACE(b.describe());
        machine mach = machine_of("256MiB");
        using M = flashxxl::map<std::uint64_t, std::uint64_t>;
        M m(mach, M::min_memory(b), b);
        const std::uint64_t n = 300000;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> in;
        for (std::uint64_t i = 0; i < n; ++i)
            in.emplace_back(i, 7 * i);
        m.bulk_load(in.begin(), in.end());
        device_stats s = flashxxl_test::total_stats(mach);
        EXPECT_EQ(s.total.write_ops, m.node_count());
        EXPECT_EQ(s.total.write_bytes, s.total.write_ops * b.bw);
        EXPECT_EQ(s.total.read_ops, 0u);
        EXPECT_LE(double(s.total.write_bytes), 1.15 * double(n * 16)) << "each item written about once";
        EXPECT_EQ(m.size(), n);
        // Spot checks, and a full scan.
        for (std::uint64_t k : {std::uint64_t(0), n / 2, n - 1})
            ASSERT_EQ(m.find(k)->second, 7 * k);
        std::uint64_t expect = 0;
        for (auto it = m.begin(); it != m.end(); ++it, ++expect)
            ASSERT_EQ(it->first, expect);
        EXPECT_EQ(expect, n);
        // Not empty: refused. Unsorted or duplicate input: refused, the map left empty.
        EXPECT_THROW(m.bulk_load(in.begin(), in.end()), invalid_request);
        m.clear();
        in[1000].first = in[999].first;
        try {
            m.bulk_load(in.begin(), in.end());
            ADD_FAILURE() << "duplicate keys accepted";
        } catch (const invalid_request& e) {
            EXPECT_NE(std::string(e.what()).find("item 1000"), std::string::npos) << e.what();
        }
        EXPECT_TRUE(m.empty());
        EXPECT_EQ(m.node_count(), 0u);
        EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
    }
}

// Updates batch in cached nodes: sequential inserts into a cached leaf cost no I/O until the
// node is evicted or flushed, then one Bw write per dirty node.
TEST(map, dirty_nodes_are_written_back_in_whole_bw_blocks) {
    const block_sizes b{4 * KiB, 32 * KiB};
    machine mach = machine_of("64MiB");
    using M = flashxxl::map<std::uint64_t, std::uint64_t>;
    M m(mach, 16 * MiB, b);
    for (std::uint64_t i = 0; i < 1000; ++i)
        m.insert({i, i});
    EXPECT_EQ(flashxxl_test::total_stats(mach).total.write_ops, 0u) << "a cached leaf absorbs the inserts";
    m.flush();
    device_stats s = flashxxl_test::total_stats(mach);
    EXPECT_EQ(s.total.write_ops, m.node_count());
    EXPECT_EQ(s.total.write_bytes, s.total.write_ops * b.bw);
    m.flush();
    EXPECT_EQ(flashxxl_test::total_stats(mach).total.write_ops, s.total.write_ops)
        << "clean nodes are not rewritten";
}

TEST(map, too_small_memory_is_a_clear_error) {
    machine mach = machine_of("64MiB");
    using M = flashxxl::map<std::uint64_t, std::uint64_t>;
    const block_sizes b{4 * KiB, 64 * KiB};
    EXPECT_NO_THROW(M(mach, M::min_memory(b), b));
    try {
        M m(mach, M::min_memory(b) / 2, b);
        ADD_FAILURE() << "a budget of half min_memory accepted";
    } catch (const config_error& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("flashxxl::map"), std::string::npos) << what;
        EXPECT_NE(what.find(format_bytes(double(M::min_memory(b)))), std::string::npos) << what;
        EXPECT_NE(what.find("Bw = 64KiB"), std::string::npos) << what;
    }
    // Items too large for a node of 4 entries.
    using big = flashxxl::map<std::uint64_t, payload<3000>>;
    EXPECT_THROW(big(mach, 64 * MiB, block_sizes{4 * KiB, 4 * KiB}), config_error);
    // Bad block sizes.
    EXPECT_THROW(M(mach, 64 * MiB, block_sizes{4 * KiB, 4 * KiB + 1}), config_error);
}

// The device fills up: the insert that needs a node throws out_of_space, nothing changes, the
// map stays usable and destructible, every extent goes back.
TEST(map, out_of_space_leaves_the_map_usable) {
    const block_sizes b{4 * KiB, 16 * KiB};
    machine mach = machine_of(std::to_string(24 * b.bw) + "B");
    using M = flashxxl::map<std::uint64_t, payload<40>>;
    std::map<std::uint64_t, payload<40>> ref;
    {
        M m(mach, M::min_memory(b), b);
        std::mt19937_64 rng(6);
        bool full = false;
        for (std::uint64_t i = 0; i < 100000 && !full; ++i) {
            std::uint64_t k = rng() % 1000000;
            try {
                bool inserted = m.insert({k, payload<40>(k)}).second;
                ASSERT_EQ(inserted, ref.insert({k, payload<40>(k)}).second);
            } catch (const out_of_space& e) {
                full = true;
                EXPECT_NE(std::string(e.what()).find("ssd"), std::string::npos) << e.what();
            }
        }
        ASSERT_TRUE(full) << "the device never filled up";
        expect_same(m, ref, "after out of space");
        EXPECT_NO_THROW(m.check_structure()) << "after out of space";
        // Erasing makes room again.
        std::vector<std::uint64_t> keys;
        for (const auto& kv : ref)
            keys.push_back(kv.first);
        for (std::size_t i = 0; i < keys.size(); i += 2) {
            ASSERT_EQ(m.erase(keys[i]), 1u);
            ref.erase(keys[i]);
        }
        for (std::uint64_t k = 1; k < 200; k += 2)
            ASSERT_EQ(m.insert({k, payload<40>(k)}).second, ref.insert({k, payload<40>(k)}).second);
        expect_same(m, ref, "after erasing half and inserting again");
        EXPECT_NO_THROW(m.check_structure()) << "after erasing half and inserting again";
        // A bulk load too large for the device: out_of_space, the map left empty.
        m.clear();
        ref.clear();
        std::vector<std::pair<std::uint64_t, payload<40>>> in;
        for (std::uint64_t i = 0; i < 20000; ++i)
            in.emplace_back(i, payload<40>(i));
        EXPECT_THROW(m.bulk_load(in.begin(), in.end()), out_of_space);
        EXPECT_TRUE(m.empty());
        EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
        m.insert({1, payload<40>(1)});
        EXPECT_EQ(m.size(), 1u);
    }
    EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
}

namespace {

// ---- a comparator that throws in the middle of an update --------------------------------------

struct comparator_failure : std::runtime_error {
    comparator_failure() : std::runtime_error("comparator failed (on purpose)") {}
};
//! Counts the calls of throwing_less and names the one that throws (0: none).
struct throw_plan {
    std::uint64_t calls = 0, throw_at = 0;
};
//! Orders fat keys; throws comparator_failure on call number plan->throw_at.
struct throwing_less {
    throw_plan* plan;
    template <class K> bool operator()(const K& a, const K& b) const {
        if (++plan->calls == plan->throw_at) throw comparator_failure();
        return a.v < b.v;
    }
};
// Keys of 128 bytes: 30 entries a node with Br = 4 KiB, Bw = 8 KiB, so trees of three levels
// stay small.
using throw_key = fat_key<128>;
using throw_map = flashxxl::map<throw_key, std::uint64_t, throwing_less>;
using throw_ref = std::map<std::uint64_t, std::uint64_t>;
const block_sizes throw_blocks{4 * KiB, 8 * KiB};
// 11 frames and 22 cached sub-blocks: the trees (up to 63 nodes) do not fit, frames are evicted
// during the updates, and the checks after each throw stay fast.
const std::uint64_t throw_memory = 256 * KiB;

//! Bulk loads keys 0, 2, ..., 2 (n - 1) (value 3 key) into both.
void load_even(throw_map& m, throw_ref& ref, std::uint64_t n) {
    std::vector<std::pair<throw_key, std::uint64_t>> in;
    for (std::uint64_t i = 0; i < n; ++i) {
        in.emplace_back(throw_key(2 * i), 6 * i);
        ref.emplace(2 * i, 6 * i);
    }
    m.bulk_load(in.begin(), in.end());
}

//! The map holds exactly the reference's items and finds each (and no absent neighbour), it
//! has one extent of Bw per node on the device, and check_structure() passes.
void expect_consistent(throw_map& m, const throw_ref& ref, machine& mach, const std::string& where) {
    expect_same(m, ref, where);
    if (::testing::Test::HasFatalFailure()) return;
    for (const auto& [k, v] : ref) {
        auto it = m.find(throw_key(k));
        ASSERT_TRUE(it != m.end()) << where << ": find(" << k << ") is end()";
        ASSERT_EQ(it->first.v, k) << where << ": find(" << k << ") returned another key";
        ASSERT_EQ(it->second, v) << where << ": value of key " << k;
        if (ref.count(k + 1) == 0) {
            ASSERT_TRUE(m.find(throw_key(k + 1)) == m.end())
                << where << ": find(" << k + 1 << ") of an absent key";
        }
    }
    EXPECT_EQ(m.node_count() * throw_blocks.bw, mach.dev(0).allocator().used_bytes())
        << where << ": the nodes on the device are not node_count() of Bw";
    try {
        m.check_structure();
    } catch (const invalid_request& e) {
        ADD_FAILURE() << where << ": " << e.what();
    }
}

//! A failure injected into the n-th call of something an update makes: the comparator's
//! calls (comparator_failure) or this thread's memory allocations (std::bad_alloc).
struct comparator_fault {
    using failure = comparator_failure;
    static constexpr const char* what = "comparator call";
    throw_plan* plan;
    void count() const { plan->calls = 0, plan->throw_at = 0; }
    std::uint64_t counted() const { return plan->calls; }
    void fail_at(std::uint64_t k) const { plan->calls = 0, plan->throw_at = k; }
    bool pending() const { return plan->throw_at != 0 && plan->calls < plan->throw_at; }
    void disarm() const { plan->throw_at = 0; }
};
//! The map's call returned: a failure still armed is past the call's allocations (it had been
//! moved past STXXL's), and the reference's update that follows must not fail.
bool& failure_left_over() {
    static bool left = false;
    return left;
}
void map_call_returned() {
    failure_left_over() = flashxxl_test::alloc_tracker::failure_pending();
    flashxxl_test::alloc_tracker::fail_at() = 0;
}
struct allocation_fault {
    using failure = std::bad_alloc;
    static constexpr const char* what = "allocation";
    using tracker = flashxxl_test::alloc_tracker;
    void count() const { tracker::fail_allocation(0), failure_left_over() = false; }
    std::uint64_t counted() const { return tracker::allocations(); }
    void fail_at(std::uint64_t k) const { tracker::fail_allocation(k), failure_left_over() = false; }
    bool pending() const { return failure_left_over(); }
    void disarm() const { tracker::fail_at() = 0; }
};

//! An update that fails half-way: the map built by `setup` (no failure), then `op`, run once
//! whole (it must change the height by `dheight` and the node count by `dnodes`, so that it
//! splits or merges what the scenario means) and then once per call of the fault's kind it
//! makes (comparator calls, allocations), with that call failing. After each failure the map
//! must be as before `op` (op updates the reference only when the map's call returns) and
//! stay usable: inserts that split and erases that merge match std::map.
template <class Fault, class Setup, class Op>
void sweep_failures(const std::string& name, Setup setup, Op op, int dheight, std::int64_t dnodes) {
    SCOPED_TRACE(name);
    throw_plan plan;
    const Fault fault = [&] {
        if constexpr (std::is_same_v<Fault, comparator_fault>)
            return Fault{&plan};
        else
            return Fault{};
    }();
    std::uint64_t calls = 0;
    {
        machine mach = machine_of("16MiB");
        throw_map m(mach, throw_memory, throw_blocks, throwing_less{&plan});
        throw_ref ref;
        setup(m, ref);
        const int h0 = int(m.height());
        const std::int64_t n0 = std::int64_t(m.node_count());
        fault.count();
        op(m, ref);
        calls = fault.counted();
        ASSERT_EQ(int(m.height()) - h0, dheight) << "the scenario no longer does what it is named for";
        ASSERT_EQ(std::int64_t(m.node_count()) - n0, dnodes)
            << "the scenario no longer does what it is named for";
        expect_consistent(m, ref, mach, "without a failure");
        if (::testing::Test::HasFailure()) return;
    }
    ASSERT_GT(calls, 0u);
    for (std::uint64_t k = 1; k <= calls; ++k) {
        const std::string where =
            std::string(Fault::what) + " " + std::to_string(k) + " of " + std::to_string(calls) + " failed";
        machine mach = machine_of("16MiB");
        throw_map m(mach, throw_memory, throw_blocks, throwing_less{&plan});
        throw_ref ref;
        setup(m, ref);
        fault.fail_at(k);
        bool failed = false;
        try {
            op(m, ref);
        } catch (const typename Fault::failure&) {
            failed = true;
        }
        // Only a failure moved past the op's last call (allocations inside STXXL are spared) lets it succeed.
        EXPECT_TRUE(failed || fault.pending()) << where << ": the update did not fail";
        fault.disarm();
        expect_consistent(m, ref, mach, where);
        if (::testing::Test::HasFailure()) return;
        // Keep using it: 2 C new keys in the lower part (leaf splits), every third key of the
        // part erased (merges and borrows), each result as std::map's.
        const std::uint64_t c = m.leaf_capacity();
        for (std::uint64_t i = 0; i < 2 * c; ++i) {
            const std::uint64_t key = 4 * i + 1;
            ASSERT_EQ(m.insert({throw_key(key), key}).second, ref.emplace(key, key).second)
                << where << ", insert " << key;
        }
        for (std::uint64_t key = 0; key < 8 * c; key += 3)
            ASSERT_EQ(m.erase(throw_key(key)), ref.erase(key)) << where << ", erase " << key;
        expect_consistent(m, ref, mach, where + ", then inserts and erases");
        if (::testing::Test::HasFailure()) return;
    }
}

// Capacities with throw_blocks (30 entries a node); the borrow and merge scenarios need them
// even (C + 1 entries spread over two nodes leave one at exactly C / 2, the minimum).
const std::uint64_t throw_c = throw_map::leaf_capacity(throw_blocks);
const std::uint64_t throw_ic = throw_map::inner_capacity(throw_blocks);
void insert_1(throw_map& m, throw_ref& ref) {
    m.insert({throw_key(1), 1});
    map_call_returned();
    ref.emplace(1, 1);
}
auto erase_key(std::uint64_t key) {
    return [key](throw_map& m, throw_ref& ref) {
        m.erase(throw_key(key));
        map_call_returned();
        ref.erase(key);
    };
}

// The scenarios of the failure sweeps: an insert that splits nodes (the root leaf, an internal
// root, an internal child and a leaf below it) or an erase that borrows or merges.
template <class Fault> void root_leaf_split() {
    ASSERT_TRUE(throw_c % 2 == 0 && throw_ic % 2 == 0 && throw_c <= 64) << throw_c << " " << throw_ic;
    // One full root leaf: split_root of a leaf.
    sweep_failures<Fault>(
        "root leaf split", [](throw_map& m, throw_ref& ref) { load_even(m, ref, throw_c); }, insert_1, +1,
        +2);
}
template <class Fault> void internal_root_split() {
    // A full internal root over full leaves: split_root of an internal node, then split_child of a leaf.
    sweep_failures<Fault>(
        "internal root split", [](throw_map& m, throw_ref& ref) { load_even(m, ref, throw_c * throw_ic); },
        insert_1, +1, +3);
}
template <class Fault> void internal_and_leaf_child_split() {
    // Two full internal nodes over full leaves: split_child of an internal node, then of a leaf.
    sweep_failures<Fault>(
        "internal and leaf child split",
        [](throw_map& m, throw_ref& ref) { load_even(m, ref, 2 * throw_c * throw_ic); }, insert_1, 0, +2);
}
template <class Fault> void leaf_borrow() {
    // Leaves of C / 2 + 1 and C / 2: erasing from the second borrows from the first.
    sweep_failures<Fault>(
        "leaf borrow", [](throw_map& m, throw_ref& ref) { load_even(m, ref, throw_c + 1); },
        erase_key(2 * throw_c), 0, 0);
}
template <class Fault> void leaf_merge_and_root_collapse() {
    // Both at C / 2: erasing merges them, and the root (one child left) goes.
    sweep_failures<Fault>(
        "leaf merge, root collapse",
        [](throw_map& m, throw_ref& ref) {
            load_even(m, ref, throw_c + 1);
            m.erase(throw_key(0));
            ref.erase(0);
        },
        erase_key(2 * throw_c), -1, -2);
}
template <class Fault> void internal_borrow() {
    // Internal nodes of IC / 2 + 1 and IC / 2 children: erasing under the second borrows a child.
    const std::uint64_t n = throw_c * (throw_ic + 1);
    sweep_failures<Fault>(
        "internal borrow", [n](throw_map& m, throw_ref& ref) { load_even(m, ref, n); },
        erase_key(2 * (n - 1)), 0, 0);
}
template <class Fault> void internal_merge_and_root_collapse() {
    // Both at IC / 2 (erases from the front merged two leaves of the first): the next erase
    // merges them and the root goes.
    std::uint64_t next_key = 0;
    sweep_failures<Fault>(
        "internal merge, root collapse",
        [&](throw_map& m, throw_ref& ref) {
            load_even(m, ref, throw_c * (throw_ic + 1));
            const std::uint64_t nodes = m.node_count();
            for (next_key = 0; m.node_count() == nodes; next_key += 2) {
                ASSERT_EQ(m.erase(throw_key(next_key)), 1u);
                ref.erase(next_key);
            }
        },
        [&](throw_map& m, throw_ref& ref) { erase_key(next_key)(m, ref); }, -1, -2);
}

} // namespace

// A comparator that throws during an update that splits, borrows or merges leaves the map as
// it was and usable: each comparator call of the update is made to throw once.
TEST(map, comparator_throw_in_root_leaf_split) { root_leaf_split<comparator_fault>(); }
TEST(map, comparator_throw_in_internal_root_split) { internal_root_split<comparator_fault>(); }
TEST(map, comparator_throw_in_internal_and_leaf_child_split) {
    internal_and_leaf_child_split<comparator_fault>();
}
TEST(map, comparator_throw_in_leaf_borrow) { leaf_borrow<comparator_fault>(); }
TEST(map, comparator_throw_in_leaf_merge_and_root_collapse) {
    leaf_merge_and_root_collapse<comparator_fault>();
}
TEST(map, comparator_throw_in_internal_borrow) { internal_borrow<comparator_fault>(); }
TEST(map, comparator_throw_in_internal_merge_and_root_collapse) {
    internal_merge_and_root_collapse<comparator_fault>();
}

// The same with each memory allocation the update makes failing once (std::bad_alloc): node
// bookkeeping, frames, sub-block cache entries, I/O requests.
TEST(map, allocation_failure_in_root_leaf_split) { root_leaf_split<allocation_fault>(); }
TEST(map, allocation_failure_in_internal_root_split) { internal_root_split<allocation_fault>(); }
TEST(map, allocation_failure_in_internal_and_leaf_child_split) {
    internal_and_leaf_child_split<allocation_fault>();
}
TEST(map, allocation_failure_in_leaf_borrow) { leaf_borrow<allocation_fault>(); }
TEST(map, allocation_failure_in_leaf_merge_and_root_collapse) {
    leaf_merge_and_root_collapse<allocation_fault>();
}
TEST(map, allocation_failure_in_internal_borrow) { internal_borrow<allocation_fault>(); }
TEST(map, allocation_failure_in_internal_merge_and_root_collapse) {
    internal_merge_and_root_collapse<allocation_fault>();
}

// max_nodes, the room `flashxxl btree` checks for, bounds node_count() after a bulk load and
// random inserts, and is not far above it (leaves about 70 % full after random splits).
TEST(map, max_nodes_bounds_the_node_count) {
    const block_sizes b{4 * KiB, 16 * KiB};
    machine mach = machine_of("64MiB");
    using M = flashxxl::map<std::uint64_t, std::uint64_t>;
    M m(mach, 4 * MiB, b);
    const std::uint64_t loaded = 20000;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> in;
    for (std::uint64_t i = 0; i < loaded; ++i)
        in.emplace_back(4 * i, i);
    m.bulk_load(in.begin(), in.end());
    EXPECT_LE(m.node_count(), M::max_nodes(b, loaded, 0));
    EXPECT_EQ(M::leaf_capacity(b), m.leaf_capacity());
    EXPECT_EQ(M::inner_capacity(b), m.inner_capacity());
    std::mt19937_64 rng(9);
    std::uint64_t inserted = 0;
    for (std::uint64_t i = 0; i < 3 * loaded; ++i) {
        const std::uint64_t k = 4 * (rng() % loaded) + 1 + i % 3;
        inserted += m.insert({k, k}).second ? 1 : 0;
    }
    const std::uint64_t bound = M::max_nodes(b, loaded, inserted);
    EXPECT_LE(m.node_count(), bound);
    EXPECT_GE(m.node_count() * 10, bound * 6) << m.node_count() << " nodes, bound " << bound;
    EXPECT_EQ(M::max_nodes(b, 0, 0), 0u);
    EXPECT_EQ(M::max_nodes(b, 0, 1), 1u);
    EXPECT_GE(M::max_nodes(b, UINT64_MAX, UINT64_MAX), UINT64_MAX / m.leaf_capacity()) << "no wrap-around";
}

// What the map really allocates stays within M plus its node directory (TPIE's habit).
TEST(map, real_allocation_stays_within_the_budget) {
    const block_sizes b{4 * KiB, 32 * KiB};
    machine mach = machine_of("64MiB");
    using M = flashxxl::map<std::uint64_t, std::uint64_t>;
    const std::uint64_t memory = 2 * MiB;
    std::vector<std::uint64_t> keys(60000);
    std::mt19937_64 rng(7);
    for (auto& k : keys)
        k = rng();
    std::int64_t peak = 0;
    std::uint64_t nodes = 0, found = 0, account_peak = 0;
    flashxxl_test::alloc_tracker::start();
    {
        M m(mach, memory, b);
        for (std::uint64_t k : keys)
            m.insert({k, k});
        nodes = m.node_count();
        for (std::uint64_t k : keys)
            found += m.find(k) != m.end() ? 1 : 0;
        for (std::size_t i = 0; i < keys.size(); i += 2)
            m.erase(keys[i]);
        for (auto it = m.begin(); it != m.end(); ++it)
            ++found;
        account_peak = m.account().peak();
        peak = flashxxl_test::alloc_tracker::peak();
    }
    flashxxl_test::alloc_tracker::stop();
    EXPECT_EQ(found, keys.size() + keys.size() / 2);
    EXPECT_LE(account_peak, memory);
    EXPECT_GT(nodes, 10u);
    EXPECT_LE(peak, std::int64_t(memory + M::directory_memory(nodes)))
        << "peak " << peak << " for M = " << memory << " and " << nodes << " nodes";
}
