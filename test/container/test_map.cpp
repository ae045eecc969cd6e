// Tests of container/map.hpp (the two-level B-tree) against std::map, with counted I/O, memory and error checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "container/alloc_tracker.hpp"
#include "container/helpers.hpp"
#include "flashxxl/container/map.hpp"

using namespace flashxxl;

namespace {

//! A value of `Bytes` bytes without a default constructor; its bytes derive from a tag.
template <std::size_t Bytes>
struct payload {
    std::uint8_t b[Bytes];
    payload() = delete;
    explicit payload(std::uint64_t tag) {
        for (std::size_t i = 0; i < Bytes; ++i) b[i] = std::uint8_t(tag * 131 + i * 7);
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
template <std::size_t Bytes>
struct fat_key {
    std::uint64_t v;
    std::uint8_t pad[Bytes - 8];
    fat_key() = delete;
    explicit fat_key(std::uint64_t x) : v(x) { std::memset(pad, int(x & 0xff), sizeof pad); }
    std::uint64_t value() const { return v; }
};
struct fat_less {
    template <class K>
    bool operator()(const K& a, const K& b) const { return a.v < b.v; }
};

template <class K>
K make_key(std::uint64_t v) {
    return K(v);
}
template <class K>
std::uint64_t key_value(const K& k) {
    if constexpr (std::is_integral<K>::value) return std::uint64_t(k);
    else return k.value();
}

machine machine_of(const std::string& size) { return flashxxl_test::tiny_machine(size); }

machine tl_machine() {
    return machine::from_config_text("name=tl-map\n"
                                     "flash=memory,64MiB,memory name=ssd tl=on tl_page=4KiB tl_segment=64KiB\n"
                                     "placement=single device=ssd\n",
                                     "tl-map.cfg");
}

//! Compares the whole map with the reference by iteration, and size().
template <class Map, class Ref>
void expect_same(Map& m, const Ref& ref, const std::string& where) {
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
void randomized(machine& mach, const block_sizes& b, std::uint64_t n, std::uint32_t seed, std::uint64_t memory = 0) {
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
        // Phase 5: erase everything in random order.
        std::vector<std::uint64_t> all;
        for (const auto& kv : ref) all.push_back(kv.first);
        std::shuffle(all.begin(), all.end(), rng);
        for (std::uint64_t k : all) ASSERT_EQ(m.erase(make_key<K>(k)), 1u) << "erase all: " << k;
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
        m.flush();
        m.drop_cache();
        expect_same(m, ref, "after drop_cache");
        EXPECT_LE(m.account().peak(), m.memory());
    }
    EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u) << "every node's extent goes back";
    EXPECT_EQ(mach.dev(0).release_errors(), 0u);
}

const std::vector<block_sizes>& pairs() {
    static const std::vector<block_sizes> p{{4 * KiB, 4 * KiB}, {4 * KiB, 8 * KiB}, {4 * KiB, 32 * KiB},
                                            {8 * KiB, 64 * KiB}, {12 * KiB, 36 * KiB}};
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
    randomized<std::uint64_t, payload<24>, std::less<std::uint64_t>>(m, block_sizes{4 * KiB, 16 * KiB}, 2500, 4);
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
    for (std::uint64_t i = 0; i < n; ++i) in.emplace_back(3 * i, i);
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
    EXPECT_LE(d.total.read_ops, entry_blocks + 4 * m.height() + 4) << "a scan reads about length / E Br blocks";
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
        for (std::uint64_t i = 0; i < n; ++i) in.emplace_back(i, 7 * i);
        m.bulk_load(in.begin(), in.end());
        device_stats s = flashxxl_test::total_stats(mach);
        EXPECT_EQ(s.total.write_ops, m.node_count());
        EXPECT_EQ(s.total.write_bytes, s.total.write_ops * b.bw);
        EXPECT_EQ(s.total.read_ops, 0u);
        EXPECT_LE(double(s.total.write_bytes), 1.15 * double(n * 16)) << "each item written about once";
        EXPECT_EQ(m.size(), n);
        // Spot checks, and a full scan.
        for (std::uint64_t k : {std::uint64_t(0), n / 2, n - 1}) ASSERT_EQ(m.find(k)->second, 7 * k);
        std::uint64_t expect = 0;
        for (auto it = m.begin(); it != m.end(); ++it, ++expect) ASSERT_EQ(it->first, expect);
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
    for (std::uint64_t i = 0; i < 1000; ++i) m.insert({i, i});
    EXPECT_EQ(flashxxl_test::total_stats(mach).total.write_ops, 0u) << "a cached leaf absorbs the inserts";
    m.flush();
    device_stats s = flashxxl_test::total_stats(mach);
    EXPECT_EQ(s.total.write_ops, m.node_count());
    EXPECT_EQ(s.total.write_bytes, s.total.write_ops * b.bw);
    m.flush();
    EXPECT_EQ(flashxxl_test::total_stats(mach).total.write_ops, s.total.write_ops) << "clean nodes are not rewritten";
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
        // Erasing makes room again.
        std::vector<std::uint64_t> keys;
        for (const auto& kv : ref) keys.push_back(kv.first);
        for (std::size_t i = 0; i < keys.size(); i += 2) {
            ASSERT_EQ(m.erase(keys[i]), 1u);
            ref.erase(keys[i]);
        }
        for (std::uint64_t k = 1; k < 200; k += 2) ASSERT_EQ(m.insert({k, payload<40>(k)}).second, ref.insert({k, payload<40>(k)}).second);
        expect_same(m, ref, "after erasing half and inserting again");
        // A bulk load too large for the device: out_of_space, the map left empty.
        m.clear();
        ref.clear();
        std::vector<std::pair<std::uint64_t, payload<40>>> in;
        for (std::uint64_t i = 0; i < 20000; ++i) in.emplace_back(i, payload<40>(i));
        EXPECT_THROW(m.bulk_load(in.begin(), in.end()), out_of_space);
        EXPECT_TRUE(m.empty());
        EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
        m.insert({1, payload<40>(1)});
        EXPECT_EQ(m.size(), 1u);
    }
    EXPECT_EQ(mach.dev(0).allocator().used_bytes(), 0u);
}

// What the map really allocates stays within M plus its node directory (TPIE's habit).
TEST(map, real_allocation_stays_within_the_budget) {
    const block_sizes b{4 * KiB, 32 * KiB};
    machine mach = machine_of("64MiB");
    using M = flashxxl::map<std::uint64_t, std::uint64_t>;
    const std::uint64_t memory = 2 * MiB;
    std::vector<std::uint64_t> keys(60000);
    std::mt19937_64 rng(7);
    for (auto& k : keys) k = rng();
    std::int64_t peak = 0;
    std::uint64_t nodes = 0, found = 0, account_peak = 0;
    flashxxl_test::alloc_tracker::start();
    {
        M m(mach, memory, b);
        for (std::uint64_t k : keys) m.insert({k, k});
        nodes = m.node_count();
        for (std::uint64_t k : keys) found += m.find(k) != m.end() ? 1 : 0;
        for (std::size_t i = 0; i < keys.size(); i += 2) m.erase(keys[i]);
        for (auto it = m.begin(); it != m.end(); ++it) ++found;
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
